// Which statement events surely ran: the ones machin prints in every replay of the trace. A
// replay's process ends when the goroutine that ends the run ends (the one that panicked, else
// main); what another goroutine runs after that point races with the exit. An event surely ran
// when it happens before the run's end (docs/source-level.md, "What is sure"):
//
// - the ender ran every statement up to its panic (or main up to its return);
// - program order: a goroutine's events before one of its sure events, or before one of its
//   schedule ops that surely completed;
// - the schedule is a total order machin enforces (an op waits its turn: mfl_rr_enter), so when
//   op s surely completed, so did every op before it: the sure ops are a prefix of the trace;
// - a sure event makes the ops its goroutine completed before it sure;
// - a `go` happens before every event of the goroutine it started: when the child did anything
//   sure, the parent's statements up to that `go` are sure (machin numbers a goroutine's children
//   in the order it runs its `go` statements: `0.1.2` is the one 0.1's second `go` started);
// - a send happens before the receive that takes its value. machin 0.137.0's sends never block
//   (a channel is an unbounded queue, mfl_chan_send), so a send's op completes, and is recorded,
//   before the receive that takes its value: the prefix rule already makes every send before a
//   sure receive sure, with the sender's statements up to it.
// These are applied until nothing changes. Everything else machin printed in this replay is kept
// too, marked "this replay only" (a tail of each goroutine's events).
import type { Timeline } from '../../model/timeline';
import { lowerBound } from '../../model/lower-bound';
import { probePlacer } from '../probe-position';
import type { StatementTable } from './instrument';
import { rowCodes } from './row-codes';
import type { ChunkedColumn } from '../../model/chunked-column';

/** A replay's statement probes as the parse keeps them (statement-replay.ts StatementProbes). */
export interface ProbeColumns {
  goroutines: readonly string[];
  goroutine: ChunkedColumn;
  statement: ChunkedColumn;
  op: ChunkedColumn;
}

export interface SureEvents {
  /** The goroutines' ids, by their index here (the replay's order of first probe). */
  goroutines: readonly string[];
  /** By goroutine (its index in probes.goroutines): how many of its first events surely ran. */
  sure: Uint32Array;
  /** By goroutine: how many events this replay printed. */
  count: Uint32Array;
  /** How many schedule ops surely completed before the run ended (a prefix of the trace). */
  sureOps: number;
  /** The goroutine that ends the run (by its index in probes.goroutines): all it printed is sure. -1: none printed, or a deadlock (then all is sure). */
  ender: number;
  deadlock: boolean;
}

const NONE = new Uint32Array(0);

/** A goroutine's events as the index builder took them: how many, how many ran below each count of its own ops (SureEventsReader's `below`), its `go`s' events. */
export interface TakenEvents {
  count: number;
  below: Uint32Array;
  spawnAt: number[];
}

/**
 * The events of each goroutine that surely ran. `ender`: the id of the goroutine whose end ends
 * the run (the one that panicked, else `0`); null for a deadlock, where every goroutine is
 * blocked and every probe was printed.
 */
export function sureEvents(probes: ProbeColumns, table: StatementTable, tl: Timeline, ender: string | null): SureEvents {
  const acc = new SureEventsReader(table, tl);
  for (const id of probes.goroutines) acc.goroutine(id);
  for (let chunk = 0; chunk < probes.goroutine.chunkCount; chunk++) {
    const goroutine = probes.goroutine.chunk(chunk);
    const statement = probes.statement.chunk(chunk);
    const op = probes.op.chunk(chunk);
    for (let k = 0; k < goroutine.length; k++) acc.add(goroutine[k], statement[k], op[k]);
  }
  return acc.finish(ender);
}

/**
 * sureEvents taken probe by probe, as machin prints them (StatementProbes.buildWhileReading):
 * what the rule needs of each goroutine's events is kept as they come (how many ran below each
 * count of its own ops, where its `go`s are), and the rule is applied at the end. A goroutine
 * whose events the index builder takes is not fed here: finish reads the same from the builder.
 */
export class SureEventsReader {
  private readonly placer;
  /** By goroutine (in order of `goroutine` calls): its id, its own ops. */
  private readonly ids: string[] = [];
  private readonly ops: Uint32Array[] = [];
  private readonly counts: number[] = [];
  /** below[g][k]: how many of g's events ran with fewer than k of its own ops completed. */
  private readonly below: Array<number[] | Uint32Array> = [];
  /** spawnAt[g][j]: the event of g's (j+1)-th `go`. */
  private readonly spawnAt: number[][] = [];
  private readonly cursor: number[] = [];

  /** By statement number - 1: 1 for a `go` statement. */
  private readonly spawns: Uint8Array;

  constructor(
    table: StatementTable,
    private readonly tl: Timeline,
  ) {
    this.placer = probePlacer(tl);
    this.spawns = rowCodes(table).spawns;
  }

  /** The next goroutine (its index is the count of those before). */
  goroutine(id: string): void {
    const t = this.tl.threadIndex(id);
    this.ids.push(id);
    this.ops.push(t < 0 ? NONE : this.placer.ownOps(t));
    this.counts.push(0);
    this.below.push([0]);
    this.spawnAt.push([]);
    this.cursor.push(0);
  }

  /** Goroutine g's next n statements, ids[0, n), all printed at machin's `@op` (a statements-only run): as n adds, the op's place found once. */
  addRun(g: number, ids: Int32Array, n: number, op: number): void {
    if (n === 0) return;
    this.add(g, ids[0], op);
    const spawns = this.spawns;
    for (let k = 1; k < n; k++) {
      if (spawns[ids[k] - 1] === 1) this.spawnAt[g].push(this.counts[g]);
      this.counts[g]++;
    }
  }

  /** Goroutine g's next statement probe: its statement and machin's `@op`. */
  add(g: number, statement: number, op: number): void {
    const own = this.ops[g];
    const p = Math.min(op, this.tl.stepCount);
    let c = this.cursor[g];
    // machin's counter never goes back within a goroutine; should it, search back.
    if (c > 0 && own[c - 1] >= p) c = lowerBound(0, c, (i) => own[i] < p);
    while (c < own.length && own[c] < p) c++;
    this.cursor[g] = c;
    const b = this.below[g] as number[]; // (a goroutine added here: not one the builder took)
    while (b.length <= c) b.push(this.counts[g]);
    if (this.spawns[statement - 1] === 1) this.spawnAt[g].push(this.counts[g]);
    this.counts[g]++;
  }

  /** `taken(g)`: goroutine g's events as the index builder took them, or null when they were fed here (add, addRun). */
  /** Goroutine g's events from the index builder: as if each had been added. */
  private takeFrom(g: number, events: TakenEvents): void {
    this.below[g] = events.below;
    this.spawnAt[g] = events.spawnAt;
    this.counts[g] = events.count;
  }

  finish(ender: string | null, taken: (g: number) => TakenEvents | null = () => null): SureEvents {
    const { ids, ops, below, spawnAt, tl, placer } = this;
    const n = ids.length;
    for (let g = 0; g < n; g++) {
      const events = taken(g);
      if (events) this.takeFrom(g, events);
    }
    const count = Uint32Array.from(this.counts);
    const sure = new Uint32Array(n);
    if (ender === null) {
      sure.set(count);
      return { goroutines: [...ids], sure, count, sureOps: tl.stepCount, ender: -1, deadlock: true };
    }
    const index = new Map(ids.map((id, g) => [id, g]));
    let sureOps = 0;
    const e = index.get(ender);
    if (e !== undefined) sure[e] = count[e];
    const enderThread = tl.threadIndex(ender);
    const enderOps = enderThread < 0 ? NONE : placer.ownOps(enderThread);
    if (enderOps.length > 0) sureOps = enderOps[enderOps.length - 1] + 1;

    const eventsBelow = (g: number, k: number) => (k < below[g].length ? below[g][k] : count[g]);
    const ownOpsAt = (g: number, event: number) => lowerBound(0, below[g].length, (k) => below[g][k] <= event) - 1;
    // Children before parents, so one pass carries a `go` up a chain of spawners.
    const order = [...ids.keys()].sort((a, b) => depth(ids[b]) - depth(ids[a]));
    for (let changed = true; changed; ) {
      changed = false;
      for (const g of order) {
        const own = ops[g];
        const v = eventsBelow(g, lowerBound(0, own.length, (i) => own[i] < sureOps));
        if (v > sure[g]) {
          sure[g] = v;
          changed = true;
        }
        if (sure[g] === 0 && !(own.length > 0 && own[0] < sureOps)) continue;
        const dot = ids[g].lastIndexOf('.');
        const parent = dot < 0 ? undefined : index.get(ids[g].slice(0, dot));
        const j = Number(ids[g].slice(dot + 1)) - 1;
        if (parent === undefined || !(j >= 0 && j < spawnAt[parent].length)) continue;
        if (spawnAt[parent][j] + 1 > sure[parent]) {
          sure[parent] = spawnAt[parent][j] + 1;
          changed = true;
        }
      }
      for (let g = 0; g < n; g++) {
        if (sure[g] === 0) continue;
        const k = ownOpsAt(g, sure[g] - 1);
        if (k > 0 && ops[g][k - 1] + 1 > sureOps) {
          sureOps = ops[g][k - 1] + 1;
          changed = true;
        }
      }
    }
    return { goroutines: [...ids], sure, count, sureOps, ender: e ?? -1, deadlock: false };
  }
}

/**
 * Whether a value machin printed surely is printed in every replay: printed by goroutine g after
 * its event `event` (its statement) with `ownOps` of its own ops completed. A value is stored after
 * its statement's probe, and maybe after the statement's op completed (a receive), so the
 * statement being sure is not enough: something sure must follow it in g's program order, its
 * next event or its next op. All the ender printed, and all of a deadlock, is sure.
 */
export function sureValue(sure: SureEvents, g: number, event: number, ownOps: number, ops: Uint32Array): boolean {
  if (sure.deadlock || g === sure.ender) return true;
  if (event + 1 < sure.sure[g]) return true;
  return ownOps < ops.length && ops[ownOps] < sure.sureOps;
}

function depth(id: string): number {
  let d = 0;
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) === 0x2e) d++;
  return d;
}
