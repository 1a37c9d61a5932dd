// The value histories of one `machin replay --print`, made as its values are placed: each value
// goes into the histories' columns with its place, and the values not surely printed by every
// replay are counted per goroutine for the one warning that names them. Filled value by value
// while the parse reads them (the values' replay at source level: source/statement-replay.ts,
// nothing per value kept besides the histories) or from a finished parse (merge-replay.ts).
import type { Timeline } from '../model/timeline';
import { ProbeHistoriesBuilder, type ProbeHistories } from '../model/probe-histories';
import { probePlacer } from './probe-position';
import type { ValuePlace } from './run-replay';

type Racing = Map<string, { names: Set<string>; count: number }>;

/** Why the values' placing is by ops alone (a replay without statements): who ends the run, and why the statements are not known. */
export interface RecordLevel {
  ender: number;
  statementsUnknown: string;
}

export class ValueHistoriesMaker {
  private readonly builder: ProbeHistoriesBuilder;
  /** Per goroutine id: the names of its values of this replay only, and how many. */
  private readonly racing: Racing = new Map();

  /** `watched`: the names asked for, listed even when machin printed no value of them. */
  constructor(watched: string[]) {
    this.builder = new ProbeHistoriesBuilder(watched.filter(Boolean));
  }

  /** The name's id for add (looked up once a name, not once a value). */
  nameId(name: string): number {
    return this.builder.nameId(name);
  }

  /**
   * A value of `goroutine` (thread `thread`), named by nameId(`name`), at `place` (its event, -2 or
   * less for none); its text, or (text null) the small integer machin printed.
   */
  add(goroutine: string, thread: number, name: number, place: ValuePlace, text: string | null, number: number): void {
    const event = place.event >= -1 ? place.event : undefined;
    if (text === null) this.builder.addInt(name, thread, place.position, number, event, !place.sure);
    else this.builder.addText(name, thread, place.position, text, event, !place.sure);
    if (place.sure) return;
    let r = this.racing.get(goroutine);
    if (!r) this.racing.set(goroutine, (r = { names: new Set(), count: 0 }));
    r.names.add(this.builder.nameOf(name));
    r.count++;
  }

  /**
   * The histories, and the warning for the values not printed by every replay: said as "this
   * replay only" with the statements known, as "not known to be sure" without them (`recordLevel`).
   */
  finish(tl: Timeline, warn: (code: string, message: string) => void, recordLevel: RecordLevel | null): ProbeHistories {
    if (this.racing.size > 0) {
      if (recordLevel) warn('values-not-known-sure', notKnownSureMessage(tl, this.racing, probePlacer(tl).ownOps(recordLevel.ender), recordLevel));
      else warn('values-this-replay-only', thisReplayOnlyMessage(tl, this.racing));
    }
    // machin prints goroutines' probes in the order they happened to run, which differs between
    // replays; within one goroutine the order is fixed. By position, then thread (each goroutine's
    // own order kept), every replay of a trace gives the same history.
    return this.builder.finish(true);
  }
}

/** The goroutines and variables of the marked values: `goroutine 0.1 boss: d, e (2); ...`. */
function listed(tl: Timeline, racing: Racing): string {
  const label = (g: string) => tl.threads[tl.threadIndex(g)]?.label;
  const parts = [...racing].slice(0, 8).map(([g, r]) => `goroutine ${g}${label(g) ? ` ${label(g)}` : ''}: ${[...r.names].slice(0, 6).join(', ')}${r.names.size > 6 ? ', ...' : ''} (${r.count})`);
  return parts.join('; ') + (racing.size > 8 ? `; and ${racing.size - 8} more goroutine(s)` : '');
}

/** The warning for values of this replay only, with the statements known: which goroutines, which variables, and why. */
function thisReplayOnlyMessage(tl: Timeline, racing: Racing): string {
  const why = 'they were stored after the last statement of their goroutine known to run before the run ended (nothing orders them before the panic or the end of main)';
  return `values printed by this replay only, shown marked "this replay only" (${listed(tl, racing)}): ${why}, so machin may not print them in another replay (docs/value-positions.md)`;
}

/**
 * Without the statements: which values are not known to be sure, and why it cannot be told. Only
 * ops are known then: those up to the ender's last one complete in every replay; what a goroutine
 * stored after its last such op may or may not happen before the end (a `go` or a send after it
 * could order it first), and only the statements could say.
 */
function notKnownSureMessage(tl: Timeline, racing: Racing, enderOps: Uint32Array, why: RecordLevel): string {
  const ender = tl.threads[why.ender];
  const who = ender ? `goroutine ${ender.id}${ender.label ? ` ${ender.label}` : ''}` : 'the goroutine that ends it';
  const sureOps = enderOps.length === 0
    ? `the run ends when ${who} ends, and it did no schedule op, so no op is known to complete in every replay`
    : `the run ends when ${who} ends, so the ops up to its last (op ${enderOps[enderOps.length - 1] + 1}/${tl.stepCount}) complete in every replay`;
  return `values not known to be printed by every replay (${listed(tl, racing)}): the program's statements are not known (${why.statementsUnknown}), and without them only the schedule ops order a value before the run's end: ${sureOps}; no such op orders these values before the end, and whether they happen before it cannot be told without the statements, so they are shown as this replay printed them, marked "this replay only" (docs/value-positions.md)`;
}
