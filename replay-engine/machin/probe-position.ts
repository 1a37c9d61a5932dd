// Where a `machin replay --print` probe belongs on the timeline (docs/value-positions.md).
// machin's `@opP` is the global schedule counter read when the probe ran; other goroutines may
// have moved it, so P changes from one replay of a trace to the next. What never changes is k,
// how many of the probe's own goroutine G's schedule ops had completed: G's k-th op had finished
// and its (k+1)-th had not started, so k is the number of G's ops among the first P `S` lines
// of the trace, whatever P this replay printed. The probe is placed right after G's k-th op
// (position 0 when k = 0): the earliest position where that value is a true state of the run,
// and never after the panic of the goroutine that stored it.
import type { Timeline } from '../model/timeline';
import { lowerBound } from '../model/lower-bound';

const NONE = new Uint32Array(0);

export class ProbePlacer {
  /** Per thread: the step numbers of its schedule ops, ascending. */
  private readonly opsOf: Uint32Array[];

  constructor(private readonly tl: Timeline) {
    const threads = tl.stepThreads();
    const counts = new Uint32Array(tl.threads.length);
    for (let k = 0; k < threads.length; k++) counts[threads[k]]++;
    this.opsOf = Array.from(counts, (n) => new Uint32Array(n));
    const filled = new Uint32Array(tl.threads.length);
    for (let k = 0; k < threads.length; k++) this.opsOf[threads[k]][filled[threads[k]]++] = k;
  }

  /** The step numbers of thread t's own schedule ops, ascending (shared: do not write). */
  ownOps(thread: number): Uint32Array {
    return this.opsOf[thread] ?? NONE;
  }

  /**
   * How many of thread t's own ops surely happen before the run ends at `ender`'s end (-1: a
   * deadlock, where every goroutine's values are printed): a probe t stored after k of its own
   * ops is printed in every replay exactly when k is below this (alwaysPrinted).
   */
  sureOwnOps(thread: number, ender: number): number {
    const own = this.opsOf[thread] ?? NONE;
    if (ender < 0 || thread === ender) return Number.MAX_SAFE_INTEGER;
    const enderOps = this.opsOf[ender] ?? NONE;
    const sure = enderOps.length === 0 ? 0 : enderOps[enderOps.length - 1] + 1;
    return lowerBound(0, own.length, (k) => own[k] < sure);
  }

  /** How many of thread t's own schedule ops are among the first `op` of the trace. */
  ownOpsBefore(thread: number, op: number): number {
    const own = this.opsOf[thread] ?? NONE;
    return lowerBound(0, own.length, (i) => own[i] < op);
  }

  /**
   * Whether machin prints this probe in every replay. The run ends when `ender` (the goroutine
   * that panicked, else main) ends, and machin's process with it: only the ops up to ender's last
   * one surely happen first. A value another goroutine stores before one of its own ops that
   * surely happens is always printed; one stored later (after its last op, or before an op the run
   * may end before) races with the exit, so one replay prints it and the next does not.
   */
  alwaysPrinted(thread: number, op: number, ender: number): boolean {
    if (thread === ender) return true;
    const enderOps = this.opsOf[ender] ?? NONE;
    const sure = enderOps.length === 0 ? 0 : enderOps[enderOps.length - 1] + 1;
    const own = this.opsOf[thread] ?? NONE;
    const next = own[this.ownOpsBefore(thread, Math.min(op, this.tl.stepCount))];
    return next !== undefined && next < sure;
  }

  /** The position of a probe machin printed on thread t with `@op` = op. */
  place(thread: number, op: number): number {
    const k = this.ownOpsBefore(thread, Math.min(op, this.tl.stepCount));
    return k === 0 ? 0 : (this.opsOf[thread] ?? NONE)[k - 1] + 1;
  }
}

const placers = new WeakMap<Timeline, ProbePlacer>();

/** The timeline's one placer: its per-goroutine op lists are built once, whoever places first. */
export function probePlacer(tl: Timeline): ProbePlacer {
  let placer = placers.get(tl);
  if (!placer) placers.set(tl, (placer = new ProbePlacer(tl)));
  return placer;
}
