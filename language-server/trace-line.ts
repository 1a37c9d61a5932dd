// Reads one line of `.mflrr` text leniently: what kind of line it is, whose it is, and every
// problem on it with its columns. The engine's reader stops at the first error of a file on
// disk; an editor buffer needs all of them, line by line, so the language server scans lines
// itself and hands values to the engine's decoders (see io-value.ts).

export const LineKind = {
  Blank: 0,
  Sched: 1,
  Io: 2,
  Magic: 3,
  Boundary: 4,
  Program: 5,
  Safe: 6,
  /** A line that is not a record: malformed, unknown kind, garbage. */
  Bad: 7,
} as const;
export type LineKind = (typeof LineKind)[keyof typeof LineKind];

export const Severity = { Error: 1, Warning: 2, Information: 3, Hint: 4 } as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export interface LineProblem {
  /** 0-based columns (UTF-16 units, as LSP positions count them). */
  start: number;
  end: number;
  severity: Severity;
  code: string;
  message: string;
}

const SPACE = 0x20;
const CR = 0x0d;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Scans lines one at a time; the result fields are overwritten by each call (no allocation on good lines). */
export class TraceLineScanner {
  kind: LineKind = LineKind.Blank;
  /** Goroutine id of an S or I line, and its index in `ids`. */
  thread = '';
  threadIndex = -1;
  /** Problems of the last line, or null when it had none. */
  problems: LineProblem[] | null = null;
  /** Every valid goroutine id seen, in order of appearance (the thread numbering). */
  readonly ids: string[] = [];
  /**
   * Ids by a hash of their characters: a trace has few goroutines and many lines, so a line's id
   * is found by hashing it in place and comparing, without cutting a string out of the text.
   */
  private byHash = new Map<number, number[]>();
  private byId = new Map<string, number>();

  /** Scan text[start, end) (without its `\n`). A trailing `\r` (CRLF files) is ignored. */
  scan(text: string, start: number, end: number): LineKind {
    this.problems = null;
    this.thread = '';
    this.threadIndex = -1;
    if (end > start && text.charCodeAt(end - 1) === CR) end--;
    if (end === start) return (this.kind = LineKind.Blank);
    const c0 = text.charCodeAt(start);
    const c1 = end - start > 1 ? text.charCodeAt(start + 1) : -1;
    if ((c0 === 0x53 || c0 === 0x49) && (c1 === SPACE || c1 === -1)) {
      return (this.kind = c0 === 0x53 ? this.scanSched(text, start, end) : this.scanIo(text, start, end));
    }
    const word = firstWord(text, start, end);
    switch (word) {
      case 'MFLRR':
        return (this.kind = this.scanMagic(text, start, end));
      case 'boundary':
        return (this.kind = this.scanBoundary(text, start, end));
      case 'program':
        return (this.kind = this.scanProgram(text, start, end));
      case 'safe':
        return (this.kind = this.scanSafe(text, start, end));
    }
    return (this.kind = this.scanUnknown(text, start, end, word));
  }

  private problem(start: number, end: number, severity: Severity, code: string, message: string): void {
    (this.problems ??= []).push({ start, end: Math.max(end, start + 1), severity, code, message });
  }

  private scanSched(text: string, start: number, end: number): LineKind {
    if (end - start < 3) {
      this.problem(0, end - start, Severity.Error, 'missing-goroutine', 'Schedule record without a goroutine id: expected `S G`, for example `S 0.1`.');
      return LineKind.Bad;
    }
    const idEnd = this.goroutineId(text, start, start + 2, end);
    if (idEnd < 0) return LineKind.Bad;
    if (idEnd < end) {
      this.problem(idEnd - start, end - start, Severity.Error, 'trailing-text', `Unexpected text after the goroutine id: a schedule record is only \`S ${this.thread}\`.`);
      return LineKind.Bad;
    }
    return LineKind.Sched;
  }

  private scanIo(text: string, start: number, end: number): LineKind {
    if (end - start < 3) {
      this.problem(0, end - start, Severity.Error, 'missing-goroutine', 'I/O record without a goroutine id: expected `I G HEX`, for example `I 0 3230`.');
      return LineKind.Bad;
    }
    const idEnd = this.goroutineId(text, start, start + 2, end);
    if (idEnd < 0) return LineKind.Bad;
    if (idEnd === end) {
      // Editors that trim trailing spaces turn `I 0 ` (an empty value) into `I 0`.
      this.problem(idEnd - start - 1, idEnd - start, Severity.Hint, 'io-no-separator', 'I/O record without the space before its value (an editor trimmed it?): read as an empty value, as machin writes `I G ` with a trailing space.');
      return LineKind.Io;
    }
    let bad = false;
    for (let i = idEnd + 1; i < end; i++) {
      if (hexValue(text.charCodeAt(i)) < 0) {
        const ch = text.charCodeAt(i) < 0x20 ? `\\x${text.charCodeAt(i).toString(16).padStart(2, '0')}` : text[i];
        this.problem(i - start, i - start + 1, Severity.Error, 'bad-hex', `Bad hex in the I/O value: \`${ch}\` (column ${i - start + 1}) is not a hex digit. I/O values are lower-case hex bytes.`);
        bad = true;
        break;
      }
    }
    const digits = end - idEnd - 1;
    if (!bad && digits % 2 === 1) {
      this.problem(idEnd + 1 - start, end - start, Severity.Error, 'odd-hex', `Bad hex in the I/O value: ${digits} hex digits is an odd count, so the last byte is cut.`);
      bad = true;
    }
    return bad ? LineKind.Bad : LineKind.Io;
  }

  /** Reads a goroutine id at `from`; returns where it ends, or -1 after reporting a problem. */
  private goroutineId(text: string, lineStart: number, from: number, end: number): number {
    let i = from;
    let h = 0;
    for (let c = text.charCodeAt(i); i < end && c !== SPACE; c = text.charCodeAt(++i)) h = (Math.imul(h, 31) + c) | 0;
    const len = i - from;
    const candidates = this.byHash.get(h);
    if (candidates) {
      for (const t of candidates) {
        const known = this.ids[t];
        if (known.length === len && text.startsWith(known, from)) {
          this.thread = known;
          this.threadIndex = t;
          return i;
        }
      }
    }
    const id = text.slice(from, i);
    const problem = goroutineIdProblem(id);
    if (problem) {
      this.problem(from - lineStart, i - lineStart, Severity.Error, 'bad-goroutine', problem);
      return -1;
    }
    const t = this.ids.length;
    this.ids.push(id);
    this.byId.set(id, t);
    if (candidates) candidates.push(t);
    else this.byHash.set(h, [t]);
    this.thread = id;
    this.threadIndex = t;
    return i;
  }

  /** The index of a goroutine id in `ids`, or -1. */
  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  private scanMagic(text: string, start: number, end: number): LineKind {
    const rest = text.slice(start + 5, end);
    if (rest === ' 1') return LineKind.Magic;
    const v = rest.trim();
    if (/^\d+$/.test(v)) {
      this.problem(6, end - start, Severity.Error, 'unsupported-version', `Unsupported trace version ${v}: only \`MFLRR 1\` exists (machin 0.137.0). Update Frozen Run, or record the run again with a machin that writes version 1.`);
    } else {
      this.problem(0, end - start, Severity.Error, 'bad-magic', 'Malformed header: the first line of a trace is `MFLRR 1`.');
    }
    return LineKind.Magic;
  }

  private scanBoundary(text: string, start: number, end: number): LineKind {
    const value = text.slice(start + 9, end);
    if (value === 'faithful') return LineKind.Boundary;
    if (value === 'best-effort') {
      this.problem(9, end - start, Severity.Warning, 'best-effort', 'Best-effort trace: the program calls C through `extern` (FFI), which the recording cannot capture. A replay may diverge from the recorded run and can never be certified faithful; values shown after an FFI call may not be what the run saw.');
      return LineKind.Boundary;
    }
    this.problem(Math.min(9, end - start - 1), end - start, Severity.Error, 'bad-boundary', `Unknown boundary \`${value}\`: expected \`boundary faithful\` or \`boundary best-effort\`.`);
    return LineKind.Boundary;
  }

  private scanProgram(text: string, start: number, end: number): LineKind {
    if (end - start <= 8 || text.slice(start + 8, end).trim() === '') {
      this.problem(0, end - start, Severity.Error, 'empty-program', 'The `program` line names no file: machin replay needs the path of the program the trace recorded.');
    }
    return LineKind.Program;
  }

  private scanSafe(text: string, start: number, end: number): LineKind {
    const value = text.slice(start + 5, end);
    if (value !== '0' && value !== '1') {
      this.problem(Math.min(5, end - start - 1), end - start, Severity.Error, 'bad-safe', `Unknown safe flag \`${value}\`: expected \`safe 0\` or \`safe 1\` (whether the run was built with --safe).`);
    }
    return LineKind.Safe;
  }

  private scanUnknown(text: string, start: number, end: number, word: string): LineKind {
    if (looksBinary(text, start, end)) {
      this.problem(0, end - start, Severity.Error, 'garbage', 'Not trace text: this line holds control characters (binary data?). A machin trace is plain text, one record per line.');
    } else if (/^[A-Za-z][A-Za-z0-9_.-]*$/.test(word)) {
      this.problem(0, word.length, Severity.Error, 'unknown-kind', `Unknown record kind \`${word}\`: a machin trace (MFLRR 1) has only \`S\` (schedule) and \`I\` (I/O) records after its header (\`boundary\`, \`program\`, \`safe\`).`);
    } else {
      this.problem(0, end - start, Severity.Error, 'malformed', 'Malformed line: expected a record `S G` or `I G HEX`, or a header line.');
    }
    return LineKind.Bad;
  }
}

/**
 * Why a goroutine id is not one machin writes, or null when it is. Same rule as the engine's
 * reader: `0`, then `.k` per spawn level with k counting from 1 (`0.1`, `0.1.2`).
 */
export function goroutineIdProblem(id: string): string | null {
  if (id === '') return 'Missing goroutine id: expected a path such as `0`, `0.1` or `0.1.2`.';
  if (id.length > 1024) return 'Goroutine id longer than 1024 characters: the line is damaged.';
  if (/^0(\.[1-9][0-9]{0,9})*$/.test(id)) return null;
  if (/(^|\.)(\.|$)/.test(id)) return `Bad goroutine id \`${shorten(id)}\`: an empty path component (a cut line or a stray dot). Ids look like \`0\`, \`0.1\`, \`0.1.2\`.`;
  if (!/^[0-9.]+$/.test(id)) return `Bad goroutine id \`${shorten(id)}\`: ids are dot-separated numbers such as \`0\`, \`0.1\`, \`0.1.2\`.`;
  if (!id.startsWith('0')) return `Bad goroutine id \`${shorten(id)}\`: every goroutine descends from main \`0\` (ids look like \`0\`, \`0.1\`, \`0.1.2\`).`;
  return `Bad goroutine id \`${shorten(id)}\`: after the leading \`0\`, each component counts spawns from 1, without leading zeros (\`0.1\`, \`0.1.2\`).`;
}

function shorten(s: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?');
  return clean.length > 40 ? clean.slice(0, 40) + '…' : clean;
}

function firstWord(text: string, start: number, end: number): string {
  let i = start;
  while (i < end && text.charCodeAt(i) !== SPACE) i++;
  return text.slice(start, Math.min(i, start + 64));
}

function looksBinary(text: string, start: number, end: number): boolean {
  const stop = Math.min(end, start + 256);
  for (let i = start; i < stop; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0xfffd) return true;
  }
  return false;
}

/** The bytes of an I/O line's hex value (the line already scanned as LineKind.Io). */
export function ioBytes(line: string): Uint8Array {
  let end = line.length;
  if (end > 0 && line.charCodeAt(end - 1) === CR) end--;
  const sep = line.indexOf(' ', 2);
  if (sep < 0 || sep >= end) return new Uint8Array(0);
  const out = new Uint8Array((end - sep - 1) >> 1);
  for (let i = 0; i < out.length; i++) {
    out[i] = (hexValue(line.charCodeAt(sep + 1 + 2 * i)) << 4) | hexValue(line.charCodeAt(sep + 2 + 2 * i));
  }
  return out;
}
