// Hostile shapes that used to be super-linear, each timed against the same work on a well-formed
// input of the same size, in this process:
// - the adapter's timeline data (frozenRun/timeline) for a trace with a blank line after every
//   record (every record has a line gap) against the same records without blank lines;
// - reading a trace where every op is a new goroutine: its cost per goroutine at 750,000 against
//   at 75,000 (linear reading keeps it flat), in process and through the built CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timelineChunk } from '../debug-adapter/timeline-data';
import { readMflrr } from '../replay-engine/mflrr/recording';
import { BENCH_OUT } from './generated-trace';
import type { BenchResult } from './types';

const HEADER = 'MFLRR 1\nboundary faithful\nprogram /bench/x.mfl\nsafe 1\n';

function write(name: string, text: string): string {
  mkdirSync(BENCH_OUT, { recursive: true });
  const file = join(BENCH_OUT, name);
  writeFileSync(file, text);
  return file;
}

/** Goroutine ids of a tree where every goroutine spawns up to 8 children: 0, 0.1 .. 0.8, 0.1.1, ... */
function goroutineIds(n: number): string[] {
  const ids = ['0'];
  for (let i = 0; ids.length < n; i++) for (let k = 1; k <= 8 && ids.length < n; k++) ids.push(`${ids[i]}.${k}`);
  return ids;
}

async function median(runs: number, f: () => Promise<unknown> | unknown): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const records = 500_000; // 2.5 MB with a blank line after every record: no answer in 199 s before
  const plain = write('hostile-plain.mflrr', HEADER + 'S 0\n'.repeat(records));
  const blank = write('hostile-blank.mflrr', HEADER + 'S 0\n\n'.repeat(records));
  const [rp, rb] = [await readMflrr(plain), await readMflrr(blank)];
  const tp = await median(3, () => timelineChunk(rp, {}));
  const tb = await median(3, () => timelineChunk(rb, {}));
  out.push({ name: `timeline data, ${records.toLocaleString('en-US')} records each after a blank line`, value: tb / tp, unit: 'x', goal: '<= 4x without blank lines', ok: tb / tp <= 4 });
  out.push({ name: '  (the same, absolute)', value: tb, unit: 'ms' });

  // Every line a new goroutine is the reader's slow path (an id's first line is read in JavaScript),
  // so the question is whether it stays linear: the time per goroutine at 750k against at 75k.
  const sizes = [75_000, 750_000];
  const perGoroutine: number[] = [];
  for (const n of sizes) {
    const many = write(`hostile-goroutines-${n}.mflrr`, HEADER + goroutineIds(n).map((id) => `S ${id}\n`).join(''));
    perGoroutine.push((await median(3, () => readMflrr(many))) / n);
  }
  const growth = perGoroutine[1] / perGoroutine[0];
  out.push({ name: 'read 750,000 goroutines (one op each): time per goroutine', value: growth, unit: 'x', goal: '<= 2x that at 75,000', ok: growth <= 2 });
  out.push({ name: '  (the same, absolute; in process, tsx)', value: perGoroutine[1] * sizes[1], unit: 'ms' });
  // What a user waits for: the built CLI (esbuild's bundle, as the extension ships the engine)
  // reading and summing up the same traces, `frozen-run inspect --no-toolchain`, a child process.
  if (existsSync(CLI)) {
    const cliPer: number[] = [];
    for (const n of sizes) {
      const file = join(BENCH_OUT, `hostile-goroutines-${n}.mflrr`);
      cliPer.push((await median(3, () => inspect(file))) / n);
    }
    const cliGrowth = cliPer[1] / cliPer[0];
    out.push({ name: 'frozen-run inspect, 750,000 goroutines: time per goroutine', value: cliGrowth, unit: 'x', goal: '<= 2x that at 75,000', ok: cliGrowth <= 2 });
    out.push({ name: '  (the same, absolute wall; was 4 s in issue 19)', value: cliPer[1] * sizes[1], unit: 'ms', goal: '< 4000 ms', ok: cliPer[1] * sizes[1] < 4000 });
  }
  return out;
}

const CLI = join(__dirname, '..', 'dist', 'cli.js');

function inspect(file: string): void {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env; // as mflrr.bench.ts: not the CLI's cost
  const r = spawnSync(process.execPath, [CLI, 'inspect', file, '--no-toolchain'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (r.status !== 0) throw new Error(`frozen-run inspect ${file} failed: ${r.stderr}`);
}
