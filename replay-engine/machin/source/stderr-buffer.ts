// A buffered C stderr for the replay against the instrumented copy. machin writes every probe
// line with its own write(2) to an unbuffered stderr, under its replay lock, and that write is
// most of what a source-level replay costs (docs/machin.md: 3.9 million lines for a 600k-op trace).
// This small library, built with the C compiler machin itself uses and loaded with LD_PRELOAD
// into the replayed program only, gives its stderr a 64 KiB buffer, and closes the two ways a
// buffer loses or repeats lines:
// - glibc's exit() flushes every stream without its lock while other goroutines still print
//   (coreutils' stdbuf was tried and taken out for it: blocks of lines came out twice, or torn).
//   An atexit handler, run before that flush, takes stderr's lock, flushes, and keeps the lock:
//   a goroutine printing after the end waits instead, and glibc's flush finds nothing to write.
// - a crash by signal (a division by zero without --safe) ends the process without exit(): the
//   handler writes the buffer's whole lines, then the signal takes its default action.
// It also makes the pipe its stderr goes to hold 1 MiB instead of 64 KiB (F_SETPIPE_SZ; nothing
// where stderr is no pipe): machin writes under its replay lock, so a write that waits for a busy
// reader holds up every goroutine (a 600k-op statements-only replay writes 20 MB of lines: the
// launch measured 1.42 times a plain replay with it and 1.45 without, medians of 20 launches).
// With the buffer, what is left of a probe line's cost is glibc's formatting: machin's probe is
// `fprintf(stderr, "probe %s %s = %s @op%d\n", ...)` after `snprintf(b, 24, "%lld", v)` for an
// integer. The library's own fprintf and snprintf write exactly those two formats directly (the
// same bytes; any other format goes to glibc's vfprintf and vsnprintf), which takes about a third
// off the instrumented replay of a trace that seldom hands over (docs/machin.md).
// It also holds a --safe statements-only copy's panic marks (instrument.ts, instrumentStatementsOnly):
// a mark's probe line is kept per thread instead of written, and written, as the statement probe it
// stands for, only when that thread panics (machin's `panic: ` report begins with fwrite or fputs);
// beside it, the thread's panic cut (how far an unprinted helper got), written just before the mark.
// It acts only where machin asked for probes of a replay (MFL_RR_REPLAY and MFL_RR_PROBE are set
// for the replayed program alone), never in machin or the C compiler that run with it.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runProcess } from '../../toolchain/run-process';
import { firstLine } from '../first-line';
import { makePrivateDir, PROCESS_DIR_PREFIX } from '../private-temp';
import { STDERR_BUFFER_C } from './stderr-buffer-source';
import type { StatementTable } from './instrument';

export { STDERR_BUFFER_C };

export type StderrBuffer = { preload: string } | { unavailable: string };

/** machin's C compiler: $CC, else cc (machin's ccPath). */
export function machinCCompiler(env: NodeJS.ProcessEnv = process.env): string {
  return env.CC || 'cc';
}

/**
 * Builds the library into `dir` (a private folder, removed by its owner). Never throws: when it
 * cannot be built or loaded (no C compiler, not glibc, a folder LD_PRELOAD cannot name), the
 * replay runs with machin's unbuffered stderr, which prints the same lines, only slower.
 */
export async function buildStderrBuffer(dir: string, options: { timeLimitMs?: number; signal?: AbortSignal } = {}): Promise<StderrBuffer> {
  const lib = path.join(dir, 'fr-stderr-buffer.so');
  // LD_PRELOAD splits its list at spaces and colons.
  if (/[\s:]/.test(lib)) return { unavailable: `its folder ${dir} has a space or colon, which LD_PRELOAD cannot name` };
  const source = path.join(dir, 'fr-stderr-buffer.c');
  try {
    await fs.writeFile(source, STDERR_BUFFER_C, { mode: 0o600 });
    const cc = machinCCompiler();
    // The compiler's own temporary files go into the private folder too, never the user's TMPDIR.
    const built = await runProcess(cc, ['-shared', '-fPIC', '-O2', '-o', lib, source], { timeLimitMs: options.timeLimitMs ?? 30_000, signal: options.signal, env: { TMPDIR: dir } });
    if (built.exitCode !== 0) return { unavailable: `${cc} could not build it: ${firstLine(built.stderr || built.stdout)}` };
    return { preload: lib };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message : String(err) };
  }
}

let shared: Promise<StderrBuffer> | null = null;

/** The library `npm run build` makes beside the bundles (scripts/build.mjs), and the SHA-256 of the source it was made from. */
export const PREBUILT_STDERR_BUFFER = 'fr-stderr-buffer.so';
export const PREBUILT_SOURCE_HASH = `${PREBUILT_STDERR_BUFFER}.sha256`;

/**
 * The library, made once a process: the one the build made beside this bundle when it was made
 * from this very source (its hash), is a regular file no one else may write and LD_PRELOAD can
 * name it; else built into a private folder of the process's own (kept until the process exits:
 * private-temp.ts). So a launch does not wait for the C compiler: the first call starts the
 * build (warm-up.ts makes it as a trace is opened), the others take the same answer.
 */
export function sharedStderrBuffer(dir = __dirname): Promise<StderrBuffer> {
  shared ??= prebuiltStderrBuffer(dir).then(
    (prebuilt) =>
      prebuilt ??
      makePrivateDir(PROCESS_DIR_PREFIX).then(
        (own) => buildStderrBuffer(own),
        (err: unknown) => ({ unavailable: `no private folder for it: ${err instanceof Error ? err.message : String(err)}` }),
      ),
  );
  return shared;
}

/** The build's library in `dir` when it may be used as it is (sharedStderrBuffer), else null. */
export async function prebuiltStderrBuffer(dir: string): Promise<StderrBuffer | null> {
  const lib = path.join(dir, PREBUILT_STDERR_BUFFER);
  if (/[\s:]/.test(lib)) return null;
  try {
    const [st, hash] = await Promise.all([fs.lstat(lib), fs.readFile(path.join(dir, PREBUILT_SOURCE_HASH), 'utf8')]);
    const mine = st.uid === process.getuid?.() || st.uid === 0;
    if (!st.isFile() || !mine || (st.mode & 0o022) !== 0) return null;
    return hash.trim() === createHash('sha256').update(STDERR_BUFFER_C).digest('hex') ? { preload: lib } : null;
  } catch {
    return null; // none built (no C compiler at build time, or run from the sources)
  }
}

/**
 * What tells the library a statements-only copy's panic marks (instrumentStatementsOnly): each
 * mark local and the statement probe it stands for, `fr_mark0=fr_stmt0,...`, and its cut locals,
 * `fr_cut0`; nothing without marks.
 */
export function panicMarksEnv(table: Pick<StatementTable, 'probeNames' | 'panicMarks' | 'panicCuts'>): Record<string, string> {
  const marks = table.panicMarks;
  if (!marks) return {};
  const env: Record<string, string> = { FROZEN_RUN_PANIC_MARKS: marks.map((m, d) => `${m}=${table.probeNames[d]}`).join(',') };
  if (table.panicCuts?.length) env.FROZEN_RUN_PANIC_CUTS = table.panicCuts.join(',');
  return env;
}

/** The environment that loads it in the replayed program, after whatever LD_PRELOAD already holds. */
export function preloadEnv(lib: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { LD_PRELOAD: env.LD_PRELOAD ? `${env.LD_PRELOAD}:${lib}` : lib };
}
