// One `machin replay --verify --print` against the instrumented copy answers two things: the
// statement probes (`fr_stmt0 = 13`) make the statement index, the program's variables make the
// value histories. machin prints a goroutine's probes in the order it ran them, so a value probe
// follows the statement probe of the statement that stored it: that event is kept with the value.
import type { Timeline } from '../../model/timeline';
import type { ReplayRun } from '../run-replay';
import type { StatementTable } from './instrument';
import { StatementIndex, StatementIndexBuilder } from './statement-index';

export interface IndexedReplay {
  index: StatementIndex;
  /** The run with only the program variables' probes, each with the event that stored it (ReplayRun.probeEvents). */
  values: ReplayRun;
}

/**
 * Splits the instrumented run. `ender`: the thread whose end ends the run (the one that panicked,
 * else main), -1 for a deadlock. A goroutine that is no thread of the timeline has no op in the
 * trace, so unless it is the ender (which is a thread: the panic made it one) or the run
 * deadlocked (then every goroutine must already be a thread: merge-replay.ts
 * addUnrecordedGoroutines), its statements race with the run's end and are left out.
 */
export function indexInstrumentedReplay(tl: Timeline, run: ReplayRun, table: StatementTable, file: string, valueNames: string[], ender: number): IndexedReplay {
  const probeNames = new Set(table.probeNames);
  const threadOf = new Map(tl.threads.map((t, i) => [t.id, i]));
  const builder = new StatementIndexBuilder(table, file, tl, ender);
  const valueProbes: ReplayRun['output']['probes'] = [];
  const events: number[] = [];
  for (const p of run.output.probes) {
    const thread = threadOf.get(p.goroutine) ?? -1;
    if (thread < 0 && ender < 0) throw new Error(`goroutine ${p.goroutine} of the instrumented replay is not a thread of the timeline`);
    if (probeNames.has(p.name)) {
      const statement = Number(p.value);
      if (!Number.isInteger(statement) || statement < 1) throw new Error(`probe ${p.name} of goroutine ${p.goroutine} printed ${JSON.stringify(p.value)}, not a statement number`);
      builder.add(thread, statement, p.op);
    } else {
      valueProbes.push(p);
      events.push(thread < 0 ? -1 : builder.lastEvent(thread));
    }
  }
  const flags = valueNames.length > 0 ? ['--verify', '--print', valueNames.join(',')] : ['--verify'];
  const values: ReplayRun = { ...run, flags, output: { ...run.output, probes: valueProbes }, probeEvents: Int32Array.from(events) };
  return { index: builder.finish(), values };
}
