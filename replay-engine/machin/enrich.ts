// The machin bridge: adds to a trace what only re-executing it can tell (panic message, verify
// verdict, value histories, every statement each goroutine ran) by running `machin replay` on a
// checked copy of the trace (machin's plain panic lines say all its `--json` would:
// docs/machin.md), and labels goroutines from the program source (no toolchain needed for that).
// Every problem becomes a warning on the recording; only a cancel escapes (as
// RecordingError('cancelled')).
//
// Source level (docs/source-level.md): a plain `--verify` replay first (the panic, as fast as
// machin gives it), then one `--verify --print` replay against an instrumented copy of the program
// that prints the statement probes and the program's variables together. It is trusted only when
// it ends as the plain one did; otherwise, or when the instrumenter cannot read the program, one
// warning says why, the values come from a plain `--print` replay and stepping stays at record level.
import type { EngineWarning } from '../model/errors';
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';
import type { ToolchainOptions } from '../open-options';
import { attachProgram } from './attach-program';
import { firstLine } from './first-line';
import { findMachin, readMachinVersion, type MachinTool } from './find-machin';
import { findProgram, readTracedProgram } from './find-program';
import type { ProgramVariables, SourceLevelStatus } from '../model/source-level';
import { CancelledReading } from './machin-output';
import { runMachinReplay, type ReplayRun } from './run-replay';
import { addUnrecordedGoroutines, mergeReplay, panicStop } from './merge-replay';
import { readMflProgram, type MflProgram } from './mfl-program';
import { assignedVariables } from './source/program-functions';
import { InstrumentError, statementsOnlyPrinted, writeInstrumentedCopy, type InstrumentedCopy } from './source/instrument';
import { panicMarksEnv, preloadEnv, sharedStderrBuffer, type StderrBuffer } from './source/stderr-buffer';
import { indexStatementProbes, placeValues, StatementProbes } from './source/statement-replay';
import { StatementValuePlaces } from './source/value-places';
import { ValueHistoriesMaker } from './value-histories';
import type { SureEvents } from './source/happens-before';
import type { StatementIndex } from './source/statement-index';
import { probePlacer } from './probe-position';
import type { Timeline } from '../model/timeline';
import type { ProgramWords } from '../model/program-words';
import { instrumentedReplayDiffers } from './source/trust-check';
import { retargetTraceCopy, withTraceCopy, type TraceCopy } from './trace-copy';
import { warmUpMachinReplays } from './warm-up';
import { groupDigits } from '../model/group-digits';

/**
 * Adds machin's replay results and the program's goroutine labels to a machin trace, in place.
 * With options.noToolchain only the labels (the source is read, nothing runs). Never throws except
 * RecordingError('cancelled') when options.signal aborts.
 */
export async function enrichWithMachin(recording: Recording, options: ToolchainOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const tl = recording.timeline;
  if (tl.format !== 'mflrr') return;
  let lastWarning = '';
  const warn = (code: string, message: string) => {
    lastWarning = message;
    pushWarning(recording.warnings, { code, message });
  };
  const progress = (message: string) => options.onToolchainProgress?.(message);
  const wanted = options.sourceLevel !== false && !options.noToolchain;
  if (wanted) warmUpMachinReplays(); // (openRecording starts it sooner, as the trace is read)
  setSourceLevel(recording, wanted ? { state: 'pending' } : { state: 'unavailable', reason: options.noToolchain ? 'no toolchain is run (trace-only)' : 'not asked for' });
  // Whatever ends the bridge without a statement index says why, in the words of its last warning.
  const settle = () => {
    if (recording.sourceLevel?.state !== 'pending') return;
    setSourceLevel(recording, { state: 'unavailable', reason: options.signal?.aborted ? 'cancelled' : lastWarning || 'machin was not run' });
  };
  let background = false;
  try {
    const traced = await readTracedProgram(tl.file);
    const found = await findProgram(tl.file, traced, options);
    let program: MflProgram | null = null;
    // A program is read (for goroutine labels) only where it may also be run: inside the roots
    // (without roots, the trace's folder), or named by the user, or confirmed below. A trace's
    // `program` line must not make any readable file elsewhere be parsed without asking.
    const load = async (path: string): Promise<MflProgram | null> => {
      const loaded = await loadProgram(path, warn);
      if (loaded) attachProgram(recording, loaded);
      return loaded;
    };
    if (found.path !== null) {
      if (found.note) warn('program-choice', found.note);
      if (found.trusted) program = await load(found.path);
    }
    if (options.noToolchain) {
      if (found.path !== null && !found.trusted) {
        warn(
          'program-not-read',
          `${found.path} is outside ${options.programRoots?.length ? 'the workspace' : "the trace's folder"}, so it was not read: goroutines stay unlabelled (a program is read only where it may be run); open its folder, or name it as the program (CLI: --program PATH) to use it`,
        );
      }
      return;
    }

    let machin: MachinTool;
    try {
      machin = findMachin(options, options.env ?? process.env);
    } catch (err) {
      if (err instanceof RecordingError) return warn(err.code, err.message);
      throw err;
    }
    if (found.path === null) return warn('program-missing', `${found.message}; machin was not run`);
    if (!found.trusted) {
      const yes = options.confirmProgram ? await options.confirmProgram(found.path) : false;
      if (!yes) {
        return warn(
          'program-not-confirmed',
          `${found.path} is outside ${options.programRoots?.length ? 'the workspace' : "the trace's folder"} and was not confirmed, so machin was not run and the program was not read (replaying compiles and runs it); open its folder, or name it as the program (CLI: --program PATH) to run it`,
        );
      }
      program = await load(found.path); // confirmed: it may be run, so it may be read
    }
    if (recording.bestEffort) {
      warn('best-effort-results', 'machin replayed a best-effort trace (the program uses FFI): its panic, verify verdict and values may diverge from the recorded run');
    }

    const names = program ? assignedVariables(program) : [];
    const print = names.length > 0 ? ['--print', names.join(',')] : [];
    // The instrumented copy (in its own private folder, never beside the program), when source
    // level is wanted and the instrumenter can read the program.
    let instrumented: InstrumentedCopy | null = null;
    let stderrBuffer: Promise<StderrBuffer> | null = null;
    if (wanted && program) {
      try {
        // (a trace with no `safe` line: its `+`, `-` and `*` are taken to panic on overflow, as in a --safe build)
        const safe = (recording as { header?: { safe: boolean | null } }).header?.safe !== false;
        // Built once a process (warm-up.ts starts it as the trace is read): the instrumented replays wait for it.
        stderrBuffer = sharedStderrBuffer();
        // (a --safe copy's panic marks need the library that holds them: instrumentStatementsOnly)
        const panicMarks = safe && 'preload' in (await stderrBuffer);
        instrumented = await writeInstrumentedCopy(program, { safe, panicMarks });
      } catch (err) {
        // InstrumentError names file:line:column and what is wrong; anything else (an I/O error) is said as it is.
        const why = err instanceof InstrumentError ? err.message : `${found.path}: cannot write its instrumented copy (${err instanceof Error ? err.message : String(err)}); stepping stays at record level`;
        warn('source-level-unavailable', why);
        setSourceLevel(recording, { state: 'unavailable', reason: why });
      }
    }
    let statementsKnown: () => void = () => undefined;
    const statementsCame = new Promise<void>((resolve) => (statementsKnown = resolve));
    let panicKnown: () => void = () => undefined;
    let afterFirstPart = false;
    const firstPart = new Promise<void>((resolve) => (panicKnown = resolve)).then(() => {
      afterFirstPart = true;
    });
    // The statements-only copy's trace is written in the same pass as the first copy (retargeted[0]):
    // the two replays start together. The values one's is written once the index is ready, never
    // before it: written at once, the values' replay would start (two forks of this process, ~40
    // ms each at 10M ops) before a step sent as the index came is heard.
    const also = instrumented ? [{ program: instrumented.statementsOnly!.file, prefix: 'statements' }] : [];
    const whole = withTraceCopy(tl.file, found.path, async (copy) => {
      for (const w of copy.warnings) warn('trace-copy', w);
      const merge = async (runs: ReplayRun[], valuesOnly = false) => {
        const unknown = runs.some((r) => r.output.unknown.length > 0);
        const version = unknown ? await readMachinVersion(machin, options) : undefined;
        const threadsBefore = tl.threads.length;
        const level = recording.sourceLevel;
        const statementsUnknown = level?.state === 'unavailable' ? (level.reason === 'not asked for' ? 'source level was not asked for: `sourceLevel: false`, or a CLI command that shows no statements' : `source level is unavailable: ${level.reason}`) : undefined;
        mergeReplay(recording, runs, { copy, machinVersion: version, warn, valuesOnly, statementsUnknown });
        // machin may name goroutines the trace has no line for (they were added): label them too.
        if (program && tl.threads.length > threadsBefore) attachProgram(recording, program);
      };
      if (instrumented) {
        const attach = () => program && attachProgram(recording, program);
        await sourceLevelReplays({ recording, machin, copy, instrumented, stderrBuffer: stderrBuffer!, program: found.path, words: program!, names, variables: programVariables(program!), options, warn, progress, merge, panicKnown, statementsKnown, attach });
        return;
      }
      // One replay answers everything: --verify and --print only switch on parts of machin's
      // runtime (MFL_RR_VERIFY, MFL_RR_PROBE in main.go cmdReplay). --json is not asked for: its
      // causal chain is the trace's own first P `S` lines, which machin writes one write per op.
      if (!options.deferValues || print.length === 0) {
        progress('machin: replaying the trace');
        await merge(await replays(machin, copy.file, ['--verify', ...print], print.length > 0, options, warn));
        return;
      }
      // The panic first (one replay as fast as a plain one), then the values: --print makes
      // machin write a line per assignment, which can double a replay (docs/machin.md).
      progress('machin: replaying the trace for the panic and the verdict');
      const first = await replays(machin, copy.file, ['--verify'], false, options, warn);
      await merge(first);
      panicKnown();
      // No answer in time, or machin failed before running the program: a second replay would too.
      if (first.length === 0 || first[0].output.failure) return;
      progress('machin: replaying the trace for the values');
      await merge(await replays(machin, copy.file, print, false, options, warn), true);
    }, also).finally(async () => {
      await instrumented?.remove();
      settle();
      statementsKnown();
    });
    background = true;
    if (!options.deferValues) return await whole;
    const rec = recording as Recording & { valuesPending?: Promise<void> | null; statementsPending?: Promise<void> | null };
    // (settled by the first stage at source level, or when the bridge ends without it)
    rec.statementsPending = instrumented ? statementsCame : null;
    // Never rejects: a problem after the first part is a warning (one before it is caught below);
    // a cancel ends the wait too.
    rec.valuesPending = whole.then(
      () => undefined,
      (err) => {
        if (afterFirstPart && !(err instanceof RecordingError && err.code === 'cancelled')) {
          warn('toolchain-failed', `machin bridge failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      },
    );
    await Promise.race([firstPart, whole]);
  } catch (err) {
    if (err instanceof RecordingError) {
      if (err.code === 'cancelled') throw err;
      return warn(err.code, err.message);
    }
    // A bug of ours must not lose the recording the user opened: say it, keep the trace.
    warn('toolchain-failed', `machin bridge failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (!background) settle();
  }
}

interface SourceLevelContext {
  recording: Recording;
  machin: MachinTool;
  copy: TraceCopy;
  instrumented: InstrumentedCopy;
  /** The instrumented replay's stderr buffer, being built in the copy's folder. */
  stderrBuffer: Promise<StderrBuffer>;
  /** The program as found (the statements' file). */
  program: string;
  /** The op words of its statements (the views'), from the program model. */
  words: ProgramWords;
  /** The program's variables to print. */
  names: string[];
  /** Which of them each function binds (frames show their own). */
  variables: ProgramVariables;
  options: ToolchainOptions;
  warn: (code: string, message: string) => void;
  progress: (message: string) => void;
  merge: (runs: ReplayRun[], valuesOnly?: boolean) => Promise<void>;
  panicKnown: () => void;
  /** The statements are known (recording.statements), or known not to come (sourceLevel unavailable). */
  statementsKnown: () => void;
  /** Labels threads added since the program was attached. */
  attach: () => void;
}

/**
 * Source level in two stages, each a replay of the same checked trace:
 * 1. the statements: the plain `--verify` replay (the panic and the verdict, merged at once) and,
 *    side by side with it, the statements-only copy's (a line per op, call and return, not per
 *    statement: instrumentStatementsOnly). Trusted (it ends as the plain one did), its statements
 *    become recording.statements, and `statementsKnown` tells the front ends: steps go by statement.
 * 2. the values: the instrumented copy's replay printing a probe before every statement and the
 *    program's variables. Each value is placed at the index's event its statement probe names; a
 *    goroutine whose statement probes are not the index's from some event on has its values from
 *    there placed by their ops alone, and said in a warning when that event surely ran.
 * Not trusted (it ends otherwise, machin cannot build the copy, no answer in time): one warning,
 * and the values from a plain `--print` replay as without source level.
 */
async function sourceLevelReplays(c: SourceLevelContext): Promise<void> {
  const { recording, machin, copy, instrumented, options, warn, progress, merge } = c;
  const tl = recording.timeline;
  const only = instrumented.statementsOnly!;
  // A long index is built in slices: how far, between two of them.
  const sliced = (what: string) => ({ signal: options.signal, onSlice: (done: number) => progress(`${what}: ${Math.round(done * 100)}%`) });
  // The plain replay (the panic and the verdict: the first stop) and the statements-only one run side
  // by side, on two cores; the statements-only one is stopped when the plain one says it cannot succeed.
  // The statements-only one is started first (the index waits for it; the plain one ends long
  // before it), and what its reading needs is made once both are started, while machin compiles.
  const trace = copy.retargeted[0];
  const flags = ['--verify', '--print', statementsOnlyPrinted(only.table).join(',')];
  const statements = new StatementProbes(only.table);
  statements.buildWhileReading(tl, c.program);
  let started = 0;
  const onStarted = () => {
    if (++started === 2) setImmediate(() => statements.prepare());
  };
  const stopInstrumented = new AbortController();
  const abort = () => stopInstrumented.abort();
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  // Without it the same lines come, only slower. (Built when the trace was opened: warm-up.ts.)
  const buffer = await c.stderrBuffer;
  if ('unavailable' in buffer) options.onOutput?.(`[the instrumented replay's stderr stays unbuffered (slower, the same lines): ${buffer.unavailable}]\n`);
  progress('machin: replaying against the instrumented program (statements)');
  // Read as machin writes it: the statements go straight into the index, the output is never held whole.
  const streamed = statements.stream((n) => progress(`reading the statements machin prints: ${groupDigits(n)} so far`), options.signal);
  const env = 'preload' in buffer ? { ...preloadEnv(buffer.preload), ...panicMarksEnv(only.table) } : {};
  const instrumentedRun = runMachinReplay(machin, trace, flags, { ...options, signal: stopInstrumented.signal }, streamed, env, 1, onStarted).then(
    (r) => ({ run: r, err: null as unknown }),
    (err: unknown) => ({ run: null, err }),
  );
  progress('machin: replaying the trace for the panic and the verdict');
  const plain = replays(machin, copy.file, ['--verify'], false, options, warn, onStarted);
  let first: ReplayRun[];
  try {
    first = await plain;
  } catch (err) {
    abort();
    await instrumentedRun;
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
  await merge(first);
  c.panicKnown();
  // No answer in time, or machin failed before running the program: the other would too.
  if (first.length === 0 || first[0].output.failure) {
    abort();
    await instrumentedRun;
    const failure = first[0]?.output.failure;
    setSourceLevel(recording, { state: 'unavailable', reason: failure ? `machin replay --verify failed: ${firstLine(failure.message)}` : 'the plain replay gave no answer, so the instrumented one was stopped' });
    return;
  }
  const outcome = await instrumentedRun;
  if (options.signal?.aborted) throw cancelled();
  // Not trusted: one warning, record level, the values from a plain --print replay.
  const fallBack = async (reason: string) => {
    const message = `${c.program}: ${reason}${/stepping stays at record level/.test(reason) ? '' : '; stepping stays at record level'}`;
    warn('source-level-unavailable', message);
    setSourceLevel(recording, { state: 'unavailable', reason: message });
    c.statementsKnown();
    await plainValues(c);
  };
  const untrusted = trustProblem(c, first[0], outcome, 'instrumented program');
  if (untrusted !== null || !outcome.run) return fallBack(untrusted ?? 'no instrumented replay');
  const run = outcome.run;

  if (options.signal?.aborted) throw cancelled();
  progress('building the statement index');
  // The goroutine whose end ends the run (the one that panicked, else main; none in a deadlock,
  // where every probe is printed): what surely ran is what happens before its end.
  const panicked = run.output.panic?.goroutine ?? (recording.panic ? tl.threads[recording.panic.thread].id : null);
  const sure = statements.sureEvents(tl, run.output.deadlock ? null : (panicked ?? '0'));
  // Every goroutine that ran a statement is a thread: first those with a statement that surely ran
  // (in id order, so their thread indexes are the same on every launch), then this replay's others.
  addThreads(c, statements.goroutines.filter((_, g) => sure.sure[g] > 0));
  addThreads(c, statements.goroutines.filter((_, g) => sure.sure[g] === 0));
  const panic = recording.panic ? { thread: recording.panic.thread, position: recording.panic.position } : null;
  let index: StatementIndex;
  try {
    index = await indexStatementProbes(tl, statements, only.table, c.program, sure, panic, sliced('building the statement index'));
  } catch (err) {
    if (err instanceof CancelledReading) throw cancelled();
    // probes that are no walk of the table (never seen from machin 0.137.0): nothing from this replay is shown
    return fallBack(`the instrumented replay's statements could not be indexed (${err instanceof Error ? err.message : String(err)})`);
  }
  if (index.unsure > 0) warn('statements-this-replay-only', thisReplayOnlyStatements(tl, index));
  index.variables = c.variables;
  recording.statements = index;
  recording.programText = c.instrumented.source;
  recording.programWords = c.words;
  setSourceLevel(recording, { state: 'ready' });
  c.statementsKnown();
  progress(`statement index ready: ${index.eventCount} statements executed; machin now prints the values`);
  await statementValues(c, first[0], index, sure);
}

/**
 * The second stage: the values, from the instrumented copy's replay (a probe before every
 * statement, and the program's variables), placed at the index's events. Not trusted (it ends
 * otherwise): one warning, and the values from a plain `--print` replay, the statements kept.
 */
async function statementValues(c: SourceLevelContext, plain: ReplayRun, index: StatementIndex, sure: SureEvents): Promise<void> {
  const { recording, machin, copy, instrumented, options, warn, progress, merge } = c;
  const tl = recording.timeline;
  const printed = [...c.names, ...instrumented.table.paramProbes.map((p) => p.probe)];
  if (printed.length === 0) {
    // Nothing to print: no second replay (the histories are empty, as machin would have made them).
    await merge([{ ...plain, output: { ...plain.output, probes: [] }, flags: ['--verify'] }], true);
    return;
  }
  const trace = await retargetTraceCopy(copy, instrumented.file);
  const flags = ['--verify', '--print', [...printed, ...instrumented.table.probeNames].join(',')];
  const probes = new StatementProbes(instrumented.table);
  probes.checkAgainst(index, tl);
  // Each value placed at its statement as it is read, straight into the histories (no column per value).
  const places = new StatementValuePlaces(tl, index, sure);
  probes.placeValuesAsRead(new ValueHistoriesMaker(c.names), places);
  const buffer = await c.stderrBuffer;
  const env = 'preload' in buffer ? preloadEnv(buffer.preload) : {};
  progress('machin: replaying against the instrumented program (values)');
  const streamed = probes.stream((n) => progress(`reading the values machin prints: ${groupDigits(n)} statements so far`), options.signal);
  const outcome = await runMachinReplay(machin, trace, flags, options, streamed, env).then(
    (r) => ({ run: r, err: null as unknown }),
    (err: unknown) => ({ run: null, err }),
  );
  if (options.signal?.aborted) throw cancelled();
  const untrusted = trustProblem(c, plain, outcome, 'instrumented program for the values');
  if (untrusted !== null || !outcome.run) {
    warn('values-unplaced', `${c.program}: ${untrusted ?? 'no instrumented replay'}; the values come from a plain replay, each placed by its goroutine's ops, not at its statement`);
    await plainValues(c);
    return;
  }
  if (probes.bad) {
    warn('values-unplaced', `${c.program}: the values' replay printed no statement number (${probes.bad}); the values come from a plain replay, each placed by its goroutine's ops, not at its statement`);
    await plainValues(c);
    return;
  }
  addThreads(c, probes.goroutines);
  // Where the values' replay ran other statements than the index holds, in events that surely ran: said.
  const differing: string[] = [];
  probes.goroutines.forEach((g, k) => {
    const from = probes.differsFrom[k];
    const s = places.sureIndexOf(g);
    if (from === Infinity || s < 0 || from >= sure.sure[s]) return;
    const t = tl.threadIndex(g);
    const at = from < index.eventsOf(t) ? ` (line ${index.location(t, from).line})` : '';
    differing.push(`goroutine ${g} from its statement ${from + 1}${at}`);
  });
  if (differing.length > 0) {
    warn('values-unplaced', `${c.program}: machin's replay for the values ran other statements than its replay for the statements (${differing.slice(0, 8).join('; ')}${differing.length > 8 ? `; and ${differing.length - 8} more` : ''}): those goroutines' values from there on are placed by their ops, not at their statements`);
  }
  const values = placeValues(tl, outcome.run, probes, instrumented.table, index, c.names, sure);
  await merge([values], true);
  progress('values ready');
}

/** Why an instrumented replay is not trusted (it failed, or ended otherwise than the plain one), or null. */
function trustProblem(c: SourceLevelContext, plain: ReplayRun, outcome: { run: ReplayRun | null; err: unknown }, what: string): string | null {
  const tl = c.recording.timeline;
  if (outcome.err) {
    const err = outcome.err;
    if (err instanceof CancelledReading) throw cancelled();
    if (!(err instanceof RecordingError) || err.code === 'cancelled') throw err;
    return `the replay against the ${what} failed: ${err.message}`;
  }
  const run = outcome.run;
  if (!run) return null;
  const o = run.output;
  if (o.failure) return `machin could not replay the ${what}: ${firstLine(o.failure.message)}`;
  if (run.exitCode !== 0 && !o.panic && !o.deadlock) return `the replay against the ${what} exited with code ${run.exitCode}`;
  const stopOf = (g: string, op: number) => {
    const t = tl.threadIndex(g);
    return t < 0 ? op : panicStop(tl, t, op);
  };
  return instrumentedReplayDiffers(plain.output, o, stopOf, c.recording.verify?.mainsLastOp); // (set by the merge of the plain replay's verdict)
}

/** The values without statements: a plain `--print` replay. */
async function plainValues(c: SourceLevelContext): Promise<void> {
  if (c.names.length === 0) return;
  c.progress('machin: replaying the trace for the values');
  await c.merge(await replays(c.machin, c.copy.file, ['--print', c.names.join(',')], false, c.options, c.warn), true);
}

/** Goroutines a replay named, made threads of the timeline when they are not (and labelled). */
function addThreads(c: SourceLevelContext, goroutines: string[]): void {
  const tl = c.recording.timeline;
  const before = tl.threads.length;
  addUnrecordedGoroutines(tl, [], c.warn, goroutines);
  if (tl.threads.length > before) c.attach();
}

/** Which goroutines ran statements this replay only (after their last one known to run before the end), and where those start. */
function thisReplayOnlyStatements(tl: Timeline, index: StatementIndex): string {
  const parts: string[] = [];
  let goroutines = 0;
  for (let t = 0; t < tl.threads.length; t++) {
    const n = index.eventsOf(t) - index.sureEventsOf(t);
    if (n <= 0) continue;
    goroutines++;
    if (parts.length >= 8) continue;
    const first = index.location(t, index.sureEventsOf(t));
    parts.push(`goroutine ${tl.threads[t].id}: ${n} from line ${first.line} (${first.function})`);
  }
  const more = goroutines > parts.length ? `; and ${goroutines - parts.length} more goroutine(s)` : '';
  return `${index.unsure} statement(s) ran in this replay after the last statement of their goroutine known to run before the run ended (${parts.join('; ')}${more}): machin may not run them before the end in another replay, so they are shown marked "this replay only" (docs/source-level.md)`;
}

function programVariables(program: MflProgram): ProgramVariables {
  const functions = [...program.functions.values()];
  return {
    locals: new Map(functions.map((f) => [f.name, f.assigned])),
    globals: new Set(program.globals),
  };
}

function cancelled(): RecordingError {
  return new RecordingError('cancelled', 'machin bridge: cancelled');
}

function setSourceLevel(rec: Recording, status: SourceLevelStatus): void {
  rec.sourceLevel = status;
  if (status.state !== 'ready') {
    rec.statements = null;
    rec.programText = null;
    rec.programWords = null;
  }
}

/**
 * Runs one machin replay with `flags`; when `retryPlain` and the probed rebuild fails to compile
 * (machin's instrumenter, not the program), a plain `--verify` replay still gives the panic
 * and the verdict. A time limit or a failed start is a warning; a cancel is thrown.
 */
async function replays(
  machin: MachinTool,
  trace: string,
  flags: string[],
  retryPlain: boolean,
  options: ToolchainOptions,
  warn: (code: string, message: string) => void,
  onStarted?: () => void,
): Promise<ReplayRun[]> {
  const runs: ReplayRun[] = [];
  try {
    runs.push(await runMachinReplay(machin, trace, flags, options, undefined, undefined, 0, onStarted));
    if (retryPlain && runs[0].output.failure?.kind === 'error') runs.push(await runMachinReplay(machin, trace, ['--verify'], options));
  } catch (err) {
    if (err instanceof RecordingError && err.code !== 'cancelled') warn(err.code, err.message);
    else throw err;
  }
  return runs;
}

/** The program, read once for everything (labels, `--print` names, the instrumented copy, op words). */
async function loadProgram(path: string, warn: (code: string, message: string) => void): Promise<MflProgram | null> {
  try {
    // A regular file only (a FIFO swapped in since it was found is refused, never waited on).
    return await readMflProgram(path);
  } catch (err) {
    warn('program-unreadable', err instanceof RecordingError ? err.message : `${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)}); goroutines stay unlabelled`);
    return null;
  }
}

function pushWarning(list: EngineWarning[], w: EngineWarning): void {
  if (!list.some((x) => x.code === w.code && x.message === w.message)) list.push(w);
}
