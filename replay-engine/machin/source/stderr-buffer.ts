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
// It acts only where machin asked for probes of a replay (MFL_RR_REPLAY and MFL_RR_PROBE are set
// for the replayed program alone), never in machin or the C compiler that run with it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runProcess } from '../../toolchain/run-process';
import { firstLine } from '../first-line';

export const STDERR_BUFFER_C = `/* Frozen Run: stderr buffer for machin replay --print (see stderr-buffer.ts). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifndef __GLIBC__
#error "reads glibc's FILE buffer pointers on a crash"
#endif

static char fr_buffer[1 << 16];

static void fr_flush_at_exit(void) {
  flockfile(stderr); /* kept: nobody writes into the buffer after this flush */
  fflush(stderr);
}

static void fr_flush_on_crash(int sig) {
  char *from = stderr->_IO_write_base, *to = stderr->_IO_write_ptr;
  while (to > from && to[-1] != '\\n') to--; /* whole lines only */
  while (from < to) {
    ssize_t n = write(2, from, (size_t)(to - from));
    if (n <= 0) break;
    from += n;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void fr_buffer_stderr(void) {
  if (!getenv("MFL_RR_REPLAY") || !getenv("MFL_RR_PROBE")) return;
  if (setvbuf(stderr, fr_buffer, _IOFBF, sizeof fr_buffer) != 0) return;
  atexit(fr_flush_at_exit);
  int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
  for (unsigned i = 0; i < sizeof crashes / sizeof crashes[0]; i++) signal(crashes[i], fr_flush_on_crash);
}
`;

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
    const built = await runProcess(cc, ['-shared', '-fPIC', '-O2', '-o', lib, source], { timeLimitMs: options.timeLimitMs ?? 30_000, signal: options.signal });
    if (built.exitCode !== 0) return { unavailable: `${cc} could not build it: ${firstLine(built.stderr || built.stdout)}` };
    return { preload: lib };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message : String(err) };
  }
}

/** The environment that loads it in the replayed program, after whatever LD_PRELOAD already holds. */
export function preloadEnv(lib: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { LD_PRELOAD: env.LD_PRELOAD ? `${env.LD_PRELOAD}:${lib}` : lib };
}
