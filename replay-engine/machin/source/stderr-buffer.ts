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
// With the buffer, what is left of a probe line's cost is glibc's formatting: machin's probe is
// `fprintf(stderr, "probe %s %s = %s @op%d\n", ...)` after `snprintf(b, 24, "%lld", v)` for an
// integer. The library's own fprintf and snprintf write exactly those two formats directly (the
// same bytes; any other format goes to glibc's vfprintf and vsnprintf), which takes about a third
// off the instrumented replay of a trace that seldom hands over (docs/machin.md).
// It acts only where machin asked for probes of a replay (MFL_RR_REPLAY and MFL_RR_PROBE are set
// for the replayed program alone), never in machin or the C compiler that run with it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runProcess } from '../../toolchain/run-process';
import { firstLine } from '../first-line';
import { makePrivateDir, PROCESS_DIR_PREFIX } from '../private-temp';

export const STDERR_BUFFER_C = `/* Frozen Run: stderr buffer for machin replay --print (see stderr-buffer.ts). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef __GLIBC__
#error "reads glibc's FILE buffer pointers"
#endif

static char fr_buffer[1 << 16];
static int fr_buffered = 0;

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
  fr_buffered = 1;
}

/* The decimal digits of v, written backwards ending at end; returns where they start. */
static char *fr_decimal(char *end, long long v) {
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do { *--end = (char)('0' + u % 10); u /= 10; } while (u);
  if (v < 0) *--end = '-';
  return end;
}

/* n bytes into the stream's buffer while they fit (what putc_unlocked does), else through glibc. */
static void fr_put(FILE *f, const char *s, size_t n) {
  if ((size_t)(f->_IO_write_end - f->_IO_write_ptr) >= n) {
    memcpy(f->_IO_write_ptr, s, n);
    f->_IO_write_ptr += n;
  } else {
    fwrite_unlocked(s, 1, n, f);
  }
}

/* A format is machin's when its text is (the pointer is remembered: one literal per call site). */
static int fr_is(const char *format, const char *want, const char **seen) {
  if (format == *seen) return 1;
  if (format == NULL || strcmp(format, want) != 0) return 0;
  *seen = format;
  return 1;
}

static const char fr_probe_format[] = "probe %s %s = %s @op%d\\n";
static const char *fr_probe_seen = NULL;

int fprintf(FILE *f, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n;
  if (fr_buffered && f == stderr && fr_is(format, fr_probe_format, &fr_probe_seen)) {
    const char *g = va_arg(ap, const char *), *name = va_arg(ap, const char *), *val = va_arg(ap, const char *);
    char digits[24], *op = fr_decimal(digits + sizeof digits, va_arg(ap, int));
    size_t lg = strlen(g), ln = strlen(name), lv = strlen(val), lo = (size_t)(digits + sizeof digits - op);
    flockfile(f);
    fr_put(f, "probe ", 6); fr_put(f, g, lg); fr_put(f, " ", 1); fr_put(f, name, ln); fr_put(f, " = ", 3);
    fr_put(f, val, lv); fr_put(f, " @op", 4); fr_put(f, op, lo); fr_put(f, "\\n", 1);
    funlockfile(f);
    n = (int)(6 + lg + 1 + ln + 3 + lv + 4 + lo + 1);
  } else {
    n = vfprintf(f, format, ap);
  }
  va_end(ap);
  return n;
}

static const char *fr_integer_seen = NULL;

int snprintf(char *s, size_t size, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n;
  if (fr_buffered && size >= 21 && fr_is(format, "%lld", &fr_integer_seen)) {
    char digits[24], *from = fr_decimal(digits + sizeof digits, va_arg(ap, long long));
    n = (int)(digits + sizeof digits - from);
    memcpy(s, from, (size_t)n);
    s[n] = 0;
  } else {
    n = vsnprintf(s, size, format, ap);
  }
  va_end(ap);
  return n;
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
    // The compiler's own temporary files go into the private folder too, never the user's TMPDIR.
    const built = await runProcess(cc, ['-shared', '-fPIC', '-O2', '-o', lib, source], { timeLimitMs: options.timeLimitMs ?? 30_000, signal: options.signal, env: { TMPDIR: dir } });
    if (built.exitCode !== 0) return { unavailable: `${cc} could not build it: ${firstLine(built.stderr || built.stdout)}` };
    return { preload: lib };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message : String(err) };
  }
}

let shared: Promise<StderrBuffer> | null = null;

/**
 * The library, built once a process into a private folder of its own (kept until the process
 * exits: private-temp.ts), so a launch does not wait for the C compiler: the first call starts
 * the build (warm-up.ts makes it as a trace is opened), the others take the same answer.
 */
export function sharedStderrBuffer(): Promise<StderrBuffer> {
  shared ??= makePrivateDir(PROCESS_DIR_PREFIX).then(
    (dir) => buildStderrBuffer(dir),
    (err: unknown) => ({ unavailable: `no private folder for it: ${err instanceof Error ? err.message : String(err)}` }),
  );
  return shared;
}

/** The environment that loads it in the replayed program, after whatever LD_PRELOAD already holds. */
export function preloadEnv(lib: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { LD_PRELOAD: env.LD_PRELOAD ? `${env.LD_PRELOAD}:${lib}` : lib };
}
