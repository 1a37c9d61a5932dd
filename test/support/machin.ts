// The real machin 0.137.0 for tests: built once per checkout from ../shared/toolchains/machin
// into .tools/machin/ (build.sh reuses a binary already there), then run like the product runs
// it, with a time limit. Recordings a test needs are made here with `machin run --record`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, SHARED } from './paths';
import { withLockFolder } from './lock-folder';

/** The folder holding the built `machin` (put it on PATH to have machin found there). */
export const MACHIN_BIN = path.join(REPO_ROOT, '.tools/machin');
export const MACHIN = path.join(MACHIN_BIN, 'machin');
const BUILD = path.join(SHARED, 'toolchains/machin/build.sh');

let built = false;

/** The path of the real machin, built first when this checkout has none (about 20 s). */
export function machinPath(): string {
  if (built) return MACHIN;
  withLockFolder(`${MACHIN_BIN}.lock`, 180_000, () => {
    const r = spawnSync('bash', [BUILD, MACHIN_BIN], { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) throw new Error(`building machin with ${BUILD} failed:\n${r.stdout}\n${r.stderr}`);
  });
  built = true;
  return MACHIN;
}

export interface MachinResult {
  exit: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs the real machin directly (not through the engine), with a time limit. */
export function runMachin(args: string[], options: { cwd?: string; timeoutMs?: number; input?: string; env?: Record<string, string> } = {}): MachinResult {
  const env = options.env ? { ...process.env, ...options.env } : undefined;
  const r = spawnSync(machinPath(), args, { cwd: options.cwd, input: options.input, env, encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, killSignal: 'SIGKILL' });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return { exit: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', timedOut };
}

export interface Recorded {
  dir: string;
  program: string;
  trace: string;
  /** What the recording run printed (a panic says `(record: ...)`). */
  record: MachinResult;
}

/**
 * Writes `source` as DIR/NAME.mfl and records one run of it into DIR/NAME.mflrr with
 * `machin run --safe --record` (the trace's program line names the file just written).
 */
export function recordProgram(dir: string, name: string, source: string, options: { safe?: boolean; stdin?: string } = {}): Recorded {
  mkdirSync(dir, { recursive: true });
  const program = path.join(dir, `${name}.mfl`);
  const trace = path.join(dir, `${name}.mflrr`);
  writeFileSync(program, source);
  const record = runMachin(['run', ...(options.safe === false ? [] : ['--safe']), '--record', trace, program], { cwd: dir, input: options.stdin });
  if (record.timedOut || !existsSync(trace)) throw new Error(`machin run --record ${program}: no trace\n${record.stderr}`);
  return { dir, program, trace, record };
}

/** A copy of a trace whose program line names `program` (a trace recorded elsewhere, pointed here). */
export function pointTraceAt(trace: string, program: string, out: string): string {
  writeFileSync(out, readFileSync(trace, 'latin1').replace(/^program .*$/m, `program ${program}`), 'latin1');
  return out;
}

export interface ProbeLine {
  goroutine: string;
  name: string;
  value: string;
  /** `@opP` as machin printed it (it varies between replays). */
  op: number;
}

/** machin's `probe G NAME = VALUE @opP` lines, read with a parser of this test support (not the engine's). */
export function probeLines(stderr: string): ProbeLine[] {
  return [...stderr.matchAll(/^probe (\S+) (\S+) = ([\s\S]*?) @op(\d+)$/gm)].map((m) => ({ goroutine: m[1], name: m[2], value: m[3], op: Number(m[4]) }));
}

/**
 * A probe's position by the rule of docs/value-positions.md, computed here independently of the
 * engine: k = the goroutine's own ops among the first @op `S` lines; after its k-th op (0 if none).
 */
export function expectedPosition(schedule: string[], goroutine: string, op: number): number {
  let k = 0;
  for (let i = 0; i < Math.min(op, schedule.length); i++) if (schedule[i] === goroutine) k++;
  if (k === 0) return 0;
  let seen = 0;
  for (let i = 0; i < schedule.length; i++) if (schedule[i] === goroutine && ++seen === k) return i + 1;
  return schedule.length;
}

/**
 * Whether machin prints a probe in every replay (docs/value-positions.md), computed here
 * independently of the engine: always for `ender` (the goroutine that panicked, else main);
 * for another goroutine only when its next op comes before ender's last op.
 */
export function alwaysPrinted(schedule: string[], goroutine: string, op: number, ender: string): boolean {
  if (goroutine === ender) return true;
  const sure = schedule.lastIndexOf(ender) + 1;
  let k = 0;
  for (let i = 0; i < Math.min(op, schedule.length); i++) if (schedule[i] === goroutine) k++;
  let seen = 0;
  for (let i = 0; i < schedule.length; i++) if (schedule[i] === goroutine && seen++ === k) return i < sure;
  return false;
}

/** The goroutine of every `S` line of a trace, in order. */
export function scheduleOf(trace: string): string[] {
  return readFileSync(trace, 'latin1')
    .split('\n')
    .filter((l) => l.startsWith('S '))
    .map((l) => l.slice(2).trim());
}

/**
 * The history a replay should give, from machin's own probe lines: those printed in every
 * replay, each placed by the rule, ordered by position then by the goroutine's first line in the
 * trace (each goroutine's own values in machin's order). `ender`: the goroutine that panicked.
 */
export function expectedHistory(trace: string, probes: ProbeLine[], name: string, ender = '0'): Array<{ op: number; goroutine: string; value: string }> {
  const schedule = scheduleOf(trace);
  const firstSeen = new Map<string, number>();
  readFileSync(trace, 'latin1')
    .split('\n')
    .forEach((l) => {
      const m = /^[SI] (\S+)/.exec(l);
      if (m && !firstSeen.has(m[1])) firstSeen.set(m[1], firstSeen.size);
    });
  const rank = (g: string) => firstSeen.get(g) ?? firstSeen.size;
  return probes
    .filter((p) => p.name === name && alwaysPrinted(schedule, p.goroutine, p.op, ender))
    .map((p) => ({ op: expectedPosition(schedule, p.goroutine, p.op), goroutine: p.goroutine, value: p.value }))
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.op - b.e.op || rank(a.e.goroutine) - rank(b.e.goroutine) || a.i - b.i)
    .map(({ e }) => e);
}

/**
 * Where the panic stop is, by the rule of docs/value-positions.md, computed here independently of
 * the engine: machin's P is racy like a probe's @op, so the stop is right after the panicking
 * goroutine's own last completed op among the first P; machin's P when it has none.
 */
export function panicPosition(schedule: string[], goroutine: string, op: number): number {
  let k = 0;
  for (let i = 0; i < Math.min(op, schedule.length); i++) if (schedule[i] === goroutine) k++;
  return k === 0 ? Math.min(op, schedule.length) : expectedPosition(schedule, goroutine, op);
}
