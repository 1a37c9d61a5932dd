// Merges the parsed outputs of `machin replay --json --verify --print` (one run, or several)
// into a recording: the panic (checked against the trace: same schedule total, causal chain =
// the first P `S` lines), the verify verdict and the value histories, each value placed by its
// goroutine's own completed ops (probe-position.ts). Disagreements become warnings.
import type { Recording } from '../model/recording';
import { opsUpToMainsLast } from '../model/run-facts';
import type { Timeline } from '../model/timeline';
import type { ReplayPanic } from './machin-output';
import type { ProbeHistories } from '../model/probe-histories';
import { probePlacer } from './probe-position';
import { probeColumns, type ReplayRun, type ValueColumns, type ValuePlace } from './run-replay';
import { ValueHistoriesMaker, type RecordLevel } from './value-histories';
import type { TraceCopy } from './trace-copy';

export interface MergeContext {
  copy: Pick<TraceCopy, 'scheduleTotal'>;
  machinVersion?: string;
  warn: (code: string, message: string) => void;
  /** A `--print` replay after the panic and verdict were merged: only its values are taken. */
  valuesOnly?: boolean;
  /**
   * Why the program's statements are not known, for values from a replay without them (source
   * level off, or unavailable and why): said in the warning for the values not known to be sure.
   */
  statementsUnknown?: string;
}

const KNOWN_VERSION = '0.137.0';

export function mergeReplay(rec: Recording, runs: ReplayRun[], ctx: MergeContext): void {
  const tl = rec.timeline;
  const { warn } = ctx;
  if (ctx.copy.scheduleTotal !== tl.stepCount) {
    warn('replay-mismatch', `the copy given to machin has ${ctx.copy.scheduleTotal} schedule ops but the trace as read has ${tl.stepCount}; machin's results may not line up with the timeline`);
  }
  addUnrecordedGoroutines(tl, runs, warn);
  let bestEffort = false;
  let panic: ReplayPanic | null = null;
  for (const run of runs) {
    const o = run.output;
    const what = `machin replay ${run.flags.filter((f) => f.startsWith('--')).join(' ')}`.trimEnd();
    bestEffort ||= o.bestEffort;
    if (o.failure) {
      const code = o.failure.kind === 'program-missing' ? 'program-missing' : 'toolchain-failed';
      warn(code, `${what} failed: ${firstLines(o.failure.message)}`);
    }
    if (o.deadlock) {
      const who = o.deadlock.blocked.map((b) => `${b.goroutine} ${b.waiting}`).join('; ');
      warn('replay-deadlock', `${what}: the replay deadlocked (all ${o.deadlock.goroutineCount} goroutines blocked${who ? `: ${who}` : ''}), so it left the recorded schedule`);
    }
    if (o.unknown.length > 0) {
      const version = ctx.machinVersion && ctx.machinVersion !== KNOWN_VERSION ? ` (machin ${ctx.machinVersion}; Frozen Run knows ${KNOWN_VERSION})` : '';
      warn('machin-output', `${what} printed what Frozen Run does not recognise${version}: ${firstLines(o.unknown.join('\n'))}`);
    }
    if (run.exitCode !== 0 && !o.panic && !o.failure && !o.deadlock) {
      warn('toolchain-failed', `${what} exited with code ${run.exitCode} without a panic or an error Frozen Run recognises`);
    }
    if (o.panic && (!panic || (panic.form === 'text' && o.panic.form === 'json'))) panic = o.panic;
    if (o.verify) {
      rec.verify = { ...o.verify, mainsLastOp: opsUpToMainsLast(tl) };
      if (o.verify.scheduleTotal !== tl.stepCount) {
        warn('replay-mismatch', `machin's verify counted ${o.verify.scheduleTotal} schedule ops; the trace has ${tl.stepCount}`);
      }
    }
    // Values from a run that ended as the program did (normally, a panic, a deadlock); not from a failed one.
    const ranProgram = !o.failure && (run.exitCode === 0 || o.panic !== null || o.deadlock !== null);
    const print = run.flags.indexOf('--print');
    if (print >= 0 && ranProgram) {
      // The goroutine whose end ends the run: the one that panicked, else main.
      const panicked = runs.find((r) => r.output.panic)?.output.panic?.goroutine ?? (rec.panic ? tl.threads[rec.panic.thread].id : null);
      const ender = o.deadlock ? -1 : tl.threadIndex(panicked ?? '0');
      const why = run.valuePlaces ? null : { ender, statementsUnknown: ctx.statementsUnknown ?? 'source level is off' };
      // Once read into the histories, the parse's columns go before the histories are ordered (at
      // 3.6M values, 130 MB that would otherwise be held beside the histories' own at the peak).
      const release = () => {
        run.valueColumns?.release?.();
        run.valueColumns = run.valuePlaces = undefined;
      };
      const made = run.valuesMade ?? new ValueHistoriesMaker((run.flags[print + 1] ?? '').split(','));
      run.valuesMade = undefined;
      rec.histories = historiesFrom(tl, run.valueColumns ?? probeColumns(o.probes), made, ender, warn, run.valuePlaces, why, release);
    }
  }
  if (ctx.valuesOnly) return;
  if (panic) mergePanic(rec, panic, warn);
  if (bestEffort && !rec.bestEffort) {
    markBestEffort(rec);
    warn('best-effort', 'machin says this trace is best-effort (the program uses FFI): its results may diverge from the recorded run');
  }
}

function mergePanic(rec: Recording, p: ReplayPanic, warn: MergeContext['warn']): void {
  const tl = rec.timeline;
  const n = tl.stepCount;
  if (p.scheduleTotal !== n) {
    warn('replay-mismatch', `machin counted ${p.scheduleTotal} schedule ops; the trace has ${n}: the panic position may not match the timeline`);
  }
  let reported = p.scheduleOp;
  if (reported > n) {
    warn('replay-mismatch', `machin places the panic after op ${p.scheduleOp}, past the trace's last op ${n}; shown at the end`);
    reported = n;
  }
  const thread = threadFor(tl, p.goroutine, warn);
  // machin's P is its global counter when the panic ran, which other goroutines may have moved
  // (it changes from replay to replay, like a probe's @op). Placed by the probe rule instead:
  // right after the panicking goroutine's own last completed op, the same in every replay. A
  // goroutine with no op of its own before the panic keeps machin's P.
  const position = panicStop(tl, thread, reported);
  const causalChain = tl.stepThreads(position);
  if (p.causalChain) {
    const k = firstDifference(tl, p.causalChain);
    if (p.causalChain.length !== Math.min(p.scheduleOp, n) || k >= 0) {
      warn(
        'replay-mismatch',
        k >= 0
          ? `machin's causal chain differs from the trace at op ${k} (machin: ${p.causalChain[k]}, trace: ${tl.threads[tl.threadOfStep(k)].id})`
          : `machin's causal chain has ${p.causalChain.length} ops, the trace has ${Math.min(p.scheduleOp, n)} before the panic`,
      );
    }
  }
  rec.panic = { message: p.message, thread, position, causalChain, source: 'machin' };
}

/**
 * Where a panic machin reports on thread t after its global counter read P is stopped at: right
 * after t's own last completed op among the first P (the same in every replay), machin's P when t
 * has no op of its own before it.
 */
export function panicStop(tl: Timeline, thread: number, p: number): number {
  const placer = probePlacer(tl);
  const reported = Math.min(p, tl.stepCount);
  return placer.ownOpsBefore(thread, reported) > 0 ? placer.place(thread, reported) : reported;
}

/** Index of the first op where the chain and the trace's `S` lines differ, or -1. */
function firstDifference(tl: Timeline, chain: string[]): number {
  const threads = tl.stepThreads(Math.min(chain.length, tl.stepCount));
  for (let k = 0; k < threads.length; k++) if (tl.threads[threads[k]].id !== chain[k]) return k;
  return -1;
}

const NO_VALUES: ValueColumns = { length: 0, goroutine: () => '', name: () => '', value: () => '', op: () => 0 };

/**
 * The histories of a `--print` run: its values (those of `made` already placed as the parse read
 * them, then `probes`), each placed by `places` (at its statement) or else by its goroutine's own
 * completed ops.
 */
function historiesFrom(
  tl: Timeline,
  probes: ValueColumns,
  made: ValueHistoriesMaker,
  ender: number,
  warn: MergeContext['warn'],
  places?: ReplayRun['valuePlaces'],
  recordLevel?: RecordLevel | null,
  release?: () => void,
): ProbeHistories {
  const placer = probePlacer(tl);
  const spot: ValuePlace = { event: -2, position: 0, sure: false };
  let lastGoroutine = '';
  let thread = -1;
  let lastName = '';
  let name = -1;
  for (let j = 0; j < probes.length; j++) {
    const goroutine = probes.goroutine(j);
    const op = probes.op(j);
    if (goroutine !== lastGoroutine) {
      lastGoroutine = goroutine;
      thread = threadFor(tl, goroutine, warn);
    }
    // Sure: something sure follows it in its goroutine (source/happens-before.ts sureValue), when
    // the statements are known; else the own-op rule (probe-position.ts alwaysPrinted). The others
    // are kept, marked.
    let place = places?.(j);
    if (!place) {
      spot.position = placer.place(thread, op);
      spot.sure = ender < 0 || placer.alwaysPrinted(thread, op, ender);
      place = spot;
    }
    const n = probes.name(j);
    if (n !== lastName) {
      lastName = n;
      name = made.nameId(n);
    }
    const number = probes.number ? probes.number(j) : null;
    if (number !== null) made.add(goroutine, thread, name, place, null, number);
    else made.add(goroutine, thread, name, place, probes.value(j), 0);
  }
  // (nothing here holds the parse's columns once they are released)
  probes = NO_VALUES;
  places = undefined;
  release?.();
  return made.finish(tl, warn, recordLevel ?? null);
}

/**
 * Goroutines machin names that have no line in the trace (in the runs, and `more`: those of an
 * instrumented replay's statement probes), added in id order before anything
 * refers to them: the order machin printed them in differs between replays, thread indexes must not.
 */
export function addUnrecordedGoroutines(tl: Timeline, runs: ReplayRun[], warn: MergeContext['warn'], more: Iterable<string> = []): void {
  const ids = new Set<string>(more);
  for (const { output: o } of runs) {
    if (o.panic) ids.add(o.panic.goroutine);
    for (const pr of o.probes) ids.add(pr.goroutine);
  }
  for (const id of [...ids].filter((g) => tl.threadIndex(g) < 0).sort(compareGoroutineIds)) threadFor(tl, id, warn);
}

/** `0.2` before `0.10`: paths compared part by part as numbers. */
function compareGoroutineIds(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0 && !Number.isNaN(d)) return d;
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * The thread index of a goroutine machin names. A goroutine that never did a channel op or read
 * anything has no line in the trace, yet it can panic or assign variables: it is added to the
 * timeline's threads (with no records) so the panic and its values have somewhere to be.
 */
function threadFor(tl: Timeline, id: string, warn: MergeContext['warn']): number {
  const t = tl.threadIndex(id);
  if (t >= 0) return t;
  tl.threads.push({ id, label: '' });
  warn('goroutine-without-records', `goroutine ${id} appears in machin's replay but has no record in the trace (it did no channel op or I/O); shown with no ops`);
  return tl.threads.length - 1;
}

/** MflrrRecording derives bestEffort from its header (a getter); set it only where it is data. */
function markBestEffort(rec: Recording): void {
  for (let o: object | null = rec; o; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, 'bestEffort');
    if (!d) continue;
    if (d.writable || d.set) rec.bestEffort = true;
    return;
  }
  rec.bestEffort = true;
}

function firstLines(text: string, max = 600): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}...` : t;
}
