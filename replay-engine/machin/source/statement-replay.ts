// One `machin replay --verify --print` against the instrumented copy answers two things: the
// statement probes (`fr_stmt0 = 13`) make the statement index, the program's variables make the
// value histories. machin prints a goroutine's probes in the order it ran them, so a value probe
// follows the statement probe of the statement that stored it: that event is kept with the value.
// The statement probes (over a million lines for a 1M-op run) are taken while machin's output is
// parsed (StatementProbes, a machin-output ProbeSink) into typed columns, never made objects.
import { CallSplicer } from './call-splicer';
import type { ProbeSink } from '../machin-output';
import { CancelledReading, parseReplayOutputInSlices, ReplayOutputStream, type ReplayOutput, type SlicedReading } from '../machin-output';
import type { Timeline } from '../../model/timeline';
import type { ReplayRun, ValueColumns, ValuePlace } from '../run-replay';
import type { StatementTable } from './instrument';
import { ChunkedColumn } from '../../model/chunked-column';
import { TextColumn } from './text-column';
import { StatementIndex, StatementIndexBuilder } from './statement-index';
import { sureEvents, SureEventsReader, type SureEvents, type TakenEvents } from './happens-before';
import { PrintedRun } from './run-template';
import type { ValueHistoriesMaker } from '../value-histories';
import { StatementValuePlaces } from './value-places';

/** The statement probes of one instrumented replay, in machin's order, and for each value probe the statement it followed. */
export class StatementProbes implements ProbeSink {
  readonly names: ReadonlySet<string>;
  /** A statements-only copy's panic marks (StatementTable.panicMarks): never printed where the stderr library holds them. */
  private readonly marks: ReadonlySet<string>;
  /** Its panic cuts (StatementTable.panicCuts): printed only by the stderr library, before a panicking thread's mark. */
  private readonly cuts: ReadonlySet<string>;
  /** Goroutine ids in order of first probe. */
  readonly goroutines: string[] = [];
  private readonly ids = new Map<string, number>();
  private lastGoroutine = '';
  private lastId = -1;
  // Goroutine (index in `goroutines`), statement number and `@op` of each statement probe.
  readonly goroutine = new ChunkedColumn();
  readonly statement = new ChunkedColumn();
  readonly op = new ChunkedColumn(true);
  /** Statement probes so far per goroutine (by its index in `goroutines`). */
  private readonly counts: number[] = [];
  /** Per value probe (in ReplayOutput.probes order): the index among its goroutine's statement probes of the one it followed, -1 when none. */
  readonly valueAfter = new ChunkedColumn(true);
  /** A statement probe whose value was no statement number (never seen from machin). */
  bad: string | null = null;

  constructor(private readonly table: StatementTable) {
    this.names = new Set(table.probeNames);
    this.marks = new Set(table.panicMarks);
    this.cuts = new Set(table.panicCuts);
    this.expands = table.rows.map((r) => r.expands);
    this.splicer = table.base !== undefined && CallSplicer.needed(table.rows) ? new CallSplicer(table.rows) : null;
    this.printed = table.base !== undefined && this.splicer === null ? new Map() : null;
  }

  /** By statement number - 1: the statements its call runs that nobody prints (StatementRow.expands). */
  private readonly expands: Array<number[] | undefined>;

  /** Parses a replay's stderr, taking the statement probes here; in slices, so a cancel is heard (CancelledReading). */
  parse(stderr: string, reading: SlicedReading = {}): Promise<ReplayOutput> {
    return parseReplayOutputInSlices(stderr, this, reading);
  }

  /**
   * A reader of the replay's stderr as machin writes it (runMachinReplay reads it in chunks while
   * machin runs), taking the statement probes here. `onCount` hears how many statements so far,
   * every 2^18 of them, until `signal` is aborted.
   */
  stream(onCount?: (statements: number) => void, signal?: AbortSignal): ReplayOutputStream {
    this.onCount = onCount && ((n) => signal?.aborted || onCount(n));
    return new ReplayOutputStream(this);
  }

  private onCount: ((statements: number) => void) | undefined;

  /** Once the histories have them: the value columns' memory goes back. */
  releaseValues(): void {
    this.valueGoroutine.release();
    this.valueName.release();
    this.valueOp.release();
    this.valueAfter.release();
    this.values.release();
  }

  /**
   * Once the index has them: the statement columns' memory goes back before the values are made
   * histories, and so does the index builder's and what surely ran's (the index and SureEvents are
   * their own arrays): the parse's closures keep this object for as long as the launch runs.
   */
  releaseStatements(): void {
    this.goroutine.release();
    this.statement.release();
    this.op.release();
    this.builder = null;
    this.sureReader = null;
  }

  /**
   * The index, built while machin prints (buildWhileReading): each statement probe of a goroutine
   * that is a thread of the timeline is added as it is read, so that only the other goroutines'
   * (threads added after the replay) are left for indexInstrumentedReplay.
   */
  builder: StatementIndexBuilder | null = null;
  private timeline: Timeline | null = null;
  /** By goroutine index: its thread when its probes go to the builder as read, else -1. */
  readonly fedThread: number[] = [];
  /** Why the builder took no more (a probe that is no walk of the table), thrown by indexInstrumentedReplay. */
  builderError: unknown = null;

  /** What surely ran, taken as the probes are read (buildWhileReading). */
  private sureReader: SureEventsReader | null = null;
  /** Statement probes read so far. */
  statementCount = 0;

  /**
   * Builds the statement index of `file` while the replay is read (the timeline's threads by then
   * are its threads), and what surely ran: the probes of those threads are then kept nowhere else
   * (the columns hold only the others'), so the parse's memory is the index's.
   */
  buildWhileReading(tl: Timeline, file: string): void {
    if (this.goroutines.length === 0) this.toBuild = { tl, file };
  }

  /** What buildWhileReading asked for and prepare has not made yet. */
  private toBuild: { tl: Timeline; file: string } | null = null;

  /**
   * Makes the index builder buildWhileReading asked for (the timeline's own-op lists: some ms for a
   * long trace), if not made yet; the first probe makes it otherwise. Called while machin compiles
   * the copy, when nothing is read yet.
   */
  prepare(): void {
    const b = this.toBuild;
    if (!b) return;
    this.toBuild = null;
    this.builder = new StatementIndexBuilder(this.table, b.file, b.tl);
    this.sureReader = new SureEventsReader(this.table, b.tl);
    this.timeline = b.tl;
  }

  /** Which statement events surely ran (happens-before.ts), the run ending at `ender`'s end (null: a deadlock). */
  sureEvents(tl: Timeline, ender: string | null): SureEvents {
    this.endRuns();
    if (!this.sureReader) return sureEvents(this, this.table, tl, ender);
    // The goroutines the builder took are read from it (after an error of its own it took no more, and its index is not used).
    const builder = this.builder!;
    return this.sureReader.finish(ender, (g) => (this.fedThread[g] >= 0 ? (builder.taken(this.fedThread[g]) ?? NO_EVENTS_TAKEN) : null));
  }

  /** The values' replay of a two-stage launch (checkAgainst): the index its statement probes are held to. */
  private check: StatementIndex | null = null;
  /** By goroutine index, in check mode: its thread in the index (-1: none). */
  private readonly checkThread: number[] = [];
  /**
   * By goroutine index, in check mode: its first statement probe that is not the index's event at
   * the same place (its count of probes when all are). Its values from there on are not placed
   * at statements (they belong to events the index does not hold).
   */
  readonly differsFrom: number[] = [];

  /**
   * Reads the values' replay of a two-stage launch: the statement probes only count (a value is
   * placed after its goroutine's n-th statement event, the index's), and each is held to the
   * index's statement at the same place in its goroutine (differsFrom).
   */
  checkAgainst(index: StatementIndex, tl: Timeline): void {
    this.check = index;
    this.timeline = tl;
  }

  /**
   * With checkAgainst: each value is placed as it is read (`places`: its event is the index's at its
   * goroutine's count of statement probes so far) and goes straight into `made`, so the parse keeps
   * no column per value. A goroutine that is no thread yet keeps its values aside until placeAside
   * (rare: the statements' replay named the same goroutines).
   */
  placeValuesAsRead(made: ValueHistoriesMaker, places: StatementValuePlaces): void {
    this.made = { made, places, params: parameterOfCopy(this.table), sureIndex: [], nameIds: new Map(), aside: [] };
  }

  private made: {
    made: ValueHistoriesMaker;
    places: StatementValuePlaces;
    /** A parameter copy's probe name -> the parameter (`fr_arg_n` is n's value). */
    params: Map<string, string>;
    /** By goroutine index: its index in the SureEvents. */
    sureIndex: number[];
    /** Printed name -> the histories' name id. */
    nameIds: Map<string, number>;
    /** The values of goroutines that were no thread when read, in order: goroutine index, printed name, text (or null and the number), op, statement probes before. */
    aside: Array<{ g: number; name: string; text: string | null; number: number; op: number; after: number }>;
  } | null = null;

  /** The histories and the placing rule of placeValuesAsRead, or null. */
  valuesPlacedAsRead(): { made: ValueHistoriesMaker; places: StatementValuePlaces } | null {
    return this.made && { made: this.made.made, places: this.made.places };
  }

  /** Places the values kept aside (placeValuesAsRead), once every goroutine is a thread. */
  placeAside(tl: Timeline): void {
    const m = this.made;
    if (!m) return;
    for (const v of m.aside) {
      const t = tl.threadIndex(this.goroutines[v.g]);
      const place = t < 0 ? m.places.nowhere() : m.places.at(t, v.after, this.differsFrom[v.g], m.sureIndex[v.g], v.op);
      m.made.add(this.goroutines[v.g], t, this.madeName(v.name), place, v.text, v.number);
    }
    m.aside = [];
  }

  /** The histories' id of a printed name (a parameter copy's is its parameter's). */
  private madeName(name: string): number {
    const m = this.made!;
    let id = m.nameIds.get(name);
    if (id === undefined) {
      id = m.made.nameId(m.params.get(name) ?? name);
      m.nameIds.set(name, id);
    }
    return id;
  }

  /** A value placed as it is read (placeValuesAsRead). */
  private placeNow(goroutine: string, name: string, text: string | null, number: number, op: number): void {
    const m = this.made!;
    const g = this.idOf(goroutine);
    const t = this.checkThread[g];
    const after = this.counts[g] - 1;
    if (t < 0) {
      m.aside.push({ g, name, text, number, op, after });
      return;
    }
    m.made.add(goroutine, t, this.madeName(name), m.places.at(t, after, this.differsFrom[g], m.sureIndex[g], op), text, number);
  }

  take(goroutine: string, value: number, op: number): void {
    if (!(Number.isInteger(value) && value >= 1)) {
      this.bad ??= `goroutine ${goroutine} printed ${value} for a statement probe`;
      return;
    }
    const g = this.idOf(goroutine);
    const base = this.table.base;
    if (base === undefined) return this.takeStatement(g, value, op);
    // (a run with a cut before it ends otherwise than its number says: panicCutAt)
    const cut = this.cut !== null && this.cut.g === g ? this.cut.statement : 0;
    if (cut) this.cut = null;
    // (the same number is the same run: decoded once, and the index builder keeps its templates there)
    const printed = cut ? undefined : this.printed?.get(value);
    if (printed !== undefined) return this.takeRun(g, printed.ids, printed.ids.length, op, printed);
    // A statements-only copy's run of statements: base-B digits, the first ran the most significant
    // (no digit is 0: statement numbers start at 1), each followed by what its call ran that nobody
    // printed (StatementRow.expands). Each ran with the same own ops done as the last.
    let d = 0;
    for (let v = value; v > 0; ) {
      const rest = Math.floor(v / base);
      const digit = v - rest * base; // (exact: v is below 2^53)
      v = rest;
      if (digit === 0) {
        this.bad ??= `goroutine ${goroutine} printed ${value} for a statement probe, which in base ${base} has a digit 0 (no statement)`;
        return;
      }
      this.digits[d++] = digit;
    }
    let n = 0;
    let run = this.run;
    while (d > 0) {
      const id = this.digits[--d];
      let ran = this.expands[id - 1];
      if (cut && d === 0) {
        // the last statement's call ran its callee only up to the cut (and the goroutine panicked there)
        const upTo = ran ? ran.indexOf(cut) : -1;
        if (upTo < 0) {
          this.bad ??= `goroutine ${goroutine} printed a panic cut at statement ${cut}, which the call of statement ${id} does not run`;
          return;
        }
        ran = ran!.slice(0, upTo + 1);
      }
      const need = n + 1 + (ran ? ran.length : 0);
      if (need > run.length) {
        const bigger = new Int32Array(need * 2);
        bigger.set(run.subarray(0, n));
        this.run = run = bigger;
      }
      run[n++] = id;
      if (ran) for (let k = 0; k < ran.length; k++) run[n++] = ran[k];
    }
    const splicer = this.splicer;
    if (splicer === null) {
      if (this.printed === null || this.printed.size >= PRINTED_RUNS_KEPT) return this.takeRun(g, run, n, op);
      const made = new PrintedRun(run.slice(0, n));
      this.printed.set(value, made);
      return this.takeRun(g, made.ids, n, op, made);
    }
    const m = splicer.take(g, run, n, op);
    if (splicer.bad !== null) {
      this.bad ??= splicer.bad;
      return;
    }
    if (m > 0) this.takeRun(g, splicer.result, m, op);
  }

  /** Where the copy has calls it does not print before (StatementRow.splice): their runs, held until their caller's. */
  private readonly splicer: CallSplicer | null;

  /**
   * The end of the replay's statement probes: what a goroutine printed that no run of its caller
   * placed (CallSplicer.leftover) is taken, after the rest of it. Once; before the index or what
   * surely ran is finished.
   */
  endRuns(): void {
    if (this.cut !== null) this.bad ??= `goroutine ${this.goroutines[this.cut.g]} printed a panic cut with no run after it`;
    const splicer = this.splicer;
    if (splicer === null || this.ended) return;
    this.ended = true;
    this.goroutines.forEach((_, g) => {
      const left = splicer.leftover(g);
      if (left) this.takeRun(g, left.ids, left.ids.length, left.op);
    });
  }

  private ended = false;

  /** The digits of a statements-only probe's run, least significant first (at most 15: the value is below 1e15). */
  private readonly digits = new Float64Array(64);
  /** The statements of the run being taken. */
  private run = new Int32Array(256);

  /**
   * The runs printed so far, by their number, when the copy splices no calls (a spliced run is not
   * its number's): decoded once. At most PRINTED_RUNS_KEPT; the rest are decoded each time.
   */
  private readonly printed: Map<number, PrintedRun> | null;

  /** The run ids[0, n) of goroutine g, printed at `op` (as `printed`, when kept): as n takeStatement calls, the op's place found once. */
  private takeRun(g: number, ids: Int32Array, n: number, op: number, printed?: PrintedRun): void {
    if (this.check) {
      for (let k = 0; k < n; k++) this.takeStatement(g, ids[k], op);
      return;
    }
    this.counts[g] += n;
    const t = this.fedThread[g];
    if (t >= 0) {
      // (what surely ran reads the builder's events at the end: sureEvents)
      if (this.builderError === null) {
        try {
          if (printed) this.builder!.addPrinted(t, printed, op);
          else this.builder!.addRun(t, ids, n, op);
        } catch (err) {
          this.builderError = err;
        }
      }
    } else {
      this.sureReader?.addRun(g, ids, n, op);
      for (let k = 0; k < n; k++) {
        this.goroutine.push(g);
        this.statement.push(ids[k]);
        this.op.push(op);
      }
    }
    const before = this.statementCount;
    this.statementCount += n;
    if (this.onCount && before >>> 18 !== this.statementCount >>> 18) this.onCount(this.statementCount);
  }

  private takeStatement(g: number, value: number, op: number): void {
    const check = this.check;
    if (check) {
      // The values' replay: its statement probes only count, each held to the index's event there.
      const e = this.counts[g]++;
      const t = this.checkThread[g];
      const events = t >= 0 ? check.threads[t]?.statements : undefined;
      if (e < this.differsFrom[g] && (events === undefined || e >= events.length || events[e] !== value)) this.differsFrom[g] = e;
      this.statementCount++;
      if (this.onCount && (this.statementCount & COUNT_EVERY) === 0) this.onCount(this.statementCount);
      return;
    }
    this.counts[g]++;
    const t = this.fedThread[g];
    if (t >= 0) {
      if (this.builderError === null) {
        try {
          this.builder!.add(t, value, op);
        } catch (err) {
          this.builderError = err;
        }
      }
    } else {
      this.sureReader?.add(g, value, op);
      this.goroutine.push(g);
      this.statement.push(value);
      this.op.push(op);
    }
    this.statementCount++;
    if (this.onCount && (this.statementCount & COUNT_EVERY) === 0) this.onCount(this.statementCount);
  }

  /** The program's values (when streamed): by value probe, its goroutine (index in `goroutines`), name (index in `valueNames`), text and `@op`. */
  readonly valueGoroutine = new ChunkedColumn();
  readonly valueName = new ChunkedColumn();
  readonly valueOp = new ChunkedColumn(true);
  readonly values = new TextColumn();
  readonly valueNames: string[] = [];
  private readonly nameIds = new Map<string, number>();

  takeValue(goroutine: string, name: string, value: string, op: number): void {
    if (this.marks.has(name)) return this.markPrinted(goroutine, name);
    if (this.cuts.has(name)) return this.panicCutAt(goroutine, Number(value));
    if (this.made) return this.placeNow(goroutine, name, value, 0, op);
    this.placeValue(goroutine, name, op);
    this.values.push(value);
  }

  takeNumber(goroutine: string, name: string, value: number, op: number): void {
    if (this.marks.has(name)) return this.markPrinted(goroutine, name);
    if (this.cuts.has(name)) return this.panicCutAt(goroutine, value);
    if (this.made) return this.placeNow(goroutine, name, null, value, op);
    this.placeValue(goroutine, name, op);
    this.values.pushNumber(value);
  }

  /**
   * A panic mark machin printed reached the output: the stderr library that holds them was not
   * loaded, so a panic's last statements would be missing. Nothing from this replay is used.
   */
  private markPrinted(goroutine: string, name: string): void {
    this.bad ??= `goroutine ${goroutine} printed the panic mark ${name}, which the stderr library should have held (was it not loaded?)`;
  }

  /**
   * A panic cut, written by the stderr library just before the panicking thread's mark: the
   * goroutine's next run (that mark) ends with a call of a callee nobody prints, which ran only up to
   * `statement` (instrument.ts, "Panic cuts").
   */
  private panicCutAt(goroutine: string, statement: number): void {
    const g = this.idOf(goroutine);
    if (this.cut !== null || !(Number.isInteger(statement) && statement >= 1 && statement <= this.table.rows.length)) {
      this.bad ??= `goroutine ${goroutine} printed the panic cut ${statement}, which is no statement, or a second one`;
      return;
    }
    this.cut = { g, statement };
  }

  /** The panic cut waiting for its goroutine's next run. */
  private cut: { g: number; statement: number } | null = null;

  private placeValue(goroutine: string, name: string, op: number): void {
    this.beforeValue(goroutine);
    this.valueGoroutine.push(this.idOf(goroutine));
    let n = this.nameIds.get(name);
    if (n === undefined) {
      n = this.valueNames.length;
      this.valueNames.push(name);
      this.nameIds.set(name, n);
    }
    this.valueName.push(n);
    this.valueOp.push(op);
  }

  beforeValue(goroutine: string): void {
    // -1 for "none"
    this.valueAfter.push(this.counts[this.idOf(goroutine)] - 1);
  }

  private idOf(goroutine: string): number {
    if (goroutine === this.lastGoroutine) return this.lastId;
    let id = this.ids.get(goroutine);
    if (id === undefined) {
      if (this.toBuild) this.prepare();
      id = this.goroutines.length;
      this.goroutines.push(goroutine);
      this.ids.set(goroutine, id);
      this.counts.push(0);
      if (this.check) {
        this.checkThread.push(this.timeline!.threadIndex(goroutine));
        this.differsFrom.push(Infinity);
        this.made?.sureIndex.push(this.made.places.sureIndexOf(goroutine));
      }
      this.fedThread.push(this.builder && this.timeline ? this.timeline.threadIndex(goroutine) : -1);
      this.sureReader?.goroutine(goroutine);
    }
    this.lastGoroutine = goroutine;
    this.lastId = id;
    return id;
  }
}

export interface IndexedReplay {
  index: StatementIndex;
  /** The run with only the program variables' probes, each with the event that stored it (ReplayRun.probeEvents). */
  values: ReplayRun;
}

/** Runs kept decoded (StatementProbes.printed): a loop prints a few numbers over and over; a run of every number is not kept. */
const PRINTED_RUNS_KEPT = 1 << 16;

const NO_EVENTS_TAKEN: TakenEvents = { count: 0, below: new Uint32Array(1), spawnAt: [] };

/** How often (statement probes, minus one: a mask) a streamed read says how far it got. */
const COUNT_EVERY = (1 << 18) - 1;

/** Statement events added to the index between two yields (a cancel is heard half way). */
const EVENTS_PER_SLICE = 1 << 19;

/**
 * Builds the index from the statement probes taken while the run was parsed, in slices with a
 * yield between them (`reading`: a cancel throws CancelledReading). Every goroutine that printed a
 * statement must be a thread of the timeline by now (enrich.ts adds them). `sure`: which events
 * surely ran (happens-before.ts); `panic`: the panicking thread and its stop, where a goroutine
 * with no op of its own is placed.
 */
export async function indexStatementProbes(
  tl: Timeline,
  probes: StatementProbes,
  table: StatementTable,
  file: string,
  sure: SureEvents,
  panic: { thread: number; position: number } | null,
  reading: SlicedReading = {},
): Promise<StatementIndex> {
  probes.endRuns();
  if (probes.bad) throw new Error(`the instrumented replay's statement probes are not statement numbers: ${probes.bad}`);
  const threadOf = Int32Array.from(probes.goroutines, (g) => tl.threadIndex(g));
  const missing = threadOf.indexOf(-1);
  if (missing >= 0) throw new Error(`goroutine ${probes.goroutines[missing]} of the instrumented replay is not a thread of the timeline`);
  if (probes.builderError) throw probes.builderError;
  // (a cancel is heard here too when every probe was indexed as it was read: no slice is left)
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (reading.signal?.aborted) throw new CancelledReading();
  // The probes of goroutines the builder took as they were read (buildWhileReading) are in it already.
  const fed = Uint8Array.from(probes.goroutines, (_, g) => ((probes.fedThread[g] ?? -1) >= 0 ? 1 : 0));
  fed.forEach((f, g) => {
    if (f && probes.fedThread[g] !== threadOf[g]) throw new Error(`goroutine ${probes.goroutines[g]} changed thread while the replay was read`);
  });
  const builder = probes.builder ?? new StatementIndexBuilder(table, file, tl);
  sure.sure.forEach((n, g) => builder.setSure(threadOf[g], n));
  sure.count.forEach((n, g) => fed[g] || builder.expect(threadOf[g], n));
  if (panic) builder.panicAt(panic.thread, panic.position);
  // Chunk by chunk (the three columns are filled in step), a yield between slices of about `size` events.
  // (the columns hold only the probes the builder did not take as they were read)
  const total = probes.goroutine.length;
  const size = reading.size ?? EVENTS_PER_SLICE;
  let done = 0;
  let sinceYield = 0;
  for (let c = 0; c < probes.goroutine.chunkCount; c++) {
    const goroutine = probes.goroutine.chunk(c);
    const statement = probes.statement.chunk(c);
    const op = probes.op.chunk(c);
    for (let from = 0; from < goroutine.length; from += size) {
      const to = Math.min(goroutine.length, from + size);
      for (let k = from; k < to; k++) builder.add(threadOf[goroutine[k]], statement[k], op[k]);
      done += to - from;
      sinceYield += to - from;
      if (done === total || sinceYield < size) continue;
      sinceYield = 0;
      reading.onSlice?.(done / total);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (reading.signal?.aborted) throw new CancelledReading();
    }
  }
  const index = builder.finish();
  probes.releaseStatements();
  return index;
}

/**
 * The index and the values of one replay that printed both (StatementProbes read both): the
 * index (indexStatementProbes), then the values placed at its events (placeValues).
 */
export async function indexInstrumentedReplay(
  tl: Timeline,
  run: ReplayRun,
  probes: StatementProbes,
  table: StatementTable,
  file: string,
  valueNames: string[],
  sure: SureEvents,
  panic: { thread: number; position: number } | null,
  reading: SlicedReading = {},
): Promise<IndexedReplay> {
  const index = await indexStatementProbes(tl, probes, table, file, sure, panic, reading);
  return { index, values: placeValues(tl, run, probes, table, index, valueNames, sure) };
}

/**
 * The run's values (read by `probes` with its statement probes: each value follows the statement
 * that stored it), placed at the index's events: a value after its goroutine's n-th statement
 * probe is stored by the index's n-th event of that goroutine, at its position at the earliest,
 * and is sure exactly when that event is. `sure` is the index's (the replay it was built from),
 * found by goroutine id (StatementValuePlaces.sureIndexOf; none for one it did not name). A value whose
 * event the index does not hold (after the goroutine's differsFrom, or past its events) is
 * placed by its own ops alone, as without statements.
 */
export function placeValues(
  tl: Timeline,
  run: ReplayRun,
  probes: StatementProbes,
  table: StatementTable,
  index: StatementIndex,
  valueNames: string[],
  sure: SureEvents,
): ReplayRun {
  const threadOf = Int32Array.from(probes.goroutines, (g) => tl.threadIndex(g));
  const differs = probes.differsFrom;
  // Values placed as the parse read them are in their histories already (placeValuesAsRead; those
  // of goroutines that were no thread then are placed now); the columns hold none of them.
  const made = probes.valuesPlacedAsRead();
  probes.placeAside(tl);
  const places = made?.places ?? new StatementValuePlaces(tl, index, sure);
  const sureIndex = Int32Array.from(probes.goroutines, (g) => places.sureIndexOf(g));
  // The values, in columns as the parse took them (a million values are never a million objects),
  // then any the parse could only read as lines (a value over lines cut by a chunk: rare), unplaced.
  // A parameter's copy (`fr_arg_n := n` at the body's top) is the parameter's value, stored by the entry.
  const params = parameterOfCopy(table);
  const names = probes.valueNames.map((n) => params.get(n) ?? n);
  const vg = probes.valueGoroutine;
  const vn = probes.valueName;
  const vo = probes.valueOp;
  const extra = run.output.probes;
  const streamed = vg.length;
  const values: ValueColumns = {
    length: streamed + extra.length,
    goroutine: (j) => (j < streamed ? probes.goroutines[vg.get(j)] : extra[j - streamed].goroutine),
    name: (j) => (j < streamed ? names[vn.get(j)] : (params.get(extra[j - streamed].name) ?? extra[j - streamed].name)),
    value: (j) => (j < streamed ? probes.values.get(j) : extra[j - streamed].value),
    number: (j) => (j < streamed ? probes.values.numberAt(j) : null),
    op: (j) => (j < streamed ? vo.get(j) : extra[j - streamed].op),
    release: () => probes.releaseValues(),
  };
  // Where each value goes, worked out as the histories ask, in order (no column per value): its
  // event is the statement probe it followed.
  const after = probes.valueAfter;
  let last = '';
  let t = -1;
  const valuePlaces = (j: number): ValuePlace => {
    if (j < streamed) {
      const g = vg.get(j);
      const thread = threadOf[g];
      return thread < 0 ? places.nowhere() : places.at(thread, after.get(j), differs[g] ?? Infinity, sureIndex[g], vo.get(j));
    }
    const g = values.goroutine(j);
    if (g !== last) {
      last = g;
      t = tl.threadIndex(g);
    }
    return t < 0 ? places.nowhere() : places.byOp(t, values.op(j));
  };
  const flags = valueNames.length > 0 ? ['--verify', '--print', valueNames.join(',')] : ['--verify'];
  return { ...run, output: { ...run.output, probes: [] }, valueColumns: values, flags, valuePlaces, valuesMade: made?.made };
}

/** A parameter copy's probe name -> its parameter: `fr_arg_n := n` at a body's top prints n's value. */
function parameterOfCopy(table: StatementTable): Map<string, string> {
  return new Map(table.paramProbes.map((p) => [p.probe, p.param]));
}
