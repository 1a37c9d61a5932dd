// One `probe G NAME = VALUE @opP` line of `machin replay --print`, read straight from machin's
// text (a replay can print millions: no line array, no regular expression on the common form).

export const PROBE_HEAD = /^probe (\S+) (\S+) = /;
export const PROBE_TAIL = / @op(\d+)$/;

/** Takes one probe: its goroutine, name, value as printed, and machin's `@opP`. */
export type AddProbe = (goroutine: string, name: string, value: string, op: number) => void;

/** Whether text has `str` at `at` (charCodeAt by charCodeAt: faster than startsWith on a long text). */
export function matchAt(text: string, at: number, str: string): boolean {
  for (let k = 0; k < str.length; k++) if (text.charCodeAt(at + k) !== str.charCodeAt(k)) return false;
  return true;
}

// The two marks of a probe line, compared char by char in place: these run once or twice for each
// of millions of lines, where matchAt's loop over a string argument costs about twice as much.

/** Whether text has `probe ` at `at`. */
export function isProbeStart(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x70 &&
    text.charCodeAt(at + 1) === 0x72 &&
    text.charCodeAt(at + 2) === 0x6f &&
    text.charCodeAt(at + 3) === 0x62 &&
    text.charCodeAt(at + 4) === 0x65 &&
    text.charCodeAt(at + 5) === 0x20
  );
}

/** Whether text has ` @op` at `at`. */
export function isOpMark(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x20 && text.charCodeAt(at + 1) === 0x40 && text.charCodeAt(at + 2) === 0x6f && text.charCodeAt(at + 3) === 0x70;
}

/** text[s, end) starts with `probe ` and ends with ` @op` and digits: a probe machin printed on one line. */
export function isProbeLine(text: string, s: number, end: number): boolean {
  if (!isProbeStart(text, s)) return false;
  let d = end;
  while (d > s + 6 && text.charCodeAt(d - 1) >= 0x30 && text.charCodeAt(d - 1) <= 0x39) d--;
  return d < end && d - 4 >= s + 6 && isOpMark(text, d - 4);
}

/** text (whole lines, each ending with its newline) without its one-line probes (isProbeLine), and how many there were. */
export function dropProbeLines(text: string): { kept: string; probes: number } {
  let kept = '';
  let probes = 0;
  let from = 0;
  for (let s = 0, nl = text.indexOf('\n'); nl >= 0; s = nl + 1, nl = text.indexOf('\n', s)) {
    if (!isProbeLine(text, s, nl)) continue;
    kept += text.slice(from, s);
    from = nl + 1;
    probes++;
  }
  return { kept: kept + text.slice(from), probes };
}

/**
 * The probe whose first line is text[s, end): `probe G NAME = VALUE @opP`, VALUE possibly over
 * lines (it ends at the first line that ends in ` @opN`), as parseProbe reads it. Returns where
 * the text after it starts, or -1 when this is no probe (it is then parsed as a line).
 */
export function probeAt(text: string, s: number, end: number, add: AddProbe): number {
  const g = text.indexOf(' ', s + 6);
  const n = g > s + 6 && g < end ? text.indexOf(' ', g + 1) : -1;
  const at = text.lastIndexOf(' @op', end);
  // one line, G and NAME without spaces: no regular expression
  if (n > g + 1 && n < end && text.charCodeAt(n + 1) === 0x3d && text.charCodeAt(n + 2) === 0x20 && at >= n + 3 && isDigits(text, at + 4, end)) {
    add(text.slice(s + 6, g), text.slice(g + 1, n), text.slice(n + 3, at), Number(text.slice(at + 4, end)));
    // past the line's end (its CR too)
    return Math.min(text.length, end + (text.charCodeAt(end) === 0x0d ? 2 : 1));
  }
  const head = PROBE_HEAD.exec(text.slice(s, end));
  if (!head) return -1;
  const parts: string[] = [];
  // line by line from the value's start: [from, lineEnd) without its CR
  for (let from = s + head[0].length, lineStart = s; ; ) {
    const nl = text.indexOf('\n', lineStart);
    const e = nl < 0 ? text.length : nl;
    const lineEnd = e > from && text.charCodeAt(e - 1) === 0x0d ? e - 1 : e;
    const rest = text.slice(from, lineEnd);
    const tail = PROBE_TAIL.exec(rest);
    if (tail) {
      parts.push(rest.slice(0, tail.index));
      add(head[1], head[2], parts.join('\n'), Number(tail[1]));
      return nl < 0 ? text.length : nl + 1;
    }
    parts.push(rest);
    if (nl < 0 || nl + 1 >= text.length) return -1;
    lineStart = from = nl + 1;
  }
}

/** Whether line[from..end) is one or more decimal digits and nothing else. */
export function isDigits(line: string, from: number, end = line.length): boolean {
  if (from >= end) return false;
  for (let i = from; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
