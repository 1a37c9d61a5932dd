// One `machin replay --verify --print` against the instrumented copy answers two things: the
// statement probes (`fr_stmt0 = 13`) make the statement index, the program's variables make the
// value histories. machin prints a goroutine's probes in the order it ran them, so a value probe
// follows the statement probe of the statement that stored it: that event is kept with the value.
// The statement probes (over a million lines for a 1M-op run) are taken while machin's output is
// parsed (StatementProbes, a machin-output ProbeSink) into typed columns, never made objects.
import type { ProbeSink } from '../machin-output';
import { parseReplayOutput, type ReplayOutput } from '../machin-output';
import type { Timeline } from '../../model/timeline';
import type { ReplayRun } from '../run-replay';
import type { StatementTable } from './instrument';
import { StatementIndex, StatementIndexBuilder } from './statement-index';

/** A growable Uint32 column. */
class Column {
  data = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
}

/** The statement probes of one instrumented replay, in machin's order, and for each value probe the statement it followed. */
export class StatementProbes implements ProbeSink {
  readonly names: ReadonlySet<string>;
  /** Goroutine ids in order of first probe. */
  readonly goroutines: string[] = [];
  private readonly ids = new Map<string, number>();
  private lastGoroutine = '';
  private lastId = -1;
  readonly goroutine = new Column();
  readonly statement = new Column();
  readonly op = new Column();
  /** Statement probes so far per goroutine (by its index in `goroutines`). */
  private readonly counts: number[] = [];
  /** Per value probe (in ReplayOutput.probes order): the index among its goroutine's statement probes of the one it followed, -1 when none. */
  readonly valueAfter = new Column();
  /** A statement probe whose value was no statement number (never seen from machin). */
  bad: string | null = null;

  constructor(table: StatementTable) {
    this.names = new Set(table.probeNames);
  }

  /** Parses a replay's stderr, taking the statement probes here. */
  parse(stderr: string): ReplayOutput {
    return parseReplayOutput(stderr, this);
  }

  take(goroutine: string, value: number, op: number): void {
    if (!(Number.isInteger(value) && value >= 1)) {
      this.bad ??= `goroutine ${goroutine} printed ${value} for a statement probe`;
      return;
    }
    const g = this.idOf(goroutine);
    this.goroutine.push(g);
    this.statement.push(value);
    this.op.push(op);
    this.counts[g]++;
  }

  beforeValue(goroutine: string): void {
    // 0xffffffff for "none": stored unsigned, read back as -1
    this.valueAfter.push(this.counts[this.idOf(goroutine)] - 1);
  }

  private idOf(goroutine: string): number {
    if (goroutine === this.lastGoroutine) return this.lastId;
    let id = this.ids.get(goroutine);
    if (id === undefined) {
      id = this.goroutines.length;
      this.goroutines.push(goroutine);
      this.ids.set(goroutine, id);
      this.counts.push(0);
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

/**
 * Builds the index from the statement probes taken while the run was parsed. `ender`: the thread
 * whose end ends the run (the one that panicked, else main), -1 for a deadlock. A goroutine that is
 * no thread of the timeline has no op in the trace, so unless it is the ender (which is a thread:
 * the panic made it one) or the run deadlocked (then every goroutine must already be a thread:
 * merge-replay.ts addUnrecordedGoroutines), its statements race with the run's end and are left out.
 */
export function indexInstrumentedReplay(
  tl: Timeline,
  run: ReplayRun,
  probes: StatementProbes,
  table: StatementTable,
  file: string,
  valueNames: string[],
  ender: number,
): IndexedReplay {
  if (probes.bad) throw new Error(`the instrumented replay's statement probes are not statement numbers: ${probes.bad}`);
  const threadOf = Int32Array.from(probes.goroutines, (g) => tl.threadIndex(g));
  if (ender < 0 && threadOf.some((t) => t < 0)) throw new Error('a goroutine of the instrumented replay is not a thread of the timeline');
  const builder = new StatementIndexBuilder(table, file, tl, ender);
  const { goroutine, statement, op } = probes;
  for (let k = 0; k < goroutine.length; k++) builder.add(threadOf[goroutine.data[k]], statement.data[k], op.data[k]);
  // A value's event: the statement probe it followed, kept (left-out events are a tail of their
  // thread's, and a value after one is left out of the history too).
  const events = Int32Array.from(probes.valueAfter.data.subarray(0, probes.valueAfter.length));
  const threads = new Map(tl.threads.map((t, i) => [t.id, i]));
  const values = run.output.probes;
  let last = '';
  let t = -1;
  for (let j = 0; j < values.length; j++) {
    const g = values[j].goroutine;
    if (g !== last) {
      last = g;
      t = threads.get(g) ?? -1;
    }
    if (t < 0 || events[j] >= builder.eventsOf(t)) events[j] = -1;
  }
  const flags = valueNames.length > 0 ? ['--verify', '--print', valueNames.join(',')] : ['--verify'];
  return { index: builder.finish(), values: { ...run, flags, probeEvents: events } };
}
