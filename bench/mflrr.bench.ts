// Parse and index a 10,000,000-op machin trace with the CLI (`frozen-run inspect --json
// --no-toolchain`, a child process so its peak RSS is its own), against `wc -l` on the same file in
// the same run. Goals (issue 2): at most 15x wc -l's wall time, peak RSS at most 2x the file size.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from './types';
import { generatedTrace } from './generated-trace';

const ROOT = join(__dirname, '..');
const OPS = 10_000_000;
const GOROUTINES = 64;
const TRACE = generatedTrace(OPS, GOROUTINES);
const CLI = join(ROOT, 'dist', 'cli.js');
const RUNS = 5;

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const size = statSync(TRACE).size;
  readFileSync(TRACE); // warm the page cache so both sides read from memory

  const wc: number[] = [];
  const parse: number[] = [];
  const parseInherited: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  const text: number[] = [];
  const textRss: number[] = [];
  const args = [CLI, 'inspect', TRACE, '--json', '--no-toolchain'];
  const textArgs = [CLI, 'inspect', TRACE, '--no-toolchain'];
  // NODE_EXTRA_CA_CERTS (set on some machines, this sandbox included) makes every Node process
  // parse that certificate file before running any code: tens of milliseconds that are neither
  // parsing nor indexing. The goal row runs the CLI without it; the row after it, with the
  // environment as inherited.
  const { NODE_EXTRA_CA_CERTS: extraCerts, ...cleanEnv } = process.env;
  // Interleaved, so a busy machine slows both sides alike.
  for (let i = 0; i < RUNS; i++) {
    wc.push(timed('wc', ['-l', TRACE]).ms);
    const p = timedWithRss(process.execPath, args, cleanEnv);
    parse.push(p.ms);
    rss.push(p.maxRssBytes);
    cpu.push(p.cpuMs);
    const t = timedWithRss(process.execPath, textArgs, cleanEnv);
    text.push(t.ms);
    textRss.push(t.maxRssBytes);
    if (extraCerts !== undefined) parseInherited.push(timedWithRss(process.execPath, args, process.env).ms);
  }
  const wcMs = median(wc);
  const parseMs = median(parse);
  const peak = Math.max(...rss);
  const ratio = parseMs / wcMs;
  const mb = size / 1e6;
  return [
    { name: `trace size (${OPS / 1e6}M ops, ${GOROUTINES} goroutines)`, value: mb, unit: 'MB' },
    { name: 'wc -l wall (median of 5)', value: wcMs, unit: 'ms' },
    { name: 'frozen-run inspect --json --no-toolchain wall (median)', value: parseMs, unit: 'ms' },
    { name: 'parse+index / wc -l', value: ratio, unit: 'x', goal: '<= 15x wc -l', ok: ratio <= 15 },
    ...(parseInherited.length > 0
      ? [
          { name: 'the same with NODE_EXTRA_CA_CERTS as inherited (median)', value: median(parseInherited), unit: 'ms' },
          { name: '  that / wc -l', value: median(parseInherited) / wcMs, unit: 'x' },
        ]
      : []),
    { name: 'throughput (whole CLI run)', value: mb / (parseMs / 1000), unit: 'MB/s' },
    // On a busy machine wall time measures the queue for a core; CPU time (user + sys) does not.
    { name: 'CPU time of the CLI run (user+sys, median)', value: median(cpu), unit: 'ms' },
    { name: 'throughput per CPU second', value: mb / (median(cpu) / 1000), unit: 'MB/s' },
    { name: 'peak RSS of the CLI run', value: peak / 1e6, unit: 'MB' },
    { name: 'peak RSS / file size', value: peak / size, unit: 'x', goal: '<= 2x file size', ok: peak <= 2 * size },
    // Issue 16: the streamed --json (threads and chain item by item) against the plain summary.
    { name: 'inspect (summary) wall (median)', value: median(text), unit: 'ms' },
    { name: 'inspect --json / inspect', value: parseMs / median(text), unit: 'x', goal: '<= 2x inspect', ok: parseMs <= 2 * median(text) },
    { name: 'inspect --json peak RSS / file size', value: peak / size, unit: 'x', goal: '<= 3x file size', ok: peak <= 3 * size },
    { name: 'inspect (summary) peak RSS / file size', value: Math.max(...textRss) / size, unit: 'x' },
  ];
}


function timed(cmd: string, args: string[]): { ms: number } {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return { ms };
}

/** Wall time, CPU time and peak RSS of a child, from /usr/bin/time -v (NaN without it). */
function timedWithRss(cmd: string, args: string[], env: NodeJS.ProcessEnv): { ms: number; maxRssBytes: number; cpuMs: number } {
  const useTime = existsSync('/usr/bin/time');
  const t = process.hrtime.bigint();
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26, env })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, env });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const cpuMs = user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : NaN;
  return { ms, maxRssBytes: m ? Number(m[1]) * 1024 : NaN, cpuMs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
