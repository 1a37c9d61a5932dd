// The unpacked history and the questions the panel asks of it.
import type { HistoryModel } from '../protocol';
import { lowerBound } from '../../replay-engine/model/lower-bound';

const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

export class HistoryData {
  readonly count: number;
  /** The values as numbers, when every value is one (then the panel draws a chart). */
  readonly numbers: Float64Array | null;

  constructor(readonly model: HistoryModel) {
    this.count = Math.min(model.values.length, model.position.length, model.thread.length);
    let numeric = this.count > 0;
    const nums = new Float64Array(this.count);
    for (let i = 0; i < this.count && numeric; i++) {
      const v = model.values[i];
      if (!NUMBER.test(v)) numeric = false;
      else nums[i] = Number(v);
    }
    this.numbers = numeric ? nums : null;
  }

  threadLabel(i: number): string {
    const t = this.model.threads[this.model.thread[i]];
    if (!t) return String(this.model.thread[i]);
    return t.label ? `${t.id} ${t.label}` : t.id;
  }

  /** The row in effect at cursor position p: the last value set at or before p (rows are in true order), or -1. */
  currentRow(p: number): number {
    const pos = this.model.position;
    return lowerBound(0, this.count, (i) => pos[i] <= p) - 1;
  }

  threadCount(): number {
    return new Set(this.model.thread.subarray(0, this.count)).size;
  }
}
