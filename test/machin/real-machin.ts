// The real machin 0.137.0 for tests: `.tools/machin/machin`, built there by the toolchain's
// build.sh when it is missing (about 20 s, once per checkout). Every run has a time limit: a
// program that no longer asks for the recorded schedule makes machin wait forever.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const BUILD = path.resolve(ROOT, '../shared/toolchains/machin/build.sh');
export const MACHIN_TIME_LIMIT_MS = 30_000;

let built: string | null = null;

export function realMachin(): string {
  if (built) return built;
  const dir = path.join(ROOT, '.tools', 'machin');
  const bin = path.join(dir, 'machin');
  if (!existsSync(bin)) {
    const r = spawnSync('bash', [BUILD, dir], { encoding: 'utf8', timeout: 600_000 });
    if (r.status !== 0 || !existsSync(bin)) throw new Error(`building machin failed: ${r.stderr || r.error}`);
  }
  return (built = bin);
}

export interface MachinResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runMachin(args: string[], options: { cwd?: string; input?: string } = {}): MachinResult {
  const r = spawnSync(realMachin(), args, { encoding: 'utf8', timeout: MACHIN_TIME_LIMIT_MS, cwd: options.cwd, input: options.input ?? '' });
  if (r.error) throw new Error(`machin ${args.join(' ')}: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
