// Each thread's I/O records (the non-step records: a trace's `I` lines), in file order, so "the
// I/O thread t consumed up to record m" is a binary search rather than a walk over the whole run.
import type { Timeline } from '../replay-engine/model/timeline';
import { lowerBound } from '../replay-engine/model/lower-bound';

export class ThreadIo {
  private readonly start: Uint32Array;
  private readonly records: Uint32Array;

  constructor(timeline: Timeline) {
    const other = timeline.otherRecord;
    const th = timeline.thread;
    const threads = timeline.threads.length;
    const counts = new Uint32Array(threads + 1);
    for (let i = 0; i < other.length; i++) counts[th[other[i]] + 1]++;
    for (let t = 0; t < threads; t++) counts[t + 1] += counts[t];
    this.start = counts.slice();
    this.records = new Uint32Array(other.length);
    for (let i = 0; i < other.length; i++) this.records[counts[th[other[i]]]++] = other[i];
  }

  /** How many I/O records thread t has consumed by record state m (records <= m). */
  countUpTo(t: number, m: number): number {
    return lowerBound(this.start[t], this.start[t + 1], (i) => this.records[i] <= m) - this.start[t];
  }

  /** Thread t's I/O records number from..to-1 (0-based among its own), oldest first. */
  slice(t: number, from: number, to: number): number[] {
    const base = this.start[t];
    return Array.from(this.records.subarray(base + from, base + to));
  }
}
