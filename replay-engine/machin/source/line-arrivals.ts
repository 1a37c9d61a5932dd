// What one hit of a line is (docs/source-level.md, `lineHits`): an event of a statement on the line
// that does not continue the line in the same frame. It continues it when the frame's previous
// statement was on the same line and earlier in the text; not when the frame jumped back (a loop's
// next iteration), and not for a loop's first iteration when the loop began mid-line (a one-line
// function `{ acc := 0  for i < n { ... } }`: the body's first statement after the `for`), so each
// iteration is one hit with the values as of that iteration. One rule for the line's hits and its counts.
import type { StatementRow } from './instrument';

/**
 * Whether statement `s` (a statement or return) is a new arrival at its line, in a frame whose
 * previous statement was `prev` (0: none yet) and whose previous event was itself an arrival or not.
 */
export function isArrival(rows: readonly StatementRow[], prev: number, s: number, prevWasArrival: boolean): boolean {
  if (prev === 0) return true;
  const row = rows[s - 1];
  const p = rows[prev - 1];
  if (p.line !== row.line || prev >= s) return true;
  // A loop that began mid-line (not an arrival itself): its first iteration's first body statement.
  return p.loop === true && !prevWasArrival && inside(row, p);
}

function inside(row: StatementRow, outer: StatementRow): boolean {
  return row.line < outer.endLine || (row.line === outer.endLine && row.column < outer.endColumn);
}
