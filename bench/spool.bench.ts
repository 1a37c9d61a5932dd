// Indexing a Tin spool of 5,000 capsules totalling 256 MB (issue 17), as a ratio to `cat` reading
// the same files in the same run; in process with progress, and as the CLI (`frozen-run spool
// --json`, a child so its peak RSS is its own) on the full spool and on a quarter of it made of the
// same capsules: memory must not grow with the spool's total size, only with a capsule's. The CLI
// also runs on two worker threads, to show whether they pay on this machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSpool } from '../replay-engine/tcap/spool/spool-index';
import { SpoolGroups } from '../replay-engine/tcap/spool/spool-groups';
import { seal } from '../test/tcap/support/seal';
import { BUGS, bugBody, spoolName } from '../test/tcap/support/spool';
import { BENCH_OUT } from './generated-trace';
import type { BenchResult } from './types';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const KEY = 'a5'.repeat(32);
const CAPSULES = 5000;
const TOTAL = 256 * 1024 * 1024;
const CAPSULE_BYTES = Math.floor(TOTAL / CAPSULES);
const TEMPLATES_PER_BUG = 8;
const RUNS = 3;

/**
 * The spool, written once into bench/out (gitignored). Capsules are sealed by the tests' plain
 * writer, a few per bug, and repeated under 5,000 spool names: the index reads every file's bytes
 * either way, and sealing 256 MB one createHmac per 32 bytes would take minutes.
 */
function spool(name: string, count: number): string {
  const dir = join(BENCH_OUT, name);
  if (existsSync(dir) && readdirSync(dir).length === count) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`bench: writing ${dir} (${count} capsules, once; cached, gitignored)\n`);
  const templates: Uint8Array[] = [];
  for (let t = 0; t < BUGS.length * TEMPLATES_PER_BUG; t++) {
    const bug = BUGS[t % BUGS.length];
    const probe = bugBody(bug, t, 0n, 0).length;
    const padding = Math.max(0, CAPSULE_BYTES - probe - 24 - 32 - 48 - 40 - 13);
    templates.push(seal(bugBody(bug, t, 1_764_590_000_000_000_000n + BigInt(t), t % 8, padding), KEY));
  }
  for (let i = 0; i < count; i++) {
    writeFileSync(join(dir, spoolName(1_764_590_000_000_000_000n + BigInt(i) * 1_000_000_000n, i % 16, i)), templates[i % templates.length]);
  }
  return dir;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function catMs(dir: string): number {
  const t = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', 'cat -- "$1"/*.tcap > /dev/null', 'sh', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`cat failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function indexMs(dir: string): Promise<{ ms: number; groups: number; progress: number; bytes: number }> {
  let progress = 0;
  let bytes = 0;
  const t = process.hrtime.bigint();
  const groups = new SpoolGroups();
  for await (const c of readSpool(dir, { keyHex: KEY, env: {}, threads: 1, onProgress: (p) => ((progress = p.done), (bytes = p.bytes)) })) groups.add(c);
  const n = groups.groups().length;
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, groups: n, progress, bytes };
}

/** Wall time and peak RSS of `frozen-run spool DIR --json` (NaN RSS without /usr/bin/time). */
function cliRun(dir: string, threads: number): { ms: number; rss: number; groups: number } {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env;
  const args = [CLI, 'spool', dir, '--json', '--key', KEY, '--examples', '1', '--threads', String(threads)];
  const useTime = existsSync('/usr/bin/time');
  const t = process.hrtime.bigint();
  const r = useTime ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { encoding: 'utf8', env, maxBuffer: 1 << 28 }) : spawnSync(process.execPath, args, { encoding: 'utf8', env, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`frozen-run spool failed: ${r.stderr}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return { ms, rss: m ? Number(m[1]) * 1024 : NaN, groups: (JSON.parse(r.stdout) as { groups: unknown[] }).groups.length };
}

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const full = spool('spool-5000', CAPSULES);
  const quarter = spool('spool-1250', CAPSULES / 4);
  catMs(full); // page cache warm for both sides
  const cat: number[] = [];
  const idx: number[] = [];
  let last = { ms: 0, groups: 0, progress: 0, bytes: 0 };
  for (let i = 0; i < RUNS; i++) {
    cat.push(catMs(full));
    last = await indexMs(full);
    idx.push(last.ms);
  }
  if (last.progress !== CAPSULES) throw new Error(`progress reached ${last.progress} of ${CAPSULES}`);
  if (last.groups !== BUGS.length) throw new Error(`${last.groups} groups, the spool has ${BUGS.length} bugs`);
  const cliFull = cliRun(full, 1);
  const cliQuarter = cliRun(quarter, 1);
  const cliWorkers = cliRun(full, 2);
  if (cliWorkers.groups !== cliFull.groups) throw new Error('two threads found other groups than one');
  const catFull = median(cat);
  const ratio = median(idx) / catFull;
  const mb = last.bytes / 1e6;
  const rssRatio = cliFull.rss / cliQuarter.rss;
  return [
    { name: `spool: ${CAPSULES} capsules, ${mb.toFixed(0)} MB`, value: mb, unit: 'MB' },
    { name: 'cat of the same files (median of 3)', value: catFull, unit: 'ms' },
    { name: 'index in process, with progress (median of 3)', value: median(idx), unit: 'ms' },
    { name: 'index / cat', value: ratio, unit: 'x', goal: '<= 10x cat', ok: ratio <= 10 },
    { name: 'index throughput', value: mb / (median(idx) / 1000), unit: 'MB/s' },
    { name: 'frozen-run spool --json --threads 1, whole CLI run', value: cliFull.ms, unit: 'ms' },
    { name: '  that / cat', value: cliFull.ms / catFull, unit: 'x' },
    { name: 'frozen-run spool --json --threads 2 (two workers)', value: cliWorkers.ms, unit: 'ms' },
    { name: '  workers / one thread (< 1: the workers pay here)', value: cliWorkers.ms / cliFull.ms, unit: 'x' },
    { name: 'peak RSS, 5000 capsules (256 MB)', value: cliFull.rss / 1e6, unit: 'MB' },
    { name: 'peak RSS, 1250 of the same capsules (64 MB)', value: cliQuarter.rss / 1e6, unit: 'MB' },
    { name: 'peak RSS 4x the spool / 1x (independent of total size)', value: rssRatio, unit: 'x', goal: '<= 1.5x', ok: rssRatio <= 1.5 },
  ];
}
