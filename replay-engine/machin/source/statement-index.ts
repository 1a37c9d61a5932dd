// The statement index of one recording: for each goroutine, every statement it executed (from the
// instrumented replay's probes), where each one falls among that goroutine's own schedule ops, and
// the call stack at each one, in typed arrays (a 1M-op recording has millions of events).
//
// Placement: a probe's `@opP` is the global schedule counter when it ran, which other goroutines
// may have moved (toolchains/machin/README.md); what is fixed is how many of the goroutine's own
// ops had completed, and that is the number of its ops among the first P of the trace (its next
// op cannot have happened yet, its last one has). An event is placed after that many own ops.
//
// Frames: an entry event pushes a frame; an exit event (the end of a body) pops it; a return pops
// it once the calls its values make have returned (StatementRow.returnCalls), or, when that count
// is not fixed, at the goroutine's next event that is not an entry. Frames form a tree with parent
// links, so the stack at any event is a walk up from its frame.
import type { StatementTable } from './instrument';
import { lowerBound } from '../../model/lower-bound';

export interface StatementProbe {
  goroutine: string;
  /** The statement number the probe local was set to. */
  statement: number;
  /** `@opP` as printed. */
  op: number;
}

export interface GoroutineStatements {
  goroutine: string;
  /** Statement number of each event, in the order the goroutine executed them. */
  statements: Uint32Array;
  /** How many of the goroutine's own schedule ops had completed before each event. */
  ownOps: Uint32Array;
  /** The frame each event ran in (an index into frameFunction / frameParent). */
  frames: Int32Array;
  /** Function (StatementTable.functions index) of each frame. */
  frameFunction: Int32Array;
  /** Calling frame of each frame, or -1 for the goroutine's first. */
  frameParent: Int32Array;
  /** Global schedule indices of the goroutine's own ops, ascending. */
  ownOpIndices: Uint32Array;
  /** Events whose function was not the current frame's: the walk was repaired there (0 when the probes are a valid walk). */
  repairs: number;
}

export class StatementIndex {
  readonly goroutines = new Map<string, GoroutineStatements>();

  constructor(
    readonly table: StatementTable,
    probes: Iterable<StatementProbe>,
    /** The goroutine of each `S` record of the trace, in order. */
    schedule: readonly string[],
  ) {
    const opIndices = new Map<string, number[]>();
    schedule.forEach((g, i) => {
      let list = opIndices.get(g);
      if (!list) opIndices.set(g, (list = []));
      list.push(i);
    });
    const builders = new Map<string, GoroutineBuilder>();
    for (const p of probes) {
      let b = builders.get(p.goroutine);
      if (!b) builders.set(p.goroutine, (b = new GoroutineBuilder(table, Uint32Array.from(opIndices.get(p.goroutine) ?? []))));
      b.add(p);
    }
    for (const [g, b] of builders) this.goroutines.set(g, b.finish(g));
  }

  /** Bytes held by the typed arrays, for the benchmark's bytes per event. */
  byteLength(): number {
    let n = 0;
    for (const g of this.goroutines.values()) {
      n += g.statements.byteLength + g.ownOps.byteLength + g.frames.byteLength;
      n += g.frameFunction.byteLength + g.frameParent.byteLength + g.ownOpIndices.byteLength;
    }
    return n;
  }

  /** The call stack at event `i` of goroutine `g`, innermost first, as function names. */
  stackAt(goroutine: string, i: number): string[] {
    const g = this.goroutines.get(goroutine);
    if (!g || i < 0 || i >= g.frames.length) return [];
    const names: string[] = [];
    for (let f = g.frames[i]; f >= 0; f = g.frameParent[f]) names.push(this.table.functions[g.frameFunction[f]].name);
    return names;
  }

  /**
   * The global schedule index after which event `i` ran: the index of the goroutine's last own op
   * before it, or -1 when it ran before its goroutine's first op.
   */
  globalAfter(goroutine: string, i: number): number {
    const g = this.goroutines.get(goroutine);
    if (!g) return -1;
    const k = g.ownOps[i];
    return k === 0 ? -1 : g.ownOpIndices[k - 1];
  }
}

/** A growable Uint32/Int32 column: doubling, so building stays linear. */
class Column {
  private data: Int32Array;
  length = 0;
  constructor(initial = 64) {
    this.data = new Int32Array(initial);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, v: number): void {
    this.data[i] = v;
  }
  int32(): Int32Array {
    return this.data.slice(0, this.length);
  }
  uint32(): Uint32Array {
    return new Uint32Array(this.data.buffer.slice(0, this.length * 4));
  }
}

class GoroutineBuilder {
  private readonly statements = new Column();
  private readonly ownOps = new Column();
  private readonly frames = new Column();
  private readonly frameFunction = new Column();
  private readonly frameParent = new Column();
  /** Open frames, innermost last. */
  private readonly stack: number[] = [];
  /** Per open frame: calls still to return before its return completes (-1: not returning; -2: returning, count not fixed). */
  private readonly awaiting: number[] = [];
  private repairs = 0;

  constructor(
    private readonly table: StatementTable,
    private readonly ownOpIndices: Uint32Array,
  ) {}

  add(p: StatementProbe): void {
    const row = this.table.rows[p.statement - 1];
    if (!row) throw new Error(`probe for statement ${p.statement}, which the statement table does not have`);
    if (row.kind === 'entry') {
      this.push(row.fn);
    } else {
      // A frame whose return has run and whose calls have all returned is done before any
      // statement of its caller.
      while (this.stack.length > 0 && this.awaiting[this.awaiting.length - 1] === -2) this.pop();
      if (this.stack.length === 0 || this.frameFunction.get(this.top()) !== row.fn) {
        this.repairs++;
        while (this.stack.length > 0 && this.frameFunction.get(this.top()) !== row.fn) this.pop();
        if (this.stack.length === 0) this.push(row.fn);
      }
    }
    this.statements.push(p.statement);
    this.ownOps.push(countBelow(this.ownOpIndices, p.op));
    this.frames.push(this.top());
    if (row.kind === 'exit' || (row.kind === 'return' && row.returnCalls === 0)) this.pop();
    else if (row.kind === 'return') this.awaiting[this.awaiting.length - 1] = row.returnCalls ?? -2;
  }

  private top(): number {
    return this.stack[this.stack.length - 1] ?? -1;
  }

  private push(fn: number): void {
    const id = this.frameFunction.length;
    this.frameFunction.push(fn);
    this.frameParent.push(this.top());
    this.stack.push(id);
    this.awaiting.push(-1);
  }

  /** Pops the top frame; a caller whose return was waiting for this call is popped when it was the last. */
  private pop(): void {
    this.stack.pop();
    this.awaiting.pop();
    const n = this.awaiting.length - 1;
    if (n >= 0 && this.awaiting[n] > 0 && --this.awaiting[n] === 0) this.pop();
  }

  finish(goroutine: string): GoroutineStatements {
    return {
      goroutine,
      statements: this.statements.uint32(),
      ownOps: this.ownOps.uint32(),
      frames: this.frames.int32(),
      frameFunction: this.frameFunction.int32(),
      frameParent: this.frameParent.int32(),
      ownOpIndices: this.ownOpIndices,
      repairs: this.repairs,
    };
  }
}

/** How many values of the ascending array are below `p`. */
function countBelow(sorted: Uint32Array, p: number): number {
  return lowerBound(0, sorted.length, (i) => sorted[i] < p);
}
