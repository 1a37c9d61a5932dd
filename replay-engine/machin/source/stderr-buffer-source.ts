// The C source of the stderr buffer library (stderr-buffer.ts says what it does and why), alone
// in a module of its own so the build (scripts/build.mjs) can compile it without the rest.
export const STDERR_BUFFER_C = `/* Frozen Run: stderr buffer for machin replay --print (see stderr-buffer.ts). */
#define _GNU_SOURCE
#include <fcntl.h>
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
  (void)fcntl(2, F_SETPIPE_SZ, 1 << 20); /* a pipe's room: its reader may be busy a while (no pipe: nothing) */
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
