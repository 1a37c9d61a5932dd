// The unpacked history and the questions the panel asks of it.
import type { HistoryModel } from '../protocol';
import { lowerBound } from '../../replay-engine/model/lower-bound';
import { stepAtPosition } from '../../replay-engine/model/step-words';

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

  /** Row i's op as the status bar numbers the moment it was set (`op 5` for position 6, `start`), at record level. */
  opLabel(i: number): string {
    return stepAtPosition(this.model.position[i], 'op');
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

  /** Source level: the row in effect with the cursor at statement seq `q` (x.5 between two): the last stored before it. */
  currentRowAtSeq(q: number): number {
    const seq = this.model.stores!.seq;
    return lowerBound(0, this.count, (i) => seq[i] < q) - 1;
  }

  /** The row in effect at the cursor: by statement at source level (when the session knows it), else by position. */
  rowAtCursor(cursor: { position: number | null; seq: number | null }): number {
    if (this.model.stores && cursor.seq !== null) return this.currentRowAtSeq(cursor.seq);
    return cursor.position === null ? -1 : this.currentRow(cursor.position);
  }

  /** Where row i's value was stored, at source level: `reorder.mfl:19:13`. */
  statementLabel(i: number): string {
    const s = this.model.stores;
    if (!s) return '';
    return `${s.file ? `${s.file}:` : ''}${s.line[i]}:${s.column[i]}`;
  }

  /** Whether rows differ in frame depth (a recursive function): the table then shows a depth column. */
  hasDepths(): boolean {
    const d = this.model.stores?.depth;
    if (!d) return false;
    for (let i = 1; i < this.count; i++) if (d[i] !== d[0]) return true;
    return false;
  }

  threadCount(): number {
    return new Set(this.model.thread.subarray(0, this.count)).size;
  }
}
