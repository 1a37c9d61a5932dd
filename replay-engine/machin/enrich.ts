// The machin bridge: adds to a trace what only re-executing it can tell (panic message, verify
// verdict, value histories) by running one `machin replay --json --verify --print` on a checked
// copy of the trace, and labels goroutines from the program source (no toolchain needed for
// that). Every problem becomes a
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
          `${found.path} is outside the workspace and was not confirmed, so machin was not run (replaying compiles and runs it); open its folder or set program to run it`,
        );
      }
    }
    if (recording.bestEffort) {
      warn('best-effort-results', 'machin replayed a best-effort trace (the program uses FFI): its panic, verify verdict and values may diverge from the recorded run');
    }

    await withTraceCopy(tl.file, found.path, async (copy) => {
      for (const w of copy.warnings) warn('trace-copy', w);
      // One replay answers all three: machin's flags only switch on parts of its runtime
      // (MFL_RR_JSON, MFL_RR_VERIFY, MFL_RR_PROBE in main.go cmdReplay), which print to stderr
      // side by side; --verify prints nothing when the run panics, --json then gives the panic.
      const names = program ? assignedVariables(program) : [];
      const print = names.length > 0 ? ['--print', names.join(',')] : [];
      const runs: ReplayRun[] = [];
      try {
        runs.push(await runMachinReplay(machin, copy.file, ['--json', '--verify', ...print], options));
        // A program whose probed rebuild does not compile (machin's instrumenter, not the
        // program): the panic and the verdict still come from a plain replay.
        if (print.length > 0 && runs[0].output.failure?.kind === 'error') {
          runs.push(await runMachinReplay(machin, copy.file, ['--json', '--verify'], options));
        }
      } catch (err) {
        if (err instanceof RecordingError && err.code !== 'cancelled') warn(err.code, err.message);
        else throw err;
      }
      const unknown = runs.some((r) => r.output.unknown.length > 0);
      const version = unknown ? await readMachinVersion(machin, options) : undefined;
      const threadsBefore = tl.threads.length;
      mergeReplay(recording, runs, { copy, machinVersion: version, warn });
      // machin may name goroutines the trace has no line for (they were added): label them too.
      if (program && tl.threads.length > threadsBefore) attachProgram(recording, program);
    });
  } catch (err) {
    if (err instanceof RecordingError) {
      if (err.code === 'cancelled') throw err;
      return warn(err.code, err.message);
    }
    // A bug of ours must not lose the recording the user opened: say it, keep the trace.
    warn('toolchain-failed', `machin bridge failed: ${err instanceof Error ? err.message : String(err)}`);
  }
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
