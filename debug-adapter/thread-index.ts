// Per-thread record lists, built once on first use: the records of thread t, in file order, are
// records[start[t] .. start[t+1]). They answer "thread t's latest record at or before r", its first
// and last step, and its consumed I/O with a binary search instead of a scan over the whole run.
import type { Timeline } from '../replay-engine/model/timeline';
import { lowerBound } from '../replay-engine/model/lower-bound';

export class ThreadIndex {
  readonly start: Uint32Array;
  readonly records: Uint32Array;

  constructor(readonly timeline: Timeline) {
    const n = timeline.recordCount;
    const threads = timeline.threads.length;
    const counts = new Uint32Array(threads + 1);
    const th = timeline.thread;
    for (let r = 0; r < n; r++) counts[th[r] + 1]++;
    for (let t = 0; t < threads; t++) counts[t + 1] += counts[t];
    this.start = counts.slice();
    const fill = counts; // reused as the write cursor per thread
    this.records = new Uint32Array(n);
    for (let r = 0; r < n; r++) this.records[fill[th[r]]++] = r;
  }

  countOf(t: number): number {
    return this.start[t + 1] - this.start[t];
  }

  /** Index into `records` of thread t's last record <= r, or -1. */
  lastIndexAtOrBefore(t: number, r: number): number {
    const records = this.records;
    const after = lowerBound(this.start[t], this.start[t + 1], (i) => records[i] <= r);
    return after > this.start[t] ? after - 1 : -1;
  }

  /** Thread t's last record <= r, or -1. */
  lastRecordAtOrBefore(t: number, r: number): number {
    const i = this.lastIndexAtOrBefore(t, r);
    return i < 0 ? -1 : this.records[i];
  }

  firstRecord(t: number): number {
    return this.countOf(t) > 0 ? this.records[this.start[t]] : -1;
  }

  /** Thread t's first / last step number, or -1 when it performed none. */
  firstStep(t: number): number {
    const tl = this.timeline;
    for (let i = this.start[t]; i < this.start[t + 1]; i++) {
      const k = tl.stepOf(this.records[i]);
      if (k >= 0) return k;
    }
    return -1;
  }

  lastStep(t: number): number {
    const tl = this.timeline;
    for (let i = this.start[t + 1] - 1; i >= this.start[t]; i--) {
      const k = tl.stepOf(this.records[i]);
      if (k >= 0) return k;
    }
    return -1;
  }
}
