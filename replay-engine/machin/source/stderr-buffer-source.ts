// The C source of the stderr buffer library (stderr-buffer.ts says what it does and why), alone
// in a module of its own so the build (scripts/build.mjs) can compile it without the rest.
export const STDERR_BUFFER_C = `/* Frozen Run: stderr buffer for machin replay --print (see stderr-buffer.ts). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
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
/* A held line (a panic mark's or a panic cut's: below), per thread: in the thread's own room, or for
   a longer line (a goroutine id of some hundred characters) in memory freed when the thread ends. */
struct fr_held {
  char line[256];
  char *at, *big; /* at: line or big */
  size_t length, big_room;
};
static __thread struct fr_held fr_mark_held, fr_cut_held;
static void fr_read_marks(void);
static void fr_write_all(const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(2, p, n);
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

static void fr_flush_at_exit(void) {
  flockfile(stderr); /* kept: nobody writes into the buffer after this flush */
  fflush(stderr);
}

static void fr_flush_on_crash(int sig) {
  char *from = stderr->_IO_write_base, *to = stderr->_IO_write_ptr;
  while (to > from && to[-1] != '\\n') to--; /* whole lines only */
  fr_write_all(from, (size_t)(to - from));
  /* the crashing thread's held lines, after them: its cut, then its mark */
  if (fr_cut_held.length) fr_write_all(fr_cut_held.at, fr_cut_held.length);
  if (fr_mark_held.length) fr_write_all(fr_mark_held.at, fr_mark_held.length);
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
  fr_read_marks();
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

/* Panic marks (a --safe statements-only copy: instrument.ts, "Panic marks"). A probe of a mark's
   name is held, not written: it is the line the statement probe paired with it would print just
   before a statement that only machin's overflow check can fail (mfl_panic). The thread's next
   other probe drops it (what it held is printed
   then); a panic on the thread writes it first, as that statement probe, so the statements that
   ran up to the panic are printed as if the copy had printed before every such statement.
   FROZEN_RUN_PANIC_MARKS pairs them: mark=probe,mark=probe.
   Panic cuts ("Panic cuts" there): a probe of a cut's name is held too, as it is, beside the mark
   (a mark drops it, any other probe drops both): how far an unprinted callee got. A panic writes
   it just before the mark, whose run ends with that callee's call. FROZEN_RUN_PANIC_CUTS names
   them: cut,cut. A cut is kept in the same lists with no probe. */
static char **fr_mark_name = NULL, **fr_mark_probe = NULL; /* a mark a function-literal depth, then the cuts */
static int fr_marks = 0;
static const char *fr_not_mark_seen = NULL; /* the last name found to be no mark (one literal per name) */

static pthread_key_t fr_mark_key, fr_cut_key; /* their destructors free a thread's longer rooms */

static void fr_free_held(void *room) { free(room); }

/* The names of the comma-separated list in the environment variable var into the lists, each
   paired with what follows its = (pairs) or with none. */
static void fr_read_list(const char *var, int pairs) {
  const char *list = getenv(var);
  char *copy = list ? strdup(list) : NULL, *save = NULL;
  if (!copy) return;
  for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (pairs != (eq != NULL)) continue;
    if (eq) *eq = 0;
    fr_mark_name[fr_marks] = item;
    fr_mark_probe[fr_marks++] = eq ? eq + 1 : NULL;
  }
}

static void fr_read_marks(void) {
  const char *marks = getenv("FROZEN_RUN_PANIC_MARKS"), *cuts = getenv("FROZEN_RUN_PANIC_CUTS");
  if (!marks || pthread_key_create(&fr_mark_key, fr_free_held) != 0 || pthread_key_create(&fr_cut_key, fr_free_held) != 0) return;
  size_t names = 2;
  for (const char *c = marks; *c; c++) names += *c == ',';
  for (const char *c = cuts ? cuts : ""; *c; c++) names += *c == ',';
  fr_mark_name = calloc(names, sizeof *fr_mark_name);
  fr_mark_probe = calloc(names, sizeof *fr_mark_probe);
  if (!fr_mark_name || !fr_mark_probe) return; /* no marks held: a mark printed makes the replay refused */
  fr_read_list("FROZEN_RUN_PANIC_MARKS", 1);
  fr_read_list("FROZEN_RUN_PANIC_CUTS", 0);
}

/* The mark or cut named name, or -1. */
static int fr_mark_of(const char *name) {
  if (name == fr_not_mark_seen) return -1;
  for (int i = 0; i < fr_marks; i++) if (strcmp(name, fr_mark_name[i]) == 0) return i;
  fr_not_mark_seen = name;
  return -1;
}

/* Holds the probe's line, under the name probe, in this thread's h (no memory for a long one:
   abort, so the replay ends otherwise than the plain one and nothing it printed is trusted). */
static void fr_hold(struct fr_held *h, pthread_key_t key, const char *g, const char *probe, const char *val, const char *op, size_t lo) {
  size_t lg = strlen(g), lp = strlen(probe), lv = strlen(val), n = 6 + lg + 1 + lp + 3 + lv + 4 + lo + 1;
  if (n <= sizeof h->line) {
    h->at = h->line;
  } else {
    if (n > h->big_room) {
      char *more = realloc(h->big, n + 64);
      if (!more) abort();
      h->big = more;
      h->big_room = n + 64;
      (void)pthread_setspecific(key, more);
    }
    h->at = h->big;
  }
  char *w = h->at;
  memcpy(w, "probe ", 6); w += 6; memcpy(w, g, lg); w += lg; *w++ = ' '; memcpy(w, probe, lp); w += lp;
  memcpy(w, " = ", 3); w += 3; memcpy(w, val, lv); w += lv; memcpy(w, " @op", 4); w += 4; memcpy(w, op, lo); w += lo; *w = '\\n';
  h->length = n;
}

/* Whether s[0, n) starts machin's panic report (mfl_panic: text, or JSON with MFL_RR_JSON). */
static int fr_is_panic(const char *s, size_t n) {
  return (n >= 7 && memcmp(s, "panic: ", 7) == 0) || (n >= 10 && memcmp(s, "{\\"panic\\":\\"", 10) == 0);
}

/* The thread's held lines (its cut, then its mark) into stderr's buffer, before the panic report that begins. */
static void fr_write_held(FILE *f) {
  flockfile(f);
  if (fr_cut_held.length) fr_put(f, fr_cut_held.at, fr_cut_held.length);
  if (fr_mark_held.length) fr_put(f, fr_mark_held.at, fr_mark_held.length);
  funlockfile(f);
  fr_cut_held.length = fr_mark_held.length = 0;
}

#define fr_holding() (fr_mark_held.length || fr_cut_held.length)

size_t fwrite(const void *p, size_t size, size_t count, FILE *f) {
  if (fr_holding() && f == stderr && size == 1 && fr_is_panic(p, count)) fr_write_held(f);
  flockfile(f);
  size_t r = fwrite_unlocked(p, size, count, f);
  funlockfile(f);
  return r;
}

int fputs(const char *s, FILE *f) {
  if (fr_holding() && f == stderr && fr_is_panic(s, strlen(s))) fr_write_held(f);
  flockfile(f);
  int r = fputs_unlocked(s, f);
  funlockfile(f);
  return r;
}

int fprintf(FILE *f, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n;
  if (fr_buffered && f == stderr && fr_is(format, fr_probe_format, &fr_probe_seen)) {
    const char *g = va_arg(ap, const char *), *name = va_arg(ap, const char *), *val = va_arg(ap, const char *);
    char digits[24], *op = fr_decimal(digits + sizeof digits, va_arg(ap, int));
    size_t lg = strlen(g), ln = strlen(name), lv = strlen(val), lo = (size_t)(digits + sizeof digits - op);
    int mark = fr_marks ? fr_mark_of(name) : -1;
    if (mark >= 0 && fr_mark_probe[mark]) {
      fr_hold(&fr_mark_held, fr_mark_key, g, fr_mark_probe[mark], val, op, lo);
      fr_cut_held.length = 0;
      va_end(ap);
      return (int)fr_mark_held.length;
    }
    if (mark >= 0) {
      fr_hold(&fr_cut_held, fr_cut_key, g, name, val, op, lo);
      va_end(ap);
      return (int)fr_cut_held.length;
    }
    fr_mark_held.length = fr_cut_held.length = 0;
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
