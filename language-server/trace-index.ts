// The language server's index of one `.mflrr` document: per-line kind and goroutine (scanned
// once, rescanned only where edits land) and, computed lazily once per edit, the op number of
// every schedule line, the I/O index of every I/O line, per-goroutine totals and the problems
// that depend on more than one line (header order, a missing `program`, a cut last line).
import { SELECT_LOOKBACK } from '../replay-engine/mflrr/decode-io';
import { forEachLine, lastLineOf } from './line-breaks';
import { LineTable } from './line-table';
import { cutLineIgnored } from '../replay-engine/mflrr/line-prefix';
import { LineKind, Severity, TraceLineScanner, type LineProblem } from './trace-line';

export interface PlacedProblem extends LineProblem {
  line: number;
}

export interface HeaderFacts {
  /** Line of each header kind (LineKind.Magic, Boundary, Program, Safe), first occurrence. */
  lineOf: Map<number, number>;
}

/** Facts derived from the line table in one pass; rebuilt lazily after an edit. */
export class TraceDerived {
  /** Lines that count (a final empty line after the last `\n` does not). */
  lines = 0;
  /** For an S line: its op number. For an I line: its index in its goroutine's I/O queue. */
  ordinal: Uint32Array;
  /** Schedule ops before the line (an I line is consumed before op `opsBefore`). */
  opsBefore: Uint32Array;
  /** For an S line: its index among its goroutine's ops. */
  threadOrdinal: Uint32Array;
  /** For an I line: 1 when its goroutine's previous record is an S (a `select` logs its case then). */
  followsOwnStep: Uint8Array;
  opTotal = 0;
  ioTotal = 0;
  /** Per interned thread: ops, I/O records, first and last record line (-1 when none). */
  threadOps: Uint32Array;
  threadIos: Uint32Array;
  threadFirst: Int32Array;
  threadLast: Int32Array;
  /** The last line when it has no `\n` (machin was killed mid-write), else -1. */
  cutLine = -1;
  /** The cut line is (the start of) a record, which replay ignores: not an error. */
  cutIsRecord = false;
  header: HeaderFacts = { lineOf: new Map() };
  problems: PlacedProblem[] = [];
  /** Runs of one goroutine (TraceIndex.runs), computed on first use. */
  runs: Int32Array | undefined;

  /**
   * `reuse`: the previous facts of the same document, whose per-line arrays are reused when big
   * enough (every slot a reader looks at is rewritten), so an edit allocates nothing per line.
   */
  constructor(lineCount: number, threadCount: number, reuse?: TraceDerived) {
    const fits = reuse && reuse.ordinal.length >= lineCount;
    const capacity = Math.ceil(lineCount * 1.25) + 64;
    this.ordinal = fits ? reuse.ordinal : new Uint32Array(capacity);
    this.opsBefore = fits ? reuse.opsBefore : new Uint32Array(capacity);
    this.threadOrdinal = fits ? reuse.threadOrdinal : new Uint32Array(capacity);
    this.followsOwnStep = fits ? reuse.followsOwnStep : new Uint8Array(capacity);
    this.threadOps = new Uint32Array(threadCount);
    this.threadIos = new Uint32Array(threadCount);
    this.threadFirst = new Int32Array(threadCount).fill(-1);
    this.threadLast = new Int32Array(threadCount).fill(-1);
  }
}

/** End column of a problem that covers its whole line (clients clamp it to the line's length). */
const LINE_END = 1 << 20;

const HEADER_NAMES: Record<number, string> = {
  [LineKind.Magic]: 'MFLRR',
  [LineKind.Boundary]: 'boundary',
  [LineKind.Program]: 'program',
  [LineKind.Safe]: 'safe',
};

export class TraceIndex {
  readonly table = new LineTable();
  private scanner = new TraceLineScanner();
  /** Goroutine ids by thread number (in order of first appearance). */
  readonly threadIds: string[] = this.scanner.ids;
  private endsWithNewline = false;
  /** The text after the last `\n` ('' when the document ends with one). */
  private tail = '';
  private cache: TraceDerived | null = null;
  /** The last facts computed, kept for their arrays after an edit makes them stale. */
  private stale: TraceDerived | undefined;
  /** How many times the whole text was scanned (tests check that edits do not). */
  fullScans = 0;
  /** Lines scanned since creation. */
  linesScanned = 0;

  constructor(text: string) {
    this.rescanAll(text);
  }

  rescanAll(text: string): void {
    this.fullScans++;
    const lines = forEachLine(text, () => undefined);
    this.table.splice(0, this.table.length, lines);
    let line = 0;
    forEachLine(text, (start, end, loneCR) => this.scanInto(line++, text, start, end, loneCR));
    this.setTail(lastLineOf(text));
  }

  /**
   * Lines [at, at + removed) were replaced by `added` lines, read from `linesText` (those lines
   * as the document now holds them, the last one's line break included or not). `tail` is the
   * document's text after its last line break. Returns false when linesText does not split into
   * `added` lines (the caller then rescans the whole text).
   */
  replaceLines(at: number, removed: number, added: number, linesText: string, tail: string): boolean {
    const bounds: number[] = [];
    forEachLine(linesText, (start, end, loneCR) => bounds.push(start, end, loneCR ? 1 : 0));
    let count = bounds.length / 3;
    if (count === added + 1 && bounds[bounds.length - 3] === linesText.length) count--;
    if (count !== added) return false;
    this.table.splice(at, removed, added);
    for (let k = 0; k < added; k++) this.scanInto(at + k, linesText, bounds[3 * k], bounds[3 * k + 1], bounds[3 * k + 2] === 1);
    this.setTail(tail);
    return true;
  }

  private setTail(tail: string): void {
    this.tail = tail.length > 4096 ? tail.slice(0, 4096) : tail;
    this.endsWithNewline = tail === '' && this.table.length > 1;
    this.cache = null;
  }

  private scanInto(line: number, text: string, start: number, end: number, loneCR: boolean): void {
    this.linesScanned++;
    let kind = this.scanner.scan(text, start, end);
    let problems = this.scanner.problems;
    if (loneCR) {
      // Editors end the line at a lone CR; machin never writes one, and the engine's reader
      // sees it as a damaged line.
      kind = LineKind.Bad;
      problems = [...(problems ?? []), { start: end - start, end: end - start + 1, severity: Severity.Error, code: 'stray-cr', message: 'A carriage return without a newline ends this line: machin ends lines with `\n` (or `\r\n`), so the trace is damaged here.' }];
    }
    let thread = -1;
    if (kind === LineKind.Sched || kind === LineKind.Io) thread = this.scanner.threadIndex;
    this.table.set(line, kind, thread, problems);
  }

  threadIndex(id: string): number {
    return this.scanner.indexOf(id);
  }

  get derived(): TraceDerived {
    return (this.cache ??= this.derive());
  }

  private derive(): TraceDerived {
    const total = this.table.length;
    // A document ending in `\n` has an empty last "line" that is not part of the trace.
    const lines = this.endsWithNewline || (total === 1 && this.table.kind(0) === LineKind.Blank) ? total - 1 : total;
    const d = new TraceDerived(Math.max(lines, 0), this.threadIds.length, this.stale);
    this.stale = d;
    d.lines = Math.max(lines, 0);
    const kinds = this.table.kindArray;
    const threads = this.table.threadArray;
    const problems = d.problems;
    const add = (line: number, severity: Severity, code: string, message: string, start = 0, end = LINE_END) =>
      problems.push({ line, start, end, severity, code, message });

    if (d.lines === 0) {
      add(0, Severity.Error, 'empty', 'Empty trace: nothing was recorded. machin writes its trace when the run ends, so a process that died first (a deadlock exit, a kill) leaves an empty file. There is nothing to replay.');
      return d;
    }
    const cut = !this.endsWithNewline && kinds[lines - 1] !== LineKind.Blank ? lines - 1 : -1;
    // The reader's own rule: what replay ignores with a warning is a warning here too.
    const cutRecord = cut > 0 && cutLineIgnored(this.tail, false);
    if (kinds[0] !== LineKind.Magic) {
      add(0, Severity.Error, 'not-a-trace', 'Not a machin trace: the first line must be `MFLRR 1` (magic and format version). Was this file written by `machin run --record`?');
    }
    let firstRecord = -1;
    let ops = 0;
    let ios = 0;
    let records = 0;
    const lastRecord = new Int32Array(this.threadIds.length).fill(-1);
    const lastWasSched = new Uint8Array(this.threadIds.length);
    const header = d.header;
    const { opsBefore, ordinal, threadOrdinal, followsOwnStep, threadFirst, threadLast, threadOps, threadIos } = d;
    const SCHED = LineKind.Sched;
    const IO = LineKind.Io;
    for (let line = 0; line < lines; line++) {
      const kind = kinds[line];
      opsBefore[line] = ops;
      if (kind === SCHED || kind === IO) {
        if (line === cut) continue;
        if (firstRecord < 0) firstRecord = line;
        const t = threads[line];
        if (threadFirst[t] < 0) threadFirst[t] = line;
        threadLast[t] = line;
        if (kind === SCHED) {
          ordinal[line] = ops++;
          threadOrdinal[line] = threadOps[t]++;
          lastWasSched[t] = 1;
        } else {
          ordinal[line] = threadIos[t]++;
          ios++;
          // The engine's rule (MflrrRecording.describe): the previous record within the lookback.
          followsOwnStep[line] = lastRecord[t] >= 0 && records - lastRecord[t] <= SELECT_LOOKBACK ? lastWasSched[t] : 0;
          lastWasSched[t] = 0;
        }
        lastRecord[t] = records++;
      } else if (kind === LineKind.Blank) {
        add(line, Severity.Warning, 'blank-line', 'Blank line: not part of the trace format (machin never writes one); replay skips it.');
      } else if (kind !== LineKind.Bad) {
        const name = HEADER_NAMES[kind];
        const first = header.lineOf.get(kind);
        if (first !== undefined) {
          add(line, Severity.Error, 'duplicate-header', `Repeated \`${name}\` line: the header already has one on line ${first + 1}.`);
        } else if (firstRecord >= 0 || (kind === LineKind.Magic && line > 0)) {
          add(line, Severity.Error, 'misplaced-header', `\`${name}\` line out of place: header lines come first, in the order MFLRR, boundary, program, safe, before any record.`);
          header.lineOf.set(kind, line);
        } else {
          header.lineOf.set(kind, line);
        }
      }
    }
    d.opTotal = ops;
    d.ioTotal = ios;
    d.cutLine = cut;
    d.cutIsRecord = cutRecord;
    if (cut >= 0) {
      add(cut, Severity.Warning, 'partial-line', cutRecord
        ? 'Cut last line: it has no newline, so the recording stopped mid-write (the process was killed). Replay ignores this record; the trace ends with the line before. (machin itself would wait forever on a cut goroutine id: Frozen Run hands it a copy without this line.)'
        : 'Last line has no newline: machin ends every line with one, so the recording may have been cut here.');
    }
    if (kinds[0] === LineKind.Magic) {
      if (!header.lineOf.has(LineKind.Program)) {
        add(0, Severity.Error, 'no-program', 'No `program` line: `machin replay` cannot rebuild the program, so replay (Replay to panic, values of variables) is impossible. The trace itself can still be browsed. Add `program PATH` after the `boundary` line if you know the source file.');
      }
      if (!header.lineOf.has(LineKind.Boundary)) {
        add(0, Severity.Warning, 'no-boundary', 'No `boundary` line: machin writes `boundary faithful` or `boundary best-effort`; this trace is read as faithful.');
      }
      if (!header.lineOf.has(LineKind.Safe)) {
        add(0, Severity.Warning, 'no-safe', 'No `safe` line: replay cannot know whether the run was built with --safe, and a crash caught by a bounds check may not reproduce without it.');
      }
    }
    return d;
  }

  /** Every problem, sorted by line then column. */
  allProblems(): PlacedProblem[] {
    const d = this.derived;
    const out: PlacedProblem[] = [];
    for (const [line, list] of this.table.problems) {
      if (line >= d.lines || (line === d.cutLine && d.cutIsRecord)) continue;
      for (const p of list) out.push({ ...p, line });
    }
    for (const p of d.problems) out.push(p); // no spread: a document can have more problems than a call has arguments
    out.sort((a, b) => a.line - b.line || a.start - b.start);
    return out;
  }

  /**
   * Runs of consecutive record lines by the same goroutine: [startLine, endLine, thread] triples.
   * Computed once per edit.
   */
  runs(): Int32Array {
    const d = this.derived;
    if (d.runs) return d.runs;
    const kinds = this.table.kindArray;
    const threads = this.table.threadArray;
    let out = new Int32Array(1024);
    let n = 0;
    let runStart = -1;
    let runThread = -1;
    let last = -1;
    for (let line = 0; line <= d.lines; line++) {
      const isRecord = line < d.lines && line !== d.cutLine && (kinds[line] === LineKind.Sched || kinds[line] === LineKind.Io);
      const t = isRecord ? threads[line] : -1;
      if (t !== runThread) {
        if (runThread >= 0) {
          if (n + 3 > out.length) {
            const grown = new Int32Array(out.length * 2);
            grown.set(out);
            out = grown;
          }
          out[n++] = runStart;
          out[n++] = last;
          out[n++] = runThread;
        }
        runStart = line;
        runThread = t;
      }
      if (isRecord) last = line;
    }
    return (d.runs = out.slice(0, n));
  }
}
