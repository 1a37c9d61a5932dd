// What one hit of a line is (docs/source-level.md, `lineHits`): an event of a statement on the line
// that does not continue the line in the same frame. It continues it when the frame's previous
// statement was on the same line and earlier in the text; not when the frame jumped back (a loop's
// next iteration), and not for a loop's first iteration when the loop began mid-line (a one-line
// function `{ acc := 0  for i < n { ... } }`: the body's first statement after the `for`), so each
// iteration is one hit with the values as of that iteration. One rule for the line's hits and its
// counts, over typed columns of the statement table (it is asked once per event of the run).
import type { StatementRow } from './instrument';

export class LineArrivals {
  /** By statement id: its line. */
  private readonly line: Int32Array;
  /** By statement id: 1 for a loop statement. */
  private readonly loop: Uint8Array;
  /** By statement id: where a loop's text ends, as line * 2^20 + column (to tell its body's statements). */
  private readonly end: Float64Array;
  private readonly start: Float64Array;

  constructor(rows: readonly StatementRow[]) {
    const n = rows.length + 1;
    this.line = new Int32Array(n);
    this.loop = new Uint8Array(n);
    this.end = new Float64Array(n);
    this.start = new Float64Array(n);
    for (const r of rows) {
      this.line[r.id] = r.line;
      this.loop[r.id] = r.loop ? 1 : 0;
      this.start[r.id] = r.line * 2 ** 20 + r.column;
      this.end[r.id] = r.endLine * 2 ** 20 + r.endColumn;
    }
  }

  /**
   * Whether statement `s` (a statement or return) is a new arrival at its line, in a frame whose
   * previous statement was `prev` (0: none yet) and whose previous event was itself an arrival or not.
   */
  is(prev: number, s: number, prevWasArrival: boolean): boolean {
    if (prev === 0 || prev >= s || this.line[prev] !== this.line[s]) return true;
    // A loop that began mid-line (not an arrival itself): its first iteration's first body statement.
    return this.loop[prev] === 1 && !prevWasArrival && this.start[s] < this.end[prev];
  }
}
