// machin's one-line probes read straight from the bytes of its stderr, before any of it is decoded
// as text: the instrumented replay prints millions (`probe G NAME = VALUE @opP`), and decoding them
// and reading them char by char took most of a CPU beside machin (docs/machin.md). Exactly the
// lines machin-output.ts's FastTake takes from text are taken here, with the same answers; at the
// first line that is not one (a panic, a value over lines, the verify line), the caller reads the
// rest as text.
import type { ProbeSink } from './machin-output';

const NL = 0x0a;
const SPACE = 0x20;
const ZERO = 0x30;
const NINE = 0x39;
/** Goroutines kept besides the current one (ProbeBytes.goroutineAt). */
const RECENT_GOROUTINES = 8;

function sameBytes(a: Uint8Array, from: number, to: number, b: Uint8Array): boolean {
  if (to - from !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[from + i] !== b[i]) return false;
  return true;
}

export class ProbeBytes {
  private goroutine = '';
  private goroutineBytes: Uint8Array = new Uint8Array(0);
  /** Names seen so far, as bytes and text, and whether each is one of the sink's statement probes. */
  private readonly nameBytes: Uint8Array[] = [];
  private readonly names: string[] = [];
  private readonly statement: boolean[] = [];
  /** Lines taken so far. */
  count = 0;
  private last = -1;
  /** The name taken before `last` (statement and value probes alternate). */
  private beforeLast = -1;

  constructor(private readonly sink: ProbeSink) {}

  /**
   * Takes the one-line probes `bytes` starts with (whole lines, each ending with a newline); returns
   * where the first line it did not take starts (bytes.length when it took them all).
   */
  take(bytes: Uint8Array): number {
    let s = 0;
    const length = bytes.length;
    while (s < length) {
      let nl = this.usualLine(bytes, s, length);
      if (nl === -1) {
        // (loops here and below, not indexOf: a line is some 30 bytes, and a native call costs more)
        nl = s;
        while (nl < length && bytes[nl] !== NL) nl++;
        if (nl === length || !this.line(bytes, s, nl)) return s;
      }
      this.count++;
      s = nl + 1;
    }
    return s;
  }

  /**
   * The usual line, `probe G NAME = INT @opP`, its integer short (at most 15 digits for a statement
   * probe, a small one for a value), read in one pass and taken; returns where its newline is, or -1
   * (nothing taken) for any other line, which line() then reads. What it takes, line() would take
   * the same way: the op is the run of digits that ends the line, after ` @op`, and the value what
   * is between `= ` and it.
   */
  private usualLine(b: Uint8Array, s: number, length: number): number {
    if (length - s < 16 || b[s] !== 0x70 || b[s + 1] !== 0x72 || b[s + 2] !== 0x6f || b[s + 3] !== 0x62 || b[s + 4] !== 0x65 || b[s + 5] !== SPACE) return -1;
    // (the goroutine and the name are most often those of the line before: each is matched in
    // place first, then read up to its space; neither ever holds a space or a line end)
    const sameGoroutine = spacedAt(b, s + 6, this.goroutineBytes, length);
    let g = s + 6 + this.goroutineBytes.length;
    if (!sameGoroutine) {
      g = s + 6;
      while (g < length && b[g] !== SPACE && b[g] !== NL) g++;
      if (g === s + 6 || g >= length || b[g] !== SPACE) return -1;
    }
    const lastName = this.last >= 0 ? this.nameBytes[this.last] : null;
    const sameName = lastName !== null && spacedAt(b, g + 1, lastName, length);
    let n = sameName ? g + 1 + lastName.length : g + 1;
    if (!sameName) while (n < length && b[n] !== SPACE && b[n] !== NL) n++;
    if (n === g + 1 || n + 3 >= length || b[n] !== SPACE || b[n + 1] !== 0x3d || b[n + 2] !== SPACE) return -1;
    // the value: an optional minus, then digits
    let i = n + 3;
    const negative = b[i] === 0x2d;
    if (negative) i++;
    const v = i;
    let value = 0;
    while (i < length && b[i] >= ZERO && b[i] <= NINE) value = value * 10 + (b[i++] - ZERO);
    const digits = i - v;
    if (digits === 0 || digits > 15 || i + 4 >= length || b[i] !== SPACE || b[i + 1] !== 0x40 || b[i + 2] !== 0x6f || b[i + 3] !== 0x70) return -1;
    // the op: digits up to the newline
    let d = i + 4;
    let op = 0;
    while (d < length && b[d] >= ZERO && b[d] <= NINE) op = op * 10 + (b[d++] - ZERO);
    if (d === i + 4 || d - (i + 4) > 15 || d >= length || b[d] !== NL) return -1;
    const name = sameName ? this.last : this.nameAt(b, g + 1, n);
    const statement = this.statement[name];
    if (statement ? negative : !this.sink.takeNumber || !this.sink.takeValue) return -1;
    // a value: a small integer as smallIntAt reads one (at most 9 digits, no leading zero, no -0)
    if (!statement && (digits > 9 || (b[v] === ZERO && (digits > 1 || negative)))) return -1;
    if (!sameGoroutine) this.goroutineAt(b, s + 6, g);
    if (statement) this.sink.take(this.goroutine, value, op);
    else this.sink.takeNumber!(this.goroutine, this.names[name], negative ? -value : value, op);
    return d;
  }

  /** bytes[s, end) as FastTake.line reads a line; false (nothing taken) when it is no such probe. */
  private line(b: Uint8Array, s: number, end: number): boolean {
    // `probe `
    if (end - s < 6 || b[s] !== 0x70 || b[s + 1] !== 0x72 || b[s + 2] !== 0x6f || b[s + 3] !== 0x62 || b[s + 4] !== 0x65 || b[s + 5] !== SPACE) return false;
    let g = s + 6;
    while (g < end && b[g] !== SPACE) g++;
    if (g === s + 6 || g >= end) return false;
    let n = g + 1;
    while (n < end && b[n] !== SPACE) n++;
    if (n === g + 1 || n >= end || b[n + 1] !== 0x3d || b[n + 2] !== SPACE) return false;
    // the op: the digits that end the line, after ` @op` (a CR before the newline: left to the text reader)
    let d = end;
    while (d > n + 3 && b[d - 1] >= ZERO && b[d - 1] <= NINE) d--;
    if (d === end || end - d > 15 || d - 4 < n + 3 || b[d - 4] !== SPACE || b[d - 3] !== 0x40 || b[d - 2] !== 0x6f || b[d - 1] !== 0x70) return false;
    let op = 0;
    for (let i = d; i < end; i++) op = op * 10 + (b[i] - ZERO);
    const v0 = n + 3;
    const v1 = d - 4;
    const name = this.nameAt(b, g + 1, n);
    if (!sameBytes(b, s + 6, g, this.goroutineBytes)) this.goroutineAt(b, s + 6, g);
    if (this.statement[name]) {
      if (v1 === v0 || v1 - v0 > 15) return false;
      let value = 0;
      for (let i = v0; i < v1; i++) {
        const c = b[i];
        if (c < ZERO || c > NINE) return false;
        value = value * 10 + (c - ZERO);
      }
      this.sink.take(this.goroutine, value, op);
    } else if (this.sink.takeValue) {
      const small = smallIntAt(b, v0, v1);
      if (small !== null && this.sink.takeNumber) this.sink.takeNumber(this.goroutine, this.names[name], small, op);
      else this.sink.takeValue(this.goroutine, this.names[name], Buffer.from(b.buffer, b.byteOffset + v0, v1 - v0).toString('utf8'), op);
    } else return false;
    return true;
  }

  /**
   * Makes b[from, to) the current goroutine: one of the few seen last when it is one of them
   * (goroutines that hand over print in turns), else a new string. Lines of one goroutine come
   * in runs, so this is asked once a run.
   */
  private goroutineAt(b: Uint8Array, from: number, to: number): void {
    const recent = this.recent;
    let k = 0;
    while (k < recent.length && !sameBytes(b, from, to, recent[k].bytes)) k++;
    const found = k < recent.length ? recent[k] : null;
    if (found) recent.splice(k, 1);
    else if (recent.length === RECENT_GOROUTINES) recent.pop();
    // (the current one goes first, so the one it takes turns with is found first)
    if (this.goroutineBytes.length > 0 || this.goroutine !== '') recent.unshift({ bytes: this.goroutineBytes, id: this.goroutine });
    if (found) {
      this.goroutineBytes = found.bytes;
      this.goroutine = found.id;
    } else {
      this.goroutineBytes = b.slice(from, to);
      this.goroutine = Buffer.from(this.goroutineBytes).toString('utf8');
    }
    if (recent.length > RECENT_GOROUTINES) recent.pop();
  }

  /** The goroutines of the lines before the current one's, the latest first (at most RECENT_GOROUTINES). */
  private readonly recent: Array<{ bytes: Uint8Array; id: string }> = [];

  /** The index of the name b[from, to) among those seen, added when new. */
  private nameAt(b: Uint8Array, from: number, to: number): number {
    // the names of the lines before first: statement and value probes come in runs, or alternate
    if (this.last >= 0 && sameBytes(b, from, to, this.nameBytes[this.last])) return this.last;
    if (this.beforeLast >= 0 && sameBytes(b, from, to, this.nameBytes[this.beforeLast])) return this.seen(this.beforeLast);
    for (let k = 0; k < this.nameBytes.length; k++) {
      if (sameBytes(b, from, to, this.nameBytes[k])) return this.seen(k);
    }
    const bytes = b.slice(from, to);
    const name = Buffer.from(bytes).toString('utf8');
    this.nameBytes.push(bytes);
    this.names.push(name);
    this.statement.push(this.sink.names.has(name));
    return this.seen(this.names.length - 1);
  }

  private seen(k: number): number {
    this.beforeLast = this.last;
    this.last = k;
    return k;
  }
}

/** Whether b holds `want` at `from`, followed by a space (all before `length`); an empty `want` never matches. */
function spacedAt(b: Uint8Array, from: number, want: Uint8Array, length: number): boolean {
  const n = want.length;
  if (n === 0 || from + n >= length || b[from + n] !== SPACE) return false;
  for (let i = 0; i < n; i++) if (b[from + i] !== want[i]) return false;
  return true;
}

/** b[from, to) as a number when it is a canonical decimal integer of at most 9 digits (machin-output.ts smallIntAt, SMALL_INT), else null. */
function smallIntAt(b: Uint8Array, from: number, to: number): number | null {
  let i = from;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  const digits = to - i;
  if (digits < 1 || digits > 9) return null;
  // no leading zero, and no "-0" (which is not the text of the number 0)
  if (b[i] === ZERO && (digits > 1 || negative)) return null;
  let value = 0;
  for (; i < to; i++) {
    const c = b[i];
    if (c < ZERO || c > NINE) return null;
    value = value * 10 + (c - ZERO);
  }
  return negative ? -value : value;
}
