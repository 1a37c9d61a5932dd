// Scans the bytes of a `.mflrr` trace, chunk by chunk, into a TimelineBuilder (see read-trace.ts
// for the reading loop and what a line is). Plain `S G` and `I G HEX` lines of known goroutines
// are read by the WebAssembly kernel (scan-kernel.ts); this reads every other line, and decides
// every error.
import { RecordingError, type EngineWarning } from '../model/errors';
import { TimelineBuilder } from '../model/timeline';
import { GoroutineTable, hashStep, latin1, MAX_ID_BYTES } from './goroutine-table';
import { HEADER_KEYWORDS, MFLRR_VERSION, headerFacts, type HeaderKeyword, type MflrrHeader } from './header';
import { HEX_VALUE } from './hex';
import { cutPrefixProblem, describeByte, shorten } from './line-prefix';
import type { TraceRead } from './trace-read';
import { ScanKernel } from './scan-kernel';
import { CR, LF, SP, TAG_I, TAG_S } from './trace-bytes';

/** The shortest record line, `S 0\n`: bounds the record count from the file size. */
const MIN_RECORD_BYTES = 4;
const MAGIC = 'MFLRR';
const UTF8 = new TextDecoder();

export class TraceScanner {
  private readonly builder: TimelineBuilder;
  private readonly table: GoroutineTable;
  private readonly sKind: number;
  private readonly iKind: number;
  /** Lines fully read so far (the next line is line + 1). */
  private line = 0;
  /** File offset of buf[0] for the current chunk, for completeBytes. */
  private consumedBytes = 0;
  private ioTotal = 0;
  private firstRecordLine = 0;
  private pendingSkips = 0;
  /** Set when the next record needs bookkeeping (the first record, or skipped lines before it). */
  private fixup = true;
  private cutLine: number | null = null;
  private readonly warnings: EngineWarning[] = [];
  private blankWarned = false;
  /** Blank lines seen: one warning names the first and, in finish(), says how many there were. */
  private blankLines = 0;
  private readonly header: MflrrHeader = { version: MFLRR_VERSION, boundary: null, program: null, safe: null };
  private readonly seen = new Set<HeaderKeyword>();
  private readonly kernel = ScanKernel.create();
  /** Kernel calls in a row that read no line, and the lines to read here before the next call. */
  private misses = 0;
  private jsBudget = 0;

  constructor(
    private readonly file: string,
    size: number,
  ) {
    // Upper bounds, so the arrays never grow (a copy) and pages never written are never resident. A
    // chunk asks reserve() for room for (its bytes / 4) + 1 records and (its bytes / 2) + 1 payload
    // bytes beyond what is stored; stored + chunk <= size, hence the + 1.
    this.builder = new TimelineBuilder(Math.ceil(size / MIN_RECORD_BYTES) + 1, Math.ceil(size / 2) + 1);
    this.table = new GoroutineTable(this.builder);
    this.sKind = this.builder.internKind('sched', true);
    this.iKind = this.builder.internKind('io', false);
  }

  /** Two buffers of `size` bytes to read the trace into: the kernel's, which it reads in place, when it has room. */
  readSlots(size: number): [Uint8Array, Uint8Array] {
    return this.kernel?.slots(size) ?? [new Uint8Array(size), new Uint8Array(size)];
  }

  checkMagic(buf: Uint8Array, end: number): void {
    const n = Math.min(end, MAGIC.length);
    for (let i = 0; i < n; i++) {
      if (buf[i] !== MAGIC.charCodeAt(i)) {
        throw new RecordingError(
          'not-a-recording',
          `${this.file}:1: not a machin trace (a .mflrr file starts with \`MFLRR 1\`); check that this is the file \`machin run --record\` wrote`,
          { file: this.file, line: 1 },
        );
      }
    }
  }

  /**
   * Reads every complete line in buf[0, end); returns the offset of the first incomplete one.
   * Between the records, once the header and the first record are read, the WebAssembly kernel
   * reads every plain `S G` and `I G HEX` line of an id it was taught; this reads each line it
   * leaves (the header, blank and bad lines, the first line of each id, ids over 16 bytes), one
   * at a time.
   */
  scan(buf: Uint8Array, end: number): number {
    const kernel = this.kernel;
    kernel?.forgetWindow();
    let p = 0;
    while (p < end) {
      if (kernel !== null && this.line > 0 && !this.fixup && this.jsBudget === 0) {
        p = kernel.run(buf, p, end, this.builder, this.sKind, this.iKind);
        this.line += kernel.lines;
        this.ioTotal += kernel.ioRecords;
        if (p >= end) break;
        // A kernel call that read nothing stopped at a line it leaves here (the first line of an
        // id, mostly). Such lines come in runs (a trace where each goroutine runs once is nothing
        // else), so after each such miss in a row this reads a few more lines (1, 2, 4, ... 64)
        // before asking the kernel again, instead of one call into it per line.
        this.misses = kernel.lines === 0 ? Math.min(64, this.misses * 2 || 1) : 0;
        this.jsBudget = this.misses;
      } else if (this.jsBudget > 0) this.jsBudget--;
      const threads = this.builder.threads.length;
      const next = this.oneLine(buf, p, end);
      if (next < 0) break;
      p = next;
      if (kernel !== null) {
        for (let t = threads; t < this.builder.threads.length; t++) kernel.teach(this.builder.threads[t].id, t);
      }
    }
    this.consumedBytes += p;
    return p;
  }

  /** Reads the line at p; returns the offset after it, or -1 when it is not complete in buf. */
  private oneLine(buf: Uint8Array, p: number, end: number): number {
    const c = buf[p];
    const record = (c === TAG_S || c === TAG_I) && p + 1 < end && buf[p + 1] === SP && this.line > 0;
    if (!record) return this.otherLine(buf, p, end);
    return c === TAG_S ? this.schedLine(buf, p, end) : this.ioLine(buf, p, end);
  }

  private opsPerThread = new Uint32Array(64);
  private ioPerThread = new Uint32Array(64);

  /** Keeps the per-thread counters as long as the thread list. */
  private countThreads(): void {
    const need = this.builder.threads.length;
    if (need <= this.opsPerThread.length) return;
    const size = Math.max(need, this.opsPerThread.length * 2);
    const ops = new Uint32Array(size);
    ops.set(this.opsPerThread);
    this.opsPerThread = ops;
    const io = new Uint32Array(size);
    io.set(this.ioPerThread);
    this.ioPerThread = io;
  }

  private addRecord(kind: number, t: number): void {
    if (this.fixup) this.beforeRecord();
    this.builder.add(kind, t);
    this.countThreads();
    if (kind === this.sKind) this.opsPerThread[t]++;
    else this.ioPerThread[t]++;
    this.line++;
  }

  /** `S G` read byte by byte: returns the offset after the line, or -1 when it is not complete in buf. */
  private schedLine(buf: Uint8Array, p: number, end: number): number {
    let q = p + 2;
    let h = 0;
    let b = 0;
    while (q < end) {
      b = buf[q];
      if (b === LF || b === CR) break;
      h = hashStep(h, b);
      q++;
      if (q - p > MAX_ID_BYTES + 2) this.badId(buf, p + 2, q);
    }
    if (q >= end) return -1;
    let next = q + 1;
    if (b === CR) {
      if (q + 1 >= end) return -1;
      if (buf[q + 1] !== LF) this.fail('malformed', this.line + 1, q - p + 1, 'a stray carriage return inside an `S` record', 'the line is damaged');
      next = q + 2;
    }
    const t = this.table.lookup(buf, p + 2, q, h);
    if (t < 0) this.badId(buf, p + 2, q);
    this.addRecord(this.sKind, t);
    return next;
  }

  /** `I G HEX`: returns the offset after the line, or -1 when it is not complete in buf. */
  private ioLine(buf: Uint8Array, p: number, end: number): number {
    let q = p + 2;
    let h = 0;
    let b = 0;
    while (q < end) {
      b = buf[q];
      if (b === SP || b === LF || b === CR) break;
      h = hashStep(h, b);
      q++;
    }
    if (q >= end) return -1;
    const idEnd = q;
    const lf = buf.indexOf(LF, q);
    if (lf < 0 || lf >= end) return -1;
    let hexEnd = lf;
    if (hexEnd > q && buf[hexEnd - 1] === CR) hexEnd--;
    // `I G ` with an empty payload has a trailing space; `I G` without it is read the same way.
    const hexStart = b === SP ? q + 1 : hexEnd;
    if (b === CR && hexEnd !== q) {
      this.fail('malformed', this.line + 1, q - p + 1, 'a stray carriage return inside an `I` record', 'the line is damaged');
    }
    const t = this.table.lookup(buf, p + 2, idEnd, h);
    if (t < 0) this.badId(buf, p + 2, idEnd);
    const hexLen = hexEnd - hexStart;
    if ((hexLen & 1) !== 0) {
      this.fail('malformed', this.line + 1, hexStart - p + 1, `the hex payload has an odd number of digits (${hexLen})`, 'every byte is two hex digits, so the line is damaged or cut');
    }
    const at = this.builder.reservePayload(hexLen >> 1);
    const out = this.builder.payloadBytes;
    for (let i = hexStart, o = at; i < hexEnd; i += 2, o++) {
      const hi = HEX_VALUE[buf[i]];
      const lo = HEX_VALUE[buf[i + 1]];
      if ((hi | lo) < 0) {
        const col = (hi < 0 ? i : i + 1) - p + 1;
        const ch = buf[hi < 0 ? i : i + 1];
        this.fail('malformed', this.line + 1, col, `bad hex in the payload: ${describeByte(ch)} is not a hex digit`, 'the line is damaged');
      }
      out[o] = (hi << 4) | lo;
    }
    this.addRecord(this.iKind, t);
    this.ioTotal++;
    return lf + 1;
  }

  /** Header, blank and bad lines. Returns the offset after the line, or -1 when it is not complete. */
  private otherLine(buf: Uint8Array, p: number, end: number): number {
    const lf = buf.indexOf(LF, p);
    if (lf < 0 || lf >= end) {
      this.checkCutPrefix(buf, p, end);
      return -1;
    }
    this.line++;
    let e = lf;
    if (e > p && buf[e - 1] === CR) e--;
    this.lineText(buf, p, e, this.line, false);
    return lf + 1;
  }

  private lineText(buf: Uint8Array, p: number, e: number, line: number, cut: boolean): void {
    if (e - p > 65536) this.fail('malformed', line, 1, `a line of ${e - p} bytes that is not an \`I\` record`, 'the trace is damaged');
    const text = UTF8.decode(buf.subarray(p, e));
    if (line === 1) {
      const m = /^MFLRR (\S+)$/.exec(text);
      if (!m) {
        this.fail('not-a-recording', 1, 1, 'not a machin trace: the first line must be `MFLRR 1`', 'check that this is the file `machin run --record` wrote');
      }
      if (m[1] !== String(MFLRR_VERSION)) {
        throw new RecordingError(
          'unsupported-version',
          `${this.file}:1: trace format version ${JSON.stringify(m[1]).slice(1, -1)} is not supported: only MFLRR version ${MFLRR_VERSION} exists (machin 0.137.0); the trace may come from a newer machin, update Frozen Run`,
          { file: this.file, line: 1 },
        );
      }
      if (cut) this.warn('cut-line', line, `line 1 has no line end: the file ends inside its header (the recording was killed mid-write); no header facts and no records`);
      return;
    }
    if (text === '') {
      this.blankLines++;
      if (!this.blankWarned) {
        this.blankWarned = true;
        this.warn('blank-line', line, `line ${line} is blank (machin never writes blank lines); blank lines are skipped`);
      }
      this.pendingSkips++;
      this.fixup = true;
      return;
    }
    const space = text.indexOf(' ');
    const tag = space < 0 ? text : text.slice(0, space);
    const rest = space < 0 ? '' : text.slice(space + 1);
    if ((HEADER_KEYWORDS as readonly string[]).includes(tag)) {
      this.headerLine(tag as HeaderKeyword, rest, line, space < 0);
      return;
    }
    if (tag === 'S' || tag === 'I') {
      this.fail('malformed', line, 1, `an \`${tag}\` record without a goroutine id (\`${shorten(text)}\`)`, `the line should read \`${tag === 'S' ? 'S G' : 'I G HEX'}\`; the trace is damaged`);
    }
    this.fail('malformed', line, 1, `unknown record tag \`${shorten(tag)}\` (MFLRR 1 has \`S\` and \`I\` records after the \`boundary\`, \`program\`, \`safe\` header)`, 'the trace is damaged or was written by another tool');
  }

  private headerLine(key: HeaderKeyword, value: string, line: number, noValue: boolean): void {
    if (this.builder.recordCount > 0) {
      this.fail('malformed', line, 1, `a \`${key}\` header line after the first record`, 'the header comes before every record; the trace is damaged');
    }
    if (this.seen.has(key)) this.fail('malformed', line, 1, `a second \`${key}\` line`, 'the trace is damaged');
    this.seen.add(key);
    if (key === 'program') {
      if (noValue || value === '') this.fail('malformed', line, 9, 'a `program` line with no path', 'the trace is damaged');
      this.header.program = value;
    } else if (key === 'boundary') {
      if (value !== 'faithful' && value !== 'best-effort') {
        this.fail('malformed', line, 10, `unknown boundary \`${shorten(value)}\` (expected \`faithful\` or \`best-effort\`)`, 'the trace is damaged');
      }
      this.header.boundary = value;
    } else {
      if (value !== '0' && value !== '1') this.fail('malformed', line, 6, `\`safe ${shorten(value)}\` (expected \`safe 0\` or \`safe 1\`)`, 'the trace is damaged');
      this.header.safe = value === '1';
    }
  }

  private beforeRecord(): void {
    if (this.builder.recordCount === 0) this.firstRecordLine = this.line + 1;
    else if (this.pendingSkips > 0) this.builder.skipLines(this.pendingSkips);
    this.pendingSkips = 0;
    this.fixup = false;
  }

  /**
   * The bytes buf[p, end) are the start of a line whose end is not (yet) there. Throws when no
   * valid line can start that way, so a damaged line is reported at once, never buffered whole.
   */
  checkCutPrefix(buf: Uint8Array, p: number, end: number): void {
    const problem = cutPrefixProblem(buf, p, end, this.line === 0);
    if (problem) this.fail('malformed', this.line + 1, 1, problem, 'the trace is damaged');
  }

  /** End of file with buf[0, carry) holding a line without its `\n`. */
  finishCut(buf: Uint8Array, carry: number, fileSize: number): void {
    if (carry === 0) return;
    const line = this.line + 1;
    let e = carry;
    if (buf[e - 1] === CR) e--;
    if (line === 1) {
      this.lineText(buf, 0, e, 1, true);
      this.line = 1;
      this.cutLine = null;
      this.consumedBytes = fileSize;
      return;
    }
    this.checkCutPrefix(buf, 0, carry);
    this.cutLine = line;
    const shown = shorten(UTF8.decode(buf.subarray(0, Math.min(e, 200))));
    this.warn(
      'cut-line',
      line,
      `line ${line} (\`${shown}\`) has no line end: the recording process was killed while writing it, so it may be cut; it was ignored`,
    );
  }

  finish(): Omit<TraceRead, 'stamp'> {
    const h = this.header;
    const blank = this.blankLines > 1 ? this.warnings.find((w) => w.code === 'blank-line') : undefined;
    if (blank) {
      blank.message = `${this.blankLines.toLocaleString('en-US')} lines are blank, the first is line ${blank.line} (machin never writes blank lines); blank lines are skipped`;
    }
    if (h.program === null) {
      this.warn('no-program', undefined, 'the trace has no `program` line: machin cannot replay it (`machin replay` refuses such a trace), so only the trace itself can be shown');
    }
    if (h.boundary === null) this.warn('no-boundary', undefined, 'the trace has no `boundary` line: whether the program used FFI is unknown, so a replay cannot be certified');
    if (h.safe === null) this.warn('no-safe', undefined, 'the trace has no `safe` line: whether the run was built with `--safe` is unknown');
    if (h.boundary === 'best-effort') {
      this.warn('best-effort', undefined, 'best-effort trace: the program calls C through `extern` (FFI), so a replay may diverge from the recorded run and can never be certified');
    }
    const b = this.builder;
    this.countThreads();
    this.kernel?.addCounts(this.opsPerThread, this.ioPerThread);
    const facts = headerFacts(h, b.stepCount, this.ioTotal);
    const timeline = b.finish('mflrr', this.file, facts, this.firstRecordLine || this.line + 1);
    return {
      timeline,
      header: h,
      warnings: this.warnings,
      ioTotal: this.ioTotal,
      completeBytes: this.consumedBytes,
      cutLine: this.cutLine,
      opsPerThread: this.opsPerThread.slice(0, timeline.threads.length),
      ioPerThread: this.ioPerThread.slice(0, timeline.threads.length),
    };
  }

  private badId(buf: Uint8Array, from: number, to: number): never {
    const id = latin1(buf, from, Math.min(to, from + 40));
    const what = from === to ? 'an empty goroutine id' : `a malformed goroutine id \`${shorten(id)}\``;
    this.fail('malformed', this.line + 1, 3, `${what} (ids are paths like \`0\`, \`0.1\`, \`0.1.2\`)`, 'the trace is damaged');
  }

  private warn(code: string, line: number | undefined, message: string): void {
    this.warnings.push(line === undefined ? { code, message } : { code, message, line });
  }

  private fail(code: 'malformed' | 'not-a-recording', line: number, column: number, what: string, todo: string): never {
    throw new RecordingError(code, `${this.file}:${line}: ${what}; ${todo}`, { file: this.file, line, column });
  }
}
