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
import { spawnSync } from 'node:child_process';
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

/** The allowed CPUs, and taskset when it is there and may set this process's CPUs (a sandbox may forbid it): tried once. */
function usableTaskset(env: NodeJS.ProcessEnv): { cpus: number[]; taskset: string | null } {
  const cpus = allowedCpus();
  const taskset = cpus.length >= 2 ? searchPath('taskset', env) : undefined;
  if (!taskset) return { cpus, taskset: null };
  // both CPUs replays are put on (slot 0 and 1), each alone
  const usable = [cpus[cpus.length - 1], cpus[cpus.length - 2]].every((cpu) => spawnSync(taskset, ['-c', String(cpu), taskset, '-V'], { stdio: 'ignore', timeout: 5_000 }).status === 0);
  return { cpus, taskset: usable ? taskset : null };
}

let found: { cpus: number[]; taskset: string | null } | null = null;

/**
 * The command that runs a replay on one CPU (`taskset -c N`), prepended to machin's, or [] when it
 * runs anywhere: `any` asked for, a single CPU allowed anyway, not Linux, no taskset. `slot` 1 is
 * the second of two replays that run side by side: it gets another CPU than slot 0.
 */
export function replayCpuPrefix(cores: MachinCores, slot: 0 | 1 = 0, env: NodeJS.ProcessEnv = process.env): string[] {
  if (cores === 'any' || process.platform !== 'linux') return [];
  found ??= usableTaskset(env);
  const { cpus, taskset } = found;
  if (cpus.length < 2 || !taskset) return [];
  // The last CPUs: the first one usually takes more of the system's interrupts.
  return [taskset, '-c', String(cpus[cpus.length - 1 - slot])];
}
