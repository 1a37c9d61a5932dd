// Where a recording's lines and records part: records that have blank or skipped lines before
// them, with the number of such lines up to and including that gap. Two typed columns, searched
// by bisection, so a trace of a million blank lines costs 12 bytes a gap and a log-time lookup
// per record (a linear walk per lookup made the adapter's timeline data quadratic).
import { lowerBound } from './lower-bound';

export class LineGaps {
  static readonly EMPTY = new LineGaps();

  private record = new Uint32Array(0);
  private cumulative = new Float64Array(0);
  private n = 0;

  get length(): number {
    return this.n;
  }

  /** `total` extra lines come before record `r` (and every later record); r never decreases. */
  add(r: number, total: number): void {
    if (this.n > 0 && this.record[this.n - 1] === r) {
      this.cumulative[this.n - 1] = total;
      return;
    }
    if (this.n === this.record.length) {
      const size = Math.max(16, this.n * 2);
      const record = new Uint32Array(size);
      record.set(this.record);
      const cumulative = new Float64Array(size);
      cumulative.set(this.cumulative);
      this.record = record;
      this.cumulative = cumulative;
    }
    this.record[this.n] = r;
    this.cumulative[this.n] = total;
    this.n++;
  }

  /** Extra lines before record r: the cumulative count of the last gap at or before r, by bisection. */
  extraBefore(r: number): number {
    const lo = lowerBound(0, this.n, (i) => this.record[i] <= r); // one past the last gap at or before r
    return lo === 0 ? 0 : this.cumulative[lo - 1];
  }

  /** The same gaps in arrays of their exact length (the builder's grow room dropped). */
  trimmed(): LineGaps {
    if (this.n === this.record.length) return this;
    const out = new LineGaps();
    out.record = this.record.slice(0, this.n);
    out.cumulative = this.cumulative.slice(0, this.n);
    out.n = this.n;
    return out;
  }
}
