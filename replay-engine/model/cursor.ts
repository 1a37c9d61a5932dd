// The cursor: a position p in 0..stepCount (steps completed) over a Timeline, moved globally or
// per thread, forward or back. Moving never allocates: it reads the typed arrays in place.
import type { Timeline } from './timeline';

/** A test over one step k (0-based). Must not allocate if used while stepping. */
export type StepPredicate = (step: number) => boolean;

/**
 * Per-thread steps are many-to-one (every position between two steps of t moves to the same
 * place), so "step t back" alone cannot return to where "step t forward" came from. The cursor
 * keeps a small journal of its per-thread moves, preallocated so stepping never allocates: a move
 * that exactly undoes the last journalled one (same thread, opposite direction, cursor still where
 * that move left it) returns to where it started; any other move follows the position rule.
 */
const JOURNAL = 1024;
const FORWARD = 1;
const BACK = 2;

export class Cursor {
  private p = 0;
  /** Ring of [direction, thread, from, to] entries; `depth` of them are live, newest at `top`. */
  private readonly journal = new Int32Array(JOURNAL * 4);
  private top = -1;
  private depth = 0;

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

  /** Jump to position p (a goto, a restart); forgets the per-thread journal. */
  moveTo(p: number): void {
    this.clearJournal();
    this.p = Math.max(0, Math.min(this.timeline.stepCount, Math.trunc(p)));
  }

  /** The thread that performed step k. */
  threadOfStep(k: number): number {
    return this.timeline.threadOfStep(k);
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
    const tl = this.timeline;
    const n = tl.stepCount;
    if (from >= n) return -1;
    // Walk the records step by step rather than look up each step's record.
    let r = tl.recordOfStep(from);
    for (let k = from; k < n; k++, r = tl.stepAtOrAfter(r + 1)) if (tl.thread[r] === t) return k + 1;
    return -1;
  }

  /** Position just after thread t's previous step (before p); 0 when it has none. */
  previousPositionOf(t: number, from = this.p): number {
    const tl = this.timeline;
    if (from < 2) return 0;
    let r = tl.recordOfStep(Math.min(from, tl.stepCount + 1) - 2);
    for (let k = Math.min(from, tl.stepCount + 1) - 2; k >= 0; k--, r = tl.stepAtOrBefore(r - 1)) if (tl.thread[r] === t) return k + 1;
    return 0;
  }

  /**
   * Move to the end of thread t's next step; false (and no move) when it has none. Right after a
   * stepThreadBack(t), returns to where that started.
   */
  stepThreadForward(t: number): boolean {
    if (this.undo(BACK, t)) return true;
    const q = this.nextPositionOf(t);
    if (q < 0) return false;
    this.record(FORWARD, t, q);
    return true;
  }

  /**
   * Back to the end of t's previous step (or the start); false at the start. Right after a
   * stepThreadForward(t), returns to where that started.
   */
  stepThreadBack(t: number): boolean {
    if (this.undo(FORWARD, t)) return true;
    if (this.p === 0) return false;
    this.record(BACK, t, this.previousPositionOf(t));
    return true;
  }

  /** Forget the per-thread journal (after a restart, or when the timeline view jumps). */
  clearJournal(): void {
    this.top = -1;
    this.depth = 0;
  }

  private undo(direction: number, t: number): boolean {
    if (this.depth === 0) return false;
    const j = this.journal;
    const e = this.top * 4;
    if (j[e] !== direction || j[e + 1] !== t || j[e + 3] !== this.p) return false;
    this.p = j[e + 2];
    this.top = (this.top + JOURNAL - 1) % JOURNAL;
    this.depth--;
    return true;
  }

  private record(direction: number, t: number, to: number): void {
    this.top = (this.top + 1) % JOURNAL;
    if (this.depth < JOURNAL) this.depth++;
    const e = this.top * 4;
    const j = this.journal;
    j[e] = direction;
    j[e + 1] = t;
    j[e + 2] = this.p;
    j[e + 3] = to;
    this.p = to;
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

  /**
   * Search over records rather than steps (an I/O value, a record line): the first position >
   * from at which a record matching pred is done, or -1. A match already done at `from` is skipped.
   */
  findRecordForward(pred: (record: number) => boolean, from = this.p): number {
    const tl = this.timeline;
    for (let r = tl.frontier(from); r < tl.recordCount; r++) {
      if (pred(r)) {
        const q = tl.positionOf(r);
        if (q > from) return q;
      }
    }
    return -1;
  }

  /** The last position < from at which a record matching pred is done (its position), or -1. */
  findRecordBackward(pred: (record: number) => boolean, from = this.p): number {
    const tl = this.timeline;
    for (let r = tl.frontier(from) - 1; r >= 0; r--) {
      if (pred(r)) {
        const q = tl.positionOf(r);
        if (q < from) return q;
      }
    }
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
    return this.timeline.stepThreads(p);
  }
}
