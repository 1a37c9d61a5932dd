// Lines as LSP counts them: `\n`, `\r\n` and a lone `\r` all end a line. The index must split
// exactly as editors do, or every position after a stray `\r` would point at the wrong line.

/** Calls `line(start, end, loneCR)` for each line of text[from, to); end excludes the line break. */
export function forEachLine(text: string, line: (start: number, end: number, loneCR: boolean) => void): number {
  let start = 0;
  let count = 0;
  let cr = text.indexOf('\r');
  for (;;) {
    const found = text.indexOf('\n', start);
    const lf = found < 0 ? text.length : found;
    if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
    if (cr >= 0 && cr < lf && (found < 0 || cr + 1 !== lf)) {
      // A lone CR ends the line.
      line(start, cr, true);
      count++;
      start = cr + 1;
      continue;
    }
    const end = found >= 0 && cr >= 0 && cr + 1 === lf ? cr : lf;
    line(start, end, false);
    count++;
    if (found < 0) return count;
    start = lf + 1;
  }
}

/** The text after the last line break ('' when the text ends with one). */
export function lastLineOf(text: string): string {
  // Only the tail is searched for a lone CR: lastIndexOf('\r') would scan a whole CR-less text.
  let from = text.lastIndexOf('\n') + 1;
  for (let cr = text.indexOf('\r', from); cr >= 0; cr = text.indexOf('\r', cr + 1)) from = cr + 1;
  return text.slice(from);
}
