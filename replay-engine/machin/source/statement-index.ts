// The statement index of one recording: for each thread (goroutine), every statement it executed
// (from the instrumented replay's probes), where each one falls among that thread's own schedule
// ops, and the call stack at each one, in typed arrays (a 1M-op recording has millions of
// events); and the queries the debug adapter needs (model/source-level.ts).
//
// Placement: a probe's `@opP` is the global schedule counter when it ran, which other goroutines
// may have moved (toolchains/machin/README.md); what is fixed is how many of the thread's own
// ops had completed, and that is the number of its ops among the first P of the trace. An event
// is placed after that many own ops, by the timeline's one ProbePlacer (the rule of
// docs/value-positions.md, the same as the values and the panic), and never before the `go` that
// started its goroutine (a child's events happen after it: the thread's `floor`). Every event
// machin printed is kept; those that surely ran (happens-before.ts) are a prefix of each thread's
// (`sure`), and the rest are this replay's only: machin may not print them in another.
//
// Frames: an entry event pushes a frame; an exit event (the end of a body) pops it; a return pops
// it once the calls its values make have returned (StatementRow.returnCalls), or, when that count
// is not fixed, at the thread's next event that is not an entry. Each frame keeps the event of its
// caller that made the call, so the stack at any event is a walk up, each frame with its statement.
//
// The total order: by placed position, then thread rank, then the thread's own order. A global id
// (base[t] + i) names an event, a seq its place in the order (event-order.ts: usually nothing is
// kept per event for it).
import type { LineHitCounts, ProgramVariables, SourceFrame, SourceStatements, StatementLocation, StatementRef, StepKind } from '../../model/source-level';
import type { Timeline } from '../../model/timeline';
import { lowerBound } from '../../model/lower-bound';
import { anchorOf, eventOrder, threadOfId, type EventOrder } from './event-order';
import { probePlacer, type ProbePlacer } from '../probe-position';
import { threadListingOrder } from '../../model/thread-order';
import { Column } from '../../model/int-column';
import { LineArrivals } from './line-arrivals';
import { KIND_ENTRY, KIND_EXIT, KIND_RETURN, KIND_STATEMENT, rowCodes, type RowCodes } from './row-codes';
import type { StatementTable } from './instrument';
import type { PrintedRun } from './run-template';
import type { TakenEvents } from './happens-before';

export interface StatementProbe {
  thread: number;
  /** The statement number the probe local was set to. */
  statement: number;
  /** `@opP` as printed. */
  op: number;
}

export interface ThreadStatements {
  thread: number;
  /** Statement number of each event, in the order the thread executed them. */
  statements: Uint16Array | Uint32Array;
  /** How many of the thread's own schedule ops had completed before each event. */
  ownOps: Uint32Array;
  /** The frame each event ran in (an index into the frame columns). */
  frames: Int32Array;
  /** Function (StatementTable.functions index) of each frame. */
  frameFunction: Uint16Array | Uint32Array;
  /** The caller's event that made each frame's call (the caller's statement), or -1 for a thread's first frame. */
  frameCall: Int32Array;
  /** Frames below each frame: 0 for the thread's first. */
  frameDepth: Uint32Array;
  /** Step numbers of the thread's own ops, ascending (the ProbePlacer's, shared). */
  ownOpIndices: Uint32Array;
  /** Events whose function was not the current frame's: the walk was repaired there (0 when the probes are a valid walk). */
  repairs: number;
  /** How many of the first events surely ran (machin prints them in every replay); the rest are this replay's only. */
  sure: number;
  /** No event is placed before this position: that of the `go` that started the goroutine (the panic's, for a panicking goroutine with no op of its own). */
  floor: number;
}

const NO_EVENTS = 0;

export class StatementIndex implements SourceStatements {
  /** By thread index; undefined for a thread that ran no statement. */
  readonly threads: Array<ThreadStatements | undefined>;
  readonly eventCount: number;
  /** Events of this replay only: machin may not print them in another (after their thread's `sure`). */
  readonly unsure: number;
  /** base[t]: global id of thread t's first event; base[T] = eventCount. */
  private readonly base: Uint32Array;
  /** Which event comes at which seq. */
  private readonly order: EventOrder;
  /**
   * Each thread's rank among events placed at the same position: parents before children (the
   * threads' listing order, `0` < `0.1` < `0.1.1` < `0.2`), so a goroutine's `go` comes before the
   * first statements of the goroutine it starts.
   */
  private readonly rank: Uint32Array;
  private readonly byRank: number[];
  private readonly placer: ProbePlacer;
  private breakable: number[] | null = null;
  private scratchBytes: Uint8Array | null = null;
  private counts: LineHitCounts | null = null;
  private arrivalRule: LineArrivals | null = null;
  /** The variables each function binds (read from the program by the enrichment), null when not known. */
  variables: ProgramVariables | null = null;

  constructor(
    readonly table: StatementTable,
    readonly file: string,
    private readonly tl: Timeline,
    threads: Array<ThreadStatements | undefined>,
    /** The order listed by seq whatever the threads (tests compare the two ways: event-order.ts). */
    listedOrder = false,
  ) {
    this.threads = threads;
    this.unsure = threads.reduce((n, g) => n + (g ? g.statements.length - g.sure : 0), 0);
    this.placer = probePlacer(tl);
    this.base = new Uint32Array(threads.length + 1);
    for (let t = 0; t < threads.length; t++) this.base[t + 1] = this.base[t] + (threads[t]?.statements.length ?? NO_EVENTS);
    this.eventCount = this.base[threads.length];
    const listed = threadListingOrder(tl.threads);
    this.byRank = [...listed, ...Array.from({ length: Math.max(0, threads.length - listed.length) }, (_, i) => listed.length + i)];
    this.rank = new Uint32Array(threads.length);
    this.byRank.forEach((t, k) => t < threads.length && (this.rank[t] = k));
    this.order = eventOrder(threads, this.base, this.byRank, this.rank, tl.stepCount, listedOrder);
  }

  /** Builds the index from probes in the order machin printed them (each thread's own in its order). */
  static build(table: StatementTable, file: string, tl: Timeline, probes: Iterable<StatementProbe>, sure?: (thread: number) => number): StatementIndex {
    const b = new StatementIndexBuilder(table, file, tl);
    for (const p of probes) b.add(p.thread, p.statement, p.op);
    if (sure) for (let t = 0; t < tl.threads.length; t++) b.setSure(t, sure(t));
    return b.finish();
  }

  /** Bytes held by the index's typed arrays (the own-op lists are the ProbePlacer's, not counted), for the benchmark. */
  byteLength(): number {
    let n = this.base.byteLength + this.order.byteLength;
    for (const g of this.threads) {
      if (!g) continue;
      n += g.statements.byteLength + g.ownOps.byteLength + g.frames.byteLength;
      n += g.frameFunction.byteLength + g.frameCall.byteLength + g.frameDepth.byteLength;
    }
    return n;
  }

  eventsOf(thread: number): number {
    return this.threads[thread]?.statements.length ?? 0;
  }

  isSure(thread: number, event: number): boolean {
    const g = this.threads[thread];
    return !!g && event < g.sure;
  }

  sureEventsOf(thread: number): number {
    return this.threads[thread]?.sure ?? 0;
  }

  location(thread: number, event: number): StatementLocation {
    const g = this.need(thread, event);
    const row = this.table.rows[g.statements[event] - 1];
    const fn = this.table.functions[row.fn].name;
    const loc: StatementLocation = { file: this.file, line: row.line, column: row.column, endLine: row.endLine, endColumn: row.endColumn, kind: row.kind, function: fn };
    if (row.op) loc.op = row.op;
    return loc;
  }

  stack(thread: number, event: number): SourceFrame[] {
    const g = this.need(thread, event);
    const frames: SourceFrame[] = [];
    for (let e = event; e >= 0; e = g.frameCall[g.frames[e]]) frames.push({ ...this.location(thread, e), event: e });
    return frames;
  }

  depth(thread: number, event: number): number {
    const g = this.need(thread, event);
    return g.frameDepth[g.frames[event]];
  }

  seqOf(thread: number, event: number): number {
    const g = this.need(thread, event);
    const a = anchorOf(g, event);
    return this.order.seqOf(thread, event, this.base[thread] + event, a);
  }

  eventAt(seq: number): StatementRef {
    if (!(seq >= 0 && seq < this.eventCount)) throw new RangeError(`no statement event ${seq} (there are ${this.eventCount})`);
    const id = this.order.idAt(seq);
    const thread = this.threadOfId(id);
    return { thread, event: id - this.base[thread] };
  }

  currentEvent(thread: number, seq: number): number {
    const g = this.threads[thread];
    if (!g || seq < 0) return -1;
    const last = Math.min(seq, this.eventCount - 1);
    const id = this.order.idAt(last);
    const tid = this.threadOfId(id);
    const a = anchorOf(this.threads[tid]!, id - this.base[tid]);
    const base = this.base[thread];
    // events of t placed before (a, id) or at it
    return lowerBound(0, g.ownOps.length, (i) => {
      const ai = anchorOf(g, i);
      return ai < a || (ai === a && (thread === tid ? base + i <= id : this.rank[thread] < this.rank[tid]));
    }) - 1;
  }

  positionOf(thread: number, event: number): number {
    return anchorOf(this.need(thread, event), event);
  }

  seqAtPosition(position: number): number {
    return this.order.countBefore(position);
  }

  currentEventAtRecord(thread: number, record: number): number {
    if (record < 0) return -1;
    return this.currentEvent(thread, this.seqAtPosition(this.tl.positionOf(record)) - 1);
  }

  recordBefore(thread: number, event: number): number {
    return this.tl.frontier(this.positionOf(thread, event)) - 1;
  }

  stepTarget(thread: number, event: number, kind: StepKind): number {
    const g = this.threads[thread];
    if (!g) return -1;
    const n = g.statements.length;
    const back = kind === 'backOver' || kind === 'backInto' || kind === 'backOut';
    if (event < 0 || event >= n) {
      // Before the first event only forward steps go anywhere, and every one is an into.
      return event < 0 && !back ? this.nextStop(g, -1, 1, null, false) : -1;
    }
    const dir = back ? -1 : 1;
    if (kind === 'into' || kind === 'backInto') return this.nextStop(g, event, dir, null, false);
    // The frames on the stack at `event`, by depth: a target must be one of them (out: a caller).
    const chain: number[] = [];
    for (let f = g.frames[event]; f >= 0; f = g.frameCall[f] >= 0 ? g.frames[g.frameCall[f]] : -1) chain.push(f);
    chain.reverse();
    return this.nextStop(g, event, dir, chain, kind === 'out' || kind === 'backOut');
  }

  /** The next (dir 1) or previous (-1) event that is not an entry, in a frame of `chain` when given (below its top when `callerOnly`). */
  private nextStop(g: ThreadStatements, from: number, dir: 1 | -1, chain: number[] | null, callerOnly: boolean): number {
    const rows = this.table.rows;
    const top = chain ? chain.length - 1 : 0;
    for (let j = from + dir; j >= 0 && j < g.statements.length; j += dir) {
      if (rows[g.statements[j] - 1].kind === 'entry') continue;
      if (!chain) return j;
      const f = g.frames[j];
      const d = g.frameDepth[f];
      if (d < chain.length && chain[d] === f && (d < top || (!callerOnly && d === top))) return j;
    }
    return -1;
  }

  breakableLines(): number[] {
    if (!this.breakable) {
      const lines = new Set<number>();
      for (const r of this.table.rows) if (r.kind === 'statement' || r.kind === 'return') lines.add(r.line);
      this.breakable = [...lines].sort((a, b) => a - b);
    }
    return this.breakable;
  }

  lineHits(line: number, column?: number): Uint32Array {
    const rows = this.table.rows;
    const on = new Uint8Array(rows.length + 1);
    let any = false;
    const only = column === undefined ? 0 : (this.statementAt(line, column)?.id ?? 0);
    for (const r of rows) {
      if (r.line !== line || (r.kind !== 'statement' && r.kind !== 'return') || (only && r.id !== only)) continue;
      on[r.id] = 1;
      any = true;
    }
    if (!any) return new Uint32Array(0);
    // Hits marked by global id, then read off in seq order: one pass over `order`, no search per hit.
    const hit = this.scratch();
    const arrivals = this.arrivals();
    let count = 0;
    for (let t = 0; t < this.threads.length; t++) {
      const g = this.threads[t];
      if (!g) continue;
      // Per frame: the statement of its last event that was not an entry (0: none yet), and whether that event was an arrival.
      const last = new Uint32Array(g.frameFunction.length);
      const arrived = new Uint8Array(g.frameFunction.length);
      for (let i = 0; i < g.statements.length; i++) {
        const s = g.statements[i];
        const row = rows[s - 1];
        if (row.kind === 'entry') continue;
        const f = g.frames[i];
        const prev = last[f];
        last[f] = s;
        // With a column: every run of that one statement is a hit (an inline breakpoint).
        const arrival = row.kind !== 'exit' && (only ? s === only : arrivals.is(prev, s, arrived[f] === 1));
        arrived[f] = arrival ? 1 : 0;
        if (on[s] && arrival) {
          hit[this.base[t] + i] = 1;
          count++;
        }
      }
    }
    const hits = new Uint32Array(count);
    let k = 0;
    if (count > 0) {
      this.order.forEachRun((from, to, seq) => {
        for (let id = from; id < to; id++) {
          if (hit[id]) {
            hits[k++] = seq + (id - from);
            hit[id] = 0;
          }
        }
      });
    }
    return hits;
  }

  /**
   * The statement a column of a line names (an inline breakpoint): the last statement starting on
   * the line at or before the column, else the line's first; null when no statement starts on the line.
   */
  statementAt(line: number, column: number): { id: number; column: number } | null {
    let best = 0;
    let first = 0;
    for (const r of this.table.rows) {
      if (r.line !== line || (r.kind !== 'statement' && r.kind !== 'return')) continue;
      if (!first || r.column < this.table.rows[first - 1].column) first = r.id;
      if (r.column <= column && (!best || r.column >= this.table.rows[best - 1].column)) best = r.id;
    }
    const id = best || first;
    return id ? { id, column: this.table.rows[id - 1].column } : null;
  }

  private arrivals(): LineArrivals {
    if (!this.arrivalRule) this.arrivalRule = new LineArrivals(this.table.rows);
    return this.arrivalRule;
  }

  /** A zeroed byte per event, shared by the queries (each leaves it zeroed). */
  private scratch(): Uint8Array {
    if (!this.scratchBytes) this.scratchBytes = new Uint8Array(this.eventCount);
    return this.scratchBytes;
  }

  lineHitCounts(): LineHitCounts {
    // Once per index: the events never change.
    if (!this.counts) this.counts = this.countLineHits();
    return this.counts;
  }

  private countLineHits(): LineHitCounts {
    const rows = this.table.rows;
    const lines = this.breakableLines();
    const slot = new Map(lines.map((l, k) => [l, k]));
    const fns = lines.map(() => new Set<string>());
    // By statement id: its line's index in `lines`, -1 for entries and exits (no arrival).
    const rowSlot = new Int32Array(rows.length + 1).fill(-1);
    for (const r of rows) {
      if (r.kind !== 'statement' && r.kind !== 'return') continue;
      rowSlot[r.id] = slot.get(r.line)!;
      fns[rowSlot[r.id]].add(this.table.functions[r.fn].name);
    }
    const byThread: Uint32Array[] = [];
    const thisReplayOnly: Array<Map<number, number>> = [];
    // Arrivals per (line, function) pair (one-line functions put several functions on a line).
    const pairOf = new Map<string, number>();
    const pairs: Array<{ k: number; fn: string }> = [];
    const rowPair = new Int32Array(rows.length + 1).fill(-1);
    for (const r of rows) {
      if (rowSlot[r.id] < 0) continue;
      const name = this.table.functions[r.fn].name;
      const key = `${rowSlot[r.id]}\u0000${name}`;
      if (!pairOf.has(key)) {
        pairOf.set(key, pairs.length);
        pairs.push({ k: rowSlot[r.id], fn: name });
      }
      rowPair[r.id] = pairOf.get(key)!;
    }
    const pairCounts = new Uint32Array(pairs.length);
    const arrivals = this.arrivals();
    for (let t = 0; t < this.threads.length; t++) {
      const g = this.threads[t];
      const counts = new Uint32Array(g ? lines.length : 0);
      const tail = new Map<number, number>();
      byThread.push(counts);
      thisReplayOnly.push(tail);
      if (!g) continue;
      // The same arrival rule as lineHits (line-arrivals.ts), per frame.
      const last = new Uint32Array(g.frameFunction.length);
      const arrived = new Uint8Array(g.frameFunction.length);
      for (let i = 0; i < g.statements.length; i++) {
        const s = g.statements[i];
        const row = rows[s - 1];
        if (row.kind === 'entry') continue;
        const f = g.frames[i];
        const prev = last[f];
        last[f] = s;
        const k = rowSlot[s];
        const arrival = k >= 0 && arrivals.is(prev, s, arrived[f] === 1);
        arrived[f] = arrival ? 1 : 0;
        if (!arrival) continue;
        counts[k]++;
        pairCounts[rowPair[s]]++;
        if (i >= g.sure) tail.set(k, (tail.get(k) ?? 0) + 1);
      }
    }
    const byFunction = lines.map(() => new Map<string, number>());
    pairs.forEach((p, q) => {
      if (pairCounts[q]) byFunction[p.k].set(p.fn, pairCounts[q]);
    });
    return { lines, byThread, thisReplayOnly, functions: fns.map((f) => [...f]), byFunction };
  }

  performerOfStep(step: number): StatementRef | null {
    if (!(step >= 0 && step < this.tl.stepCount)) return null;
    const thread = this.tl.threadOfStep(step);
    const g = this.threads[thread];
    if (!g) return null;
    const k = this.placer.ownOpsBefore(thread, step);
    const event = lowerBound(0, g.ownOps.length, (i) => g.ownOps[i] <= k) - 1;
    return event < 0 ? null : { thread, event };
  }

  lastEvent(thread: number): number {
    return this.eventsOf(thread) - 1;
  }

  blockedIn(thread: number): ReturnType<SourceStatements['blockedIn']> {
    const last = this.lastEvent(thread);
    if (last < 0) return null;
    const g = this.threads[thread]!;
    // An op after the last event (its statements there were left out): it went on; not known where.
    if (g.ownOps[last] < this.placer.ownOps(thread).length) return null;
    const row = this.table.rows[g.statements[last] - 1];
    if (row.kind === 'exit' || row.kind === 'return') return null;
    const at = row.op ? row : row.next ? this.table.rows[row.next - 1] : null;
    if (!at?.op) return null;
    const fn = this.table.functions[at.fn].name;
    return { op: at.op, location: { file: this.file, line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn, kind: at.kind, function: fn } };
  }

  sameFrame(thread: number, name: string, stored: number, at: number): boolean {
    if (this.variables?.globals.has(name)) return true;
    const g = this.need(thread, at);
    // (-1: before the goroutine's first statement, in its first frame.)
    const f = g.frames[stored < 0 ? 0 : this.storedBy(thread, stored)];
    return f === g.frames[at] || this.table.functions[g.frameFunction[f]].parent !== null;
  }

  localsOf(fn: string): readonly string[] | null {
    const locals = this.variables?.locals;
    if (!locals) return null;
    const k = this.table.functions.findIndex((f) => f.name === fn);
    if (k < 0) return null;
    // A function literal sees its own and, captured, its enclosing functions' variables.
    const names: string[] = [];
    for (let f: number | null = k; f !== null; f = this.table.functions[f].parent) {
      for (const n of locals.get(this.table.functions[f].name) ?? []) if (!names.includes(n)) names.push(n);
    }
    for (const n of this.variables!.globals) if (!names.includes(n)) names.push(n);
    return names;
  }

  ownerOf(thread: number, name: string, stored: number): string | null {
    const vars = this.variables;
    if (!vars) return null;
    if (vars.globals.has(name)) return '';
    const g = this.need(thread, Math.max(0, stored));
    const fns = this.table.functions;
    // The storing frame's function, else the enclosing function that binds the name (a closure).
    const own = g.frameFunction[g.frames[stored < 0 ? 0 : this.storedBy(thread, stored)]];
    for (let f: number | null = own; f !== null; f = fns[f].parent) if (vars.locals.get(fns[f].name)?.includes(name)) return fns[f].name;
    return fns[own].name;
  }

  storedBy(thread: number, event: number): number {
    const g = this.need(thread, event);
    let e = event;
    for (;;) {
      const kind = this.table.rows[g.statements[e] - 1].kind;
      const caller = g.frameCall[g.frames[e]];
      if ((kind !== 'return' && kind !== 'exit') || caller < 0) return e;
      e = caller;
    }
  }

  private threadOfId(id: number): number {
    return threadOfId(this.base, id);
  }

  private need(thread: number, event: number): ThreadStatements {
    const g = this.threads[thread];
    if (!g || !(event >= 0 && event < g.statements.length)) throw new RangeError(`thread ${thread} has no statement event ${event} (it has ${g?.statements.length ?? 0})`);
    return g;
  }
}

/** Builds a StatementIndex from probes fed one by one (each thread's own in the order it ran them). */
export class StatementIndexBuilder {
  private readonly threads: Array<ThreadBuilder | undefined> = [];
  private readonly placer: ProbePlacer;
  private readonly sure = new Map<number, number>();
  private panicFloor: { thread: number; position: number } | null = null;

  constructor(
    private readonly table: StatementTable,
    private readonly file: string,
    private readonly tl: Timeline,
  ) {
    this.placer = probePlacer(tl);
  }

  /** Adds one statement probe of thread t (a thread of the timeline); returns its event index. */
  add(thread: number, statement: number, op: number): number {
    const b = this.threadBuilder(thread);
    return b.add(statement, b.ownOpsBefore(Math.min(op, this.tl.stepCount)));
  }

  /** Thread t's next n statements, ids[0, n), all printed at machin's `@op` (a statements-only run): as n adds, the op's place found once. */
  addRun(thread: number, ids: Int32Array, n: number, op: number): void {
    if (n === 0) return;
    this.add(thread, ids[0], op);
    const b = this.threads[thread]!;
    b.addRun(ids, 1, n, b.ownOpsBefore(Math.min(op, this.tl.stepCount)));
  }

  /** Thread t's next printed run (a statements-only copy's), all at machin's `@op`: by the run's template when it holds there. */
  addPrinted(thread: number, run: PrintedRun, op: number): void {
    const b = this.threadBuilder(thread);
    b.addPrinted(run, b.ownOpsBefore(Math.min(op, this.tl.stepCount)));
  }

  /** Thread t's builder, made at its first probe (t must be a thread of the timeline). */
  private threadBuilder(thread: number): ThreadBuilder {
    let b = this.threads[thread];
    if (!b) {
      if (!(thread >= 0 && thread < this.tl.threads.length)) throw new Error(`a statement probe of thread ${thread}, which the timeline does not have`);
      this.threads[thread] = b = new ThreadBuilder(this.table, this.placer.ownOps(thread));
    }
    return b;
  }

  /** Thread t's events so far, as what surely ran reads them (happens-before.ts), or null when it has none. */
  taken(thread: number): TakenEvents | null {
    return this.threads[thread]?.taken() ?? null;
  }

  /** Thread t will have n events (its columns are made that size at once). Before its first add. */
  expect(thread: number, n: number): void {
    if (!this.threads[thread] && thread >= 0 && thread < this.tl.threads.length) this.threads[thread] = new ThreadBuilder(this.table, this.placer.ownOps(thread), Math.max(1, n));
  }

  /** Thread t's first n events surely ran (happens-before.ts); the others are this replay's only. Unset: all sure. */
  setSure(thread: number, n: number): void {
    this.sure.set(thread, n);
  }

  /**
   * The goroutine that panicked: when it has no op of its own, its events are placed at the panic's
   * position (they ran between its `go` and its panic, with no op of its own to place them by), so
   * the stop made at the panic before the statements were known is the panicking statement's.
   */
  panicAt(thread: number, position: number): void {
    this.panicFloor = { thread, position };
  }

  /** Thread t's events so far. */
  eventsOf(thread: number): number {
    return this.threads[thread]?.length ?? 0;
  }

  finish(): StatementIndex {
    const n = Math.max(this.tl.threads.length, this.threads.length);
    const threads: Array<ThreadStatements | undefined> = new Array(n);
    // Parents before children: a child's floor is where its parent's `go` is placed.
    const listed = threadListingOrder(this.tl.threads);
    for (const t of [...listed, ...Array.from({ length: n - listed.length }, (_, i) => listed.length + i)]) {
      const b = this.threads[t];
      if (!b) continue;
      let floor = 0;
      const id = this.tl.threads[t]?.id ?? '';
      const dot = id.lastIndexOf('.');
      const parent = dot < 0 ? -1 : this.tl.threadIndex(id.slice(0, dot));
      const go = parent >= 0 && threads[parent] ? this.threads[parent]!.spawnAt[Number(id.slice(dot + 1)) - 1] : undefined;
      if (go !== undefined) floor = anchorOf(threads[parent]!, go);
      if (this.panicFloor?.thread === t && this.placer.ownOps(t).length === 0) floor = Math.max(floor, this.panicFloor.position);
      threads[t] = b.finish(t, Math.min(this.sure.get(t) ?? b.length, b.length), floor);
    }
    return new StatementIndex(this.table, this.file, this.tl, threads);
  }
}

class ThreadBuilder {
  private readonly statements: Column;
  private readonly ownOps: Column;
  private readonly frames: Column;
  private readonly frameFunction = new Column();
  private readonly frameCall = new Column();
  private readonly frameDepth = new Column();
  /** Open frames, innermost last. */
  private readonly stack: number[] = [];
  /** Per open frame: its latest event (the call site of a frame it enters). */
  private readonly latest: number[] = [];
  /** Per open frame: calls still to return before its return completes (-1: not returning; -2: returning, count not fixed). */
  private readonly awaiting: number[] = [];
  private repairs = 0;
  /** The event of each `go` statement, in the order it ran them (its j-th starts child `.j`). */
  readonly spawnAt: number[] = [];

  /** `expected`: how many events will come, when known (the columns are then made that size once, never doubled). */
  private readonly codes: RowCodes;

  constructor(
    private readonly table: StatementTable,
    private readonly ownOpIndices: Uint32Array,
    expected = 64,
  ) {
    this.codes = rowCodes(table);
    this.statements = new Column(expected, table.rows.length < 0x10000 ? Uint16Array : Int32Array);
    this.ownOps = new Column(expected);
    this.frames = new Column(expected);
    this.below = new Uint32Array(ownOpIndices.length + 1);
  }

  get length(): number {
    return this.statements.length;
  }

  /**
   * Room for n more events in the event columns. When they must grow, they grow to the events
   * this thread will have at its end as guessed from its own ops so far (a quarter more; at most
   * 16 times the events so far), so a long thread's columns grow a few times, not twenty:
   * room not written costs no memory, a copy does (int-column.ts).
   */
  private room(n: number): void {
    const need = this.statements.length + n;
    if (need > this.statements.capacity) this.grow([this.statements, this.ownOps, this.frames], need);
  }

  /** Room for m more frames (as room, for the frame columns). */
  private frameRoom(m: number): void {
    const need = this.frameFunction.length + m;
    if (need > this.frameFunction.capacity) this.grow([this.frameFunction, this.frameCall, this.frameDepth], need);
  }

  private grow(columns: Column[], need: number): void {
    const guess = Math.ceil(((need * (this.ownOpIndices.length + 1)) / (this.k + 1)) * 1.25);
    const capacity = Math.max(need, columns[0].capacity * 2, Math.min(guess, need * 16));
    for (const c of columns) c.ensure(capacity);
  }

  private k = 0;

  /**
   * How many own ops are among the first p of the trace. A goroutine's probes come in its own
   * order and machin's counter never goes back, so this walks forward from the last answer
   * (a binary search, should a counter ever go back).
   */
  ownOpsBefore(p: number): number {
    const own = this.ownOpIndices;
    let k = this.k;
    if (k > 0 && own[k - 1] >= p) k = lowerBound(0, k, (i) => own[i] < p);
    while (k < own.length && own[k] < p) k++;
    if (this.belowLength <= k) {
      // (the events so far ran below every count of own ops up to k)
      this.below.fill(this.statements.length, this.belowLength, k + 1);
      this.belowLength = k + 1;
    }
    return (this.k = k);
  }

  /**
   * below[k], k < belowLength: how many events were added with fewer than k own ops done (what
   * surely ran reads it: TakenEvents). Made for every count of own ops at once: written as the
   * thread runs, the rest costs no memory.
   */
  private readonly below: Uint32Array;
  private belowLength = 1;

  add(statement: number, ownOps: number): number {
    const r = statement - 1;
    const codes = this.codes;
    if (!(r >= 0 && r < codes.kind.length)) throw new Error(`probe for statement ${statement}, which the statement table does not have`);
    const kind = codes.kind[r];
    const fn = codes.fn[r];
    if (kind === KIND_ENTRY) {
      this.push(fn);
    } else {
      // A frame whose return has run and whose calls have all returned is done before any
      // statement of its caller.
      while (this.stack.length > 0 && this.awaiting[this.awaiting.length - 1] === -2) this.pop();
      if (this.stack.length === 0 || this.frameFunction.get(this.top()) !== fn) {
        this.repairs++;
        while (this.stack.length > 0 && this.frameFunction.get(this.top()) !== fn) this.pop();
        if (this.stack.length === 0) this.push(fn);
      }
    }
    const event = this.statements.length;
    this.room(1);
    if (codes.spawns[r]) this.spawnAt.push(event);
    this.statements.push(statement);
    this.ownOps.push(ownOps);
    const top = this.top();
    this.frames.push(top);
    this.latest[this.latest.length - 1] = event;
    if (kind === KIND_EXIT || (kind === KIND_RETURN && codes.returnCalls[r] === 0)) this.pop();
    else if (kind === KIND_RETURN) this.awaiting[this.awaiting.length - 1] = codes.returnCalls[r] < 0 ? -2 : codes.returnCalls[r];
    return event;
  }

  /**
   * ids[from, n), each with `ownOps` done: as adds, but a stretch of plain statements of the top
   * frame's function (no entry, return, end or `go`, the frame not returning) is written at once.
   */
  addRun(ids: Int32Array, from: number, n: number, ownOps: number): void {
    const { kind, fn, spawns } = this.codes;
    let k = from;
    while (k < n) {
      const depth = this.stack.length;
      if (depth > 0 && this.awaiting[depth - 1] !== -2) {
        const top = this.stack[depth - 1];
        const topFn = this.frameFunction.get(top);
        let j = k;
        for (; j < n; j++) {
          const r = ids[j] - 1;
          if (!(r >= 0 && r < kind.length) || kind[r] !== KIND_STATEMENT || fn[r] !== topFn || spawns[r] !== 0) break;
        }
        const m = j - k;
        if (m > 0) {
          this.room(m);
          const at = this.statements.length;
          const statements = this.statements.reserve(m);
          const own = this.ownOps.reserve(m);
          const frames = this.frames.reserve(m);
          for (let i = 0; i < m; i++) {
            statements[at + i] = ids[k + i];
            own[at + i] = ownOps;
            frames[at + i] = top;
          }
          this.statements.length = this.ownOps.length = this.frames.length = at + m;
          this.latest[this.latest.length - 1] = at + m - 1;
          k = j;
          continue;
        }
      }
      this.add(ids[k++], ownOps);
    }
  }

  /**
   * A printed run, each statement with `ownOps` done: when the top frame is not returning and the
   * run's template for its function holds (run-template.ts), its events and the frames it enters
   * are written from the template at once; else statement by statement (addRun).
   */
  addPrinted(run: PrintedRun, ownOps: number): void {
    const ids = run.ids;
    const n = ids.length;
    const depth = this.stack.length;
    if (depth === 0 || this.awaiting[depth - 1] !== -1) return this.addRun(ids, 0, n, ownOps);
    const top = this.stack[depth - 1];
    const t = run.templateIn(this.frameFunction.get(top), this.codes);
    if (!t.ok) return this.addRun(ids, 0, n, ownOps);
    this.room(n);
    const at = this.statements.length;
    const statements = this.statements.reserve(n);
    const own = this.ownOps.reserve(n);
    const frames = this.frames.reserve(n);
    const first = this.frameFunction.length; // (the id the run's first entered frame gets)
    const rel = t.frame;
    // (one loop, no set or fill: a run is a few statements, and a call into the runtime costs more)
    for (let i = 0; i < n; i++) {
      statements[at + i] = ids[i];
      own[at + i] = ownOps;
      const k = rel[i];
      frames[at + i] = k === 0 ? top : first + k - 1;
    }
    this.statements.length = this.ownOps.length = this.frames.length = at + n;
    const m = t.newFn.length;
    if (m > 0) {
      this.frameRoom(m);
      const before = this.latest[depth - 1];
      const d0 = this.frameDepth.get(top);
      for (let j = 0; j < m; j++) {
        this.frameFunction.push(t.newFn[j]);
        const call = t.newCall[j];
        this.frameCall.push(call < 0 ? before : at + call);
        this.frameDepth.push(d0 + t.newDepth[j]);
      }
    }
    if (t.lastInStart >= 0) this.latest[depth - 1] = at + t.lastInStart;
    for (let j = 0; j < t.spawns.length; j++) this.spawnAt.push(at + t.spawns[j]);
  }

  /** The events so far, as what surely ran reads them. */
  taken(): TakenEvents {
    return { count: this.length, below: this.below.subarray(0, this.belowLength), spawnAt: this.spawnAt };
  }

  private top(): number {
    return this.stack[this.stack.length - 1] ?? -1;
  }

  private push(fn: number): void {
    this.frameRoom(1);
    const id = this.frameFunction.length;
    const caller = this.top();
    this.frameFunction.push(fn);
    this.frameCall.push(caller >= 0 ? this.latest[this.latest.length - 1] : -1);
    this.frameDepth.push(caller >= 0 ? this.frameDepth.get(caller) + 1 : 0);
    this.stack.push(id);
    this.latest.push(-1);
    this.awaiting.push(-1);
  }

  /** Pops the top frame; a caller whose return was waiting for this call is popped when it was the last. */
  private pop(): void {
    this.stack.pop();
    this.latest.pop();
    this.awaiting.pop();
    const n = this.awaiting.length - 1;
    if (n >= 0 && this.awaiting[n] > 0 && --this.awaiting[n] === 0) this.pop();
  }

  finish(thread: number, sure: number, floor: number): ThreadStatements {
    return {
      thread,
      statements: this.statements.narrow(this.table.rows.length),
      ownOps: this.ownOps.uint32(),
      frames: this.frames.int32(),
      frameFunction: this.frameFunction.narrow(this.table.functions.length),
      frameCall: this.frameCall.int32(),
      frameDepth: this.frameDepth.uint32(),
      ownOpIndices: this.ownOpIndices,
      repairs: this.repairs,
      sure,
      floor,
    };
  }
}
