// Which CPU a machin replay runs on. machin's replay hands the turn from goroutine to goroutine at
// every schedule op (a condition variable under one mutex: mfl_rr_enter, mfl_rr_exit); when the
// next goroutine's thread sleeps on another CPU, that CPU has to be woken, and an idle virtual CPU
// takes tens of microseconds to wake. On this project's 2-core virtual machine a 600k-op trace of
// four pool workers replays in 19 s on both cores and in 2.2 s on one; a producer and consumer
// trace in 0.62 s and 0.31 s (docs/machin.md, "One core per replay"). So each replay runs on one
// CPU of its own (`taskset -c N`, util-linux), and the two replays of a source-level launch, which
// run side by side, on two different ones. The price: goroutines that compute in parallel between
// their ops take turns on that one CPU (two workers of 3e9 additions each: 2.1 s on two cores, 4.0
// s on one). `machinCores: 'any'` (the setting frozenRun.machinReplayCores, the environment
// variable FROZEN_RUN_MACHIN_CORES=any) lets the system place the threads as it likes.
// Either way a replay runs under SCHED_BATCH (`chrt --batch 0`): a goroutine woken for its turn
// then waits until the running one blocks or its time slice ends, instead of preempting it at
// once. Without it the instrumented replay of a 600k-op producer and consumer trace switched
// threads 406,000 times (49,000 for the plain replay): the woken goroutine preempted the one
// printing a probe under machin's replay mutex, then slept again on that mutex. With it: 10,000
// switches, 0.72 s instead of 1.1 s, and the plain replay 0.28 s instead of 0.30 s (docs/machin.md).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { searchPath } from '../toolchain/find-executable';

export type MachinCores = 'one' | 'any';

export const MACHIN_CORES_ENV = 'FROZEN_RUN_MACHIN_CORES';

/** The choice as given, else FROZEN_RUN_MACHIN_CORES, else one core per replay. */
export function machinCores(given: MachinCores | undefined, env: NodeJS.ProcessEnv = process.env): MachinCores {
  if (given) return given;
  const v = env[MACHIN_CORES_ENV]?.trim();
  return v === 'any' ? 'any' : 'one';
}

/** The CPUs of a `Cpus_allowed_list` (`0-3,6`), in order; [] when it cannot be read. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return [];
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 4096) return [];
    for (let c = from; c <= to; c++) cpus.push(c);
  }
  return cpus;
}

/** The CPUs this process may run on (Linux), [] elsewhere. */
function allowedCpus(): number[] {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? parseCpuList(m[1]) : [];
  } catch {
    return [];
  }
}

/**
 * What is tried once a process (a sandbox may forbid either): `chrt --batch 0` (its prefix, and
 * the command that tries it) and taskset on each of the two CPUs replays are put on (slot 0 and
 * 1, each alone).
 */
function prefixTries(env: NodeJS.ProcessEnv): { batch: string[] | null; cpus: number[]; taskset: string | null; pins: string[][] } {
  const chrt = searchPath('chrt', env);
  const cpus = allowedCpus();
  const taskset = cpus.length >= 2 ? searchPath('taskset', env) ?? null : null;
  return {
    batch: chrt ? [chrt, '--batch', '0'] : null,
    cpus,
    taskset,
    pins: taskset ? [cpus[cpus.length - 1], cpus[cpus.length - 2]].map((cpu) => [taskset, '-c', String(cpu), taskset, '-V']) : [],
  };
}

/** The command that tries a prefix: the prefix running the tool's own version query. */
function batchTry(prefix: string[]): string[] {
  return [...prefix, prefix[0], '--version'];
}

let found: { cpus: number[]; taskset: string | null } | null = null;
let batch: string[] | null = null;

const runsNow = ([command, ...args]: string[]): boolean => spawnSync(command, args, { stdio: 'ignore', timeout: 5_000 }).status === 0;

/** Whether the command runs and exits 0, without blocking this thread (warmUpReplayPrefix). */
const runsLater = ([command, ...args]: string[]): Promise<boolean> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', timeout: 5_000 });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });

/**
 * The same tries as replayCommandPrefix makes the first time, made ahead and without blocking, so
 * the first launch does not wait for them (warm-up.ts).
 */
export async function warmUpReplayPrefix(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (process.platform !== 'linux') return;
  const t = prefixTries(env);
  // Usually all three may be set: tried as one process first (chrt, then taskset on each CPU in
  // turn, each running the next), since a process started costs this thread ~10 ms before the
  // trace is read; any one refused, each is tried alone.
  if (t.batch && t.pins.length === 2 && (await runsLater([...t.batch, ...t.pins[0].slice(0, 3), ...t.pins[1]]))) {
    batch ??= t.batch;
    found ??= { cpus: t.cpus, taskset: t.taskset };
    return;
  }
  const [batchOk, ...pinsOk] = await Promise.all([t.batch ? runsLater(batchTry(t.batch)) : Promise.resolve(false), ...t.pins.map(runsLater)]);
  batch ??= t.batch && batchOk ? t.batch : [];
  found ??= { cpus: t.cpus, taskset: t.taskset && pinsOk.length === 2 && pinsOk.every(Boolean) ? t.taskset : null };
}

/** `chrt --batch 0` when chrt is there and may set the policy: tried once. */
function batchPolicy(env: NodeJS.ProcessEnv): string[] {
  const t = prefixTries(env);
  return t.batch && runsNow(batchTry(t.batch)) ? t.batch : [];
}

/** The allowed CPUs, and taskset when it is there and may set this process's CPUs: tried once. */
function usableTaskset(env: NodeJS.ProcessEnv): { cpus: number[]; taskset: string | null } {
  const t = prefixTries(env);
  return { cpus: t.cpus, taskset: t.taskset && t.pins.every(runsNow) ? t.taskset : null };
}

/**
 * The command prepended to machin's for a replay: on Linux, SCHED_BATCH (`chrt --batch 0`), then
 * one CPU (`taskset -c N`) unless it runs anywhere (`any` asked for, a single CPU allowed anyway,
 * no taskset); [] off Linux. `slot` 1 is the second of two replays that run side by side: it gets
 * another CPU than slot 0.
 */
export function replayCommandPrefix(cores: MachinCores, slot: 0 | 1 = 0, env: NodeJS.ProcessEnv = process.env): string[] {
  if (process.platform !== 'linux') return [];
  batch ??= batchPolicy(env);
  return [...batch, ...replayCpu(cores, slot, env)];
}

/** `taskset -c N`, or [] where the replay runs on any CPU. */
export function replayCpu(cores: MachinCores, slot: 0 | 1 = 0, env: NodeJS.ProcessEnv = process.env): string[] {
  if (cores === 'any' || process.platform !== 'linux') return [];
  found ??= usableTaskset(env);
  const { cpus, taskset } = found;
  if (cpus.length < 2 || !taskset) return [];
  // The last CPUs: the first one usually takes more of the system's interrupts.
  return [taskset, '-c', String(cpus[cpus.length - 1 - slot])];
}
