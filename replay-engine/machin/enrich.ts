// The machin bridge: adds to a trace what only re-executing it can tell (panic message, verify
// verdict, value histories) by running one `machin replay --verify --print` on a checked copy of
// the trace (machin's plain panic lines say all its `--json` would: docs/machin.md), and labels
// goroutines from the program source (no toolchain needed for that). Every problem becomes a
// warning on the recording; only a cancel escapes (as RecordingError('cancelled')).
import { promises as fs } from 'node:fs';
import type { EngineWarning } from '../model/errors';
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';
import type { ToolchainOptions } from '../open-options';
import { attachProgram } from './attach-program';
import { findMachin, readMachinVersion, type MachinTool } from './find-machin';
import { findProgram, readTracedProgram } from './find-program';
import { runMachinReplay, type ReplayRun } from './run-replay';
import { mergeReplay } from './merge-replay';
import { assignedVariables, parseMflProgram, type MflProgram } from './mfl-source';
import { withTraceCopy } from './trace-copy';

/** Source files larger than this are not read for labels (a `.mfl` is one line per declaration). */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

/**
 * Adds machin's replay results and the program's goroutine labels to a machin trace, in place.
 * With options.noToolchain only the labels (the source is read, nothing runs). Never throws except
 * RecordingError('cancelled') when options.signal aborts.
 */
export async function enrichWithMachin(recording: Recording, options: ToolchainOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const tl = recording.timeline;
  if (tl.format !== 'mflrr') return;
  const warn = (code: string, message: string) => pushWarning(recording.warnings, { code, message });
  try {
    const traced = await readTracedProgram(tl.file);
    const found = await findProgram(tl.file, traced, options);
    let program: MflProgram | null = null;
    if (found.path !== null) {
      if (found.note) warn('program-choice', found.note);
      program = await loadProgram(found.path, warn);
      if (program) attachProgram(recording, program);
    }
    if (options.noToolchain) return;

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
          `${found.path} is outside ${options.programRoots?.length ? 'the workspace' : "the trace's folder"} and was not confirmed, so machin was not run (replaying compiles and runs it); open its folder, or name it as the program (CLI: --program PATH) to run it`,
        );
      }
    }
    if (recording.bestEffort) {
      warn('best-effort-results', 'machin replayed a best-effort trace (the program uses FFI): its panic, verify verdict and values may diverge from the recorded run');
    }

    const names = program ? assignedVariables(program) : [];
    const print = names.length > 0 ? ['--print', names.join(',')] : [];
    let panicKnown: () => void = () => undefined;
    let afterFirstPart = false;
    const firstPart = new Promise<void>((resolve) => (panicKnown = resolve)).then(() => {
      afterFirstPart = true;
    });
    const whole = withTraceCopy(tl.file, found.path, async (copy) => {
      for (const w of copy.warnings) warn('trace-copy', w);
      const merge = async (runs: ReplayRun[], valuesOnly = false) => {
        const unknown = runs.some((r) => r.output.unknown.length > 0);
        const version = unknown ? await readMachinVersion(machin, options) : undefined;
        const threadsBefore = tl.threads.length;
        mergeReplay(recording, runs, { copy, machinVersion: version, warn, valuesOnly });
        // machin may name goroutines the trace has no line for (they were added): label them too.
        if (program && tl.threads.length > threadsBefore) attachProgram(recording, program);
      };
      // One replay answers everything: --verify and --print only switch on parts of machin's
      // runtime (MFL_RR_VERIFY, MFL_RR_PROBE in main.go cmdReplay). --json is not asked for: its
      // causal chain is the trace's own first P `S` lines, which machin writes one write per op.
      if (!options.deferValues || print.length === 0) {
        await merge(await replays(machin, copy.file, ['--verify', ...print], print.length > 0, options, warn));
        return;
      }
      // The panic first (one replay as fast as a plain one), then the values: --print makes
      // machin write a line per assignment, which can double a replay (docs/machin.md).
      const first = await replays(machin, copy.file, ['--verify'], false, options, warn);
      await merge(first);
      panicKnown();
      // No answer in time, or machin failed before running the program: a second replay would too.
      if (first.length === 0 || first[0].output.failure) return;
      await merge(await replays(machin, copy.file, print, false, options, warn), true);
    });
    if (!options.deferValues) return await whole;
    const rec = recording as Recording & { valuesPending?: Promise<void> | null };
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
): Promise<ReplayRun[]> {
  const runs: ReplayRun[] = [];
  try {
    runs.push(await runMachinReplay(machin, trace, flags, options));
    if (retryPlain && runs[0].output.failure?.kind === 'error') runs.push(await runMachinReplay(machin, trace, ['--verify'], options));
  } catch (err) {
    if (err instanceof RecordingError && err.code !== 'cancelled') warn(err.code, err.message);
    else throw err;
  }
  return runs;
}

async function loadProgram(path: string, warn: (code: string, message: string) => void): Promise<MflProgram | null> {
  try {
    const stat = await fs.stat(path);
    if (stat.size > MAX_SOURCE_BYTES) {
      warn('program-unreadable', `${path}: larger than ${MAX_SOURCE_BYTES >> 20} MB, not read for goroutine labels`);
      return null;
    }
    return parseMflProgram(await fs.readFile(path, 'utf8'), path);
  } catch (err) {
    warn('program-unreadable', `${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)}); goroutines stay unlabelled`);
    return null;
  }
}

function pushWarning(list: EngineWarning[], w: EngineWarning): void {
  if (!list.some((x) => x.code === w.code && x.message === w.message)) list.push(w);
}
