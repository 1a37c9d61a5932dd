// The cursor: a position p in 0..stepCount (steps completed) over a Timeline, moved globally or
// per thread, forward or back. Moving never allocates: it reads the typed arrays in place.
import type { Timeline } from './timeline';

/** A test over one step k (0-based). Must not allocate if used while stepping. */
export type StepPredicate = (step: number) => boolean;

export class Cursor {
  private p = 0;

  constructor(readonly timeline: Timeline) {}

  get position(): number {
    return this.p;
  }

  get atStart(): boolean {
    return this.p === 0;
  }

  get atEnd(): boolean {
    return this.p === this.timeline.stepCount;
  }

  moveTo(p: number): void {
    this.p = Math.max(0, Math.min(this.timeline.stepCount, Math.trunc(p)));
  }

  /** The thread that performed step k. */
  threadOfStep(k: number): number {
    return this.timeline.thread[this.timeline.stepRecord[k]];
  }

  /** The thread whose step completed last (the one that "just ran"), or -1 at position 0. */
  currentThread(): number {
    return this.p === 0 ? -1 : this.threadOfStep(this.p - 1);
  }

  stepForward(): boolean {
    if (this.p >= this.timeline.stepCount) return false;
    this.p++;
    return true;
  }

  stepBack(): boolean {
    if (this.p <= 0) return false;
    this.p--;
    return true;
  }

  /** Position just after thread t's next step (after p), or -1 when it has none. */
  nextPositionOf(t: number, from = this.p): number {
    const n = this.timeline.stepCount;
    for (let k = from; k < n; k++) if (this.threadOfStep(k) === t) return k + 1;
    return -1;
  }

  /** Position just after thread t's previous step (before p); 0 when it has none. */
  previousPositionOf(t: number, from = this.p): number {
    for (let k = from - 2; k >= 0; k--) if (this.threadOfStep(k) === t) return k + 1;
    return 0;
  }

  /** Move to the end of thread t's next step; false (and no move) when it has none. */
  stepThreadForward(t: number): boolean {
    const q = this.nextPositionOf(t);
    if (q < 0) return false;
    this.p = q;
    return true;
  }

  /** Inverse of stepThreadForward: back to the end of t's previous step (or the start). */
  stepThreadBack(t: number): boolean {
    if (this.p === 0) return false;
    this.p = this.previousPositionOf(t);
    return true;
  }

  /** First position q > from whose completing step k = q-1 satisfies pred, or -1. */
  findForward(pred: StepPredicate, from = this.p): number {
    const n = this.timeline.stepCount;
    for (let k = from; k < n; k++) if (pred(k)) return k + 1;
    return -1;
  }

  /** Last position q < from whose completing step k = q-1 satisfies pred, or -1. */
  findBackward(pred: StepPredicate, from = this.p): number {
    for (let k = from - 2; k >= 0; k--) if (pred(k)) return k + 1;
    return -1;
  }

  /** Thread t's last record done at position p (a step or an I/O it consumed), or -1. */
  lastRecordOf(t: number, p = this.p): number {
    const tl = this.timeline;
    for (let r = tl.frontier(p) - 1; r >= 0; r--) if (tl.thread[r] === t) return r;
    return -1;
  }

  /** Thread t's non-step records (I/O it consumed) done at position p, oldest first, at most `limit` (the newest). */
  consumedBy(t: number, p = this.p, limit = 1000): number[] {
    const tl = this.timeline;
    const out: number[] = [];
    for (let r = tl.frontier(p) - 1; r >= 0 && out.length < limit; r--) {
      if (tl.thread[r] === t && tl.stepOf(r) < 0) out.push(r);
    }
    return out.reverse();
  }

  /** The thread of each step 0..p-1: the causal chain that leads to position p. */
  causalChain(p = this.p): Uint32Array {
    const chain = new Uint32Array(p);
    for (let k = 0; k < p; k++) chain[k] = this.threadOfStep(k);
    return chain;
  }
}
