// Large traces for the benchmarks, written once by ../shared/tools/gen_mflrr.py into bench/out/
// (gitignored) and reused by every bench that asks for the same size.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { GEN_MFLRR } from '../test/support/paths';

export const BENCH_OUT = join(__dirname, 'out');

/** The path of a generated trace of `ops` schedule ops over `goroutines` goroutines. */
export function generatedTrace(ops: number, goroutines: number): string {
  const file = join(BENCH_OUT, `trace-${ops >= 1e6 ? `${ops / 1e6}m` : `${ops / 1e3}k`}-${goroutines}.mflrr`);
  if (existsSync(file)) return file;
  mkdirSync(BENCH_OUT, { recursive: true });
  process.stderr.write(`bench: generating ${file} (once; cached, gitignored)\n`);
  const r = spawnSync('python3', [GEN_MFLRR, String(ops), String(goroutines), file], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${GEN_MFLRR} failed`);
  return file;
}
