// The instrumented replay's buffered stderr (replay-engine/machin/source/stderr-buffer.ts), built
// with the real C compiler and loaded into the real machin's replayed program: the same lines as
// machin's unbuffered stderr for a run that ends, panics or deadlocks; every whole line kept when
// the process dies of a signal; no line twice or torn when threads still print while exit() runs
// (what coreutils' stdbuf got wrong); and only a probe replay is touched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { writeInstrumentedCopy } from '../../replay-engine/machin/source/instrument';
import { buildStderrBuffer, machinCCompiler, preloadEnv } from '../../replay-engine/machin/source/stderr-buffer';
import { machinPath, recordProgram } from '../support/machin';
import { tempDir } from './support';

async function library(): Promise<string> {
  const built = await buildStderrBuffer(tempDir('stderr-buffer-'));
  assert.ok('preload' in built, `the library was not built: ${JSON.stringify(built)}`);
  return built.preload;
}

/** A C program built with machin's compiler, in `dir`. */
function cProgram(dir: string, name: string, source: string, libs: string[] = []): string {
  const file = path.join(dir, `${name}.c`);
  writeFileSync(file, source);
  const exe = path.join(dir, name);
  const r = spawnSync(machinCCompiler(), ['-O1', '-o', exe, file, ...libs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return exe;
}

/** The replay of an instrumented copy's trace, with or without the library: its lines, probes per goroutine without @op (which races). */
function replayLines(trace: string, print: string, env: Record<string, string>): { probes: Map<string, string[]>; other: string[]; exit: number | null } {
  const r = spawnSync(machinPath(), ['replay', trace, '--verify', '--print', print], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 1 << 28 });
  const probes = new Map<string, string[]>();
  const other: string[] = [];
  // machin writes the panic line in pieces, so a probe can land inside it (panic-glue.test.ts).
  for (const line of r.stderr.split('\n')) {
    const rest = line.replace(/probe (\S+) (\S+ = \S*) @op\d+/g, (_, g: string, probe: string) => {
      if (!probes.has(g)) probes.set(g, []);
      probes.get(g)!.push(probe);
      return '';
    });
    // Once the recorded schedule is done, machin counts the ops of goroutines still running, a race of its own.
    if (rest) other.push(rest.replace(/schedule op \d+\//, 'schedule op P/'));
  }
  return { probes, other, exit: r.status };
}

const PROGRAMS: Array<[string, string, boolean]> = [
  [
    'a run that ends, with a goroutine',
    `func worker(out, n) {
    i := 0
    for i < n {
        out <- i * 3
        i = i + 1
    }
    close(out)
}

func main() {
    ch := make(chan int)
    go worker(ch, 4000)
    total := 0
    for v := range ch {
        total = total + v
    }
    println(str(total))
}
`,
    true,
  ],
  [
    'a --safe panic in a goroutine',
    `func worker(out, n) {
    i := 0
    for i < n {
        out <- 100 / (n - 1 - i)
        i = i + 1
    }
}

func main() {
    ch := make(chan int)
    go worker(ch, 3000)
    total := 0
    k := 0
    for k < 3000 {
        total = total + <-ch
        k = k + 1
    }
    println(str(total))
}
`,
    true,
  ],
  [
    'a deadlock',
    `func sender(ch) {
    j := 0
    for j < 2000 {
        ch <- j
        j = j + 1
    }
}

func main() {
    ch := make(chan int)
    go sender(ch)
    k := 0
    for k < 2001 {
        v := <-ch
        k = k + v - v + 1
    }
}
`,
    false,
  ],
];

describe("the instrumented replay's buffered stderr (the real machin and C compiler)", () => {
  it("is built with the compiler's temporary files in its own folder, never in the user's TMPDIR", async () => {
    // A compiler that says where it was told to write its temporary files, then compiles.
    const bin = tempDir('stderr-buffer-cc-');
    const said = path.join(bin, 'tmpdir-seen');
    const cc = path.join(bin, 'cc');
    writeFileSync(cc, `#!/bin/sh\nprintf '%s' "$TMPDIR" > '${said}'\nexec ${machinCCompiler()} "$@"\n`, { mode: 0o755 });
    const userTmp = tempDir('stderr-buffer-user-tmp-');
    const dir = tempDir('stderr-buffer-own-');
    const saved = { CC: process.env.CC, TMPDIR: process.env.TMPDIR };
    process.env.CC = cc;
    process.env.TMPDIR = userTmp;
    try {
      const built = await buildStderrBuffer(dir);
      assert.ok('preload' in built, JSON.stringify(built));
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    assert.equal(readFileSync(said, 'utf8'), dir, "the compiler's TMPDIR is the library's private folder");
    assert.deepEqual(readdirSync(userTmp), [], "nothing was written in the user's TMPDIR");
  });

  for (const [what, source, safe] of PROGRAMS) {
    it(`prints what machin's unbuffered stderr prints: ${what}`, { timeout: 300_000 }, async () => {
      const preload = await library();
      const dir = tempDir('stderr-buffer-run-');
      const { program, trace } = recordProgram(dir, 'p', source, { safe });
      // A deadlocked run's trace is cut where machin's buffer was (it exits before flushing), and a
      // cut trace can make a replay wait forever (3 of 12 recordings under load): the header
      // alone is what happens-before.test.ts replays too (machin then runs it into the deadlock).
      if (what.includes('deadlock')) writeFileSync(trace, `MFLRR 1\nboundary faithful\nprogram ${program}\nsafe 0\n`);
      const copy = await writeInstrumentedCopy(program);
      try {
        const retargeted = path.join(dir, 'instrumented.mflrr');
        writeFileSync(retargeted, readFileSync(trace, 'utf8').replace(/^program .*$/m, `program ${copy.file}`));
        const print = [...copy.table.probeNames, ...copy.table.paramProbes.map((p) => p.probe), 'i', 'j', 'k', 'v', 'total'].join(',');
        const plain = replayLines(retargeted, print, {});
        const buffered = replayLines(retargeted, print, preloadEnv(preload));
        assert.ok([...plain.probes.values()].reduce((n, l) => n + l.length, 0) > 4000, 'the programs print thousands of probes');
        assert.equal(buffered.exit, plain.exit);
        // (joined: a probe line can land inside the panic's pieces, splitting it in two)
        assert.equal(buffered.other.join(''), plain.other.join(''), 'the panic, deadlock report and verify line');
        // Each goroutine runs the same statements in the same order in every replay; how far one
        // that did not end the run got before the process ended is a race in both (with the buffer
        // it waits on the stream's lock from the end on). So one list is the start of the other,
        // and the goroutine that ended the run (the panicking one, else main) prints every line.
        const ender = what.includes('panic') ? '0.1' : '0';
        for (const g of new Set([...plain.probes.keys(), ...buffered.probes.keys()])) {
          const [a, b] = [plain.probes.get(g) ?? [], buffered.probes.get(g) ?? []];
          const [short, long] = a.length <= b.length ? [a, b] : [b, a];
          assert.deepEqual(short, long.slice(0, short.length), `goroutine ${g}: the same lines, one list the start of the other`);
          if (g === ender || what.includes('deadlock')) assert.equal(b.length, a.length, `goroutine ${g} ended the run (or waits in the deadlock): every line`);
        }
        if (what.includes('ends')) assert.ok(plain.other.some((l) => /^replay-verify: .* -> FAITHFUL$/.test(l)), plain.other.join('\n'));
        if (what.includes('deadlock')) assert.ok(plain.other.some((l) => l.startsWith('fatal: deadlock')), plain.other.join('\n'));
        if (what.includes('panic')) assert.match(plain.other.join(''), /^panic: integer divide by zero {2}\(replay: goroutine 0\.1,/);
      } finally {
        await copy.remove();
      }
    });
  }

  it('is active only in a replay with probes, and then buffers', async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    // Through the FILE, then straight to the descriptor: buffered, the second comes out first.
    const exe = cProgram(dir, 'order', '#include <stdio.h>\n#include <unistd.h>\nint main(void) { fputs("stdio\\n", stderr); write(2, "direct\\n", 7); return 0; }\n');
    const run = (env: Record<string, string>) => spawnSync(exe, { encoding: 'utf8', env: { PATH: process.env.PATH, ...preloadEnv(preload, {}), ...env } }).stderr;
    assert.equal(run({ MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1' }), 'direct\nstdio\n');
    assert.equal(run({ MFL_RR_REPLAY: '/t' }), 'stdio\ndirect\n', 'a replay without --print');
    assert.equal(run({}), 'stdio\ndirect\n', 'machin itself, the C compiler');
  });

  it("writes machin's probe line and integer exactly as glibc does, for any value, and leaves other formats to glibc", async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    const big = 'x'.repeat(100_000); // more than the 64 KiB buffer holds
    const exe = cProgram(
      dir,
      'formats',
      `#include <limits.h>
#include <stdio.h>
#include <string.h>
static char big[${big.length + 1}];
int main(void) {
  memset(big, 'x', ${big.length});
  long long ints[] = { 0, 7, -1, 1234567890123LL, LLONG_MAX, LLONG_MIN };
  int ops[] = { 0, 1, 600005, -3, INT_MAX, INT_MIN };
  for (int k = 0; k < 6; k++) {
    char v[24];
    int n = snprintf(v, 24, "%lld", ints[k]);
    int m = fprintf(stderr, "probe %s %s = %s @op%d\\n", k % 2 ? "0.1.2" : "0", "fr_stmt0", v, ops[k]);
    fprintf(stderr, "lengths %d %d\\n", n, m);
  }
  char small[5];
  int n = snprintf(small, sizeof small, "%lld", -123456LL); /* too small: glibc cuts it */
  fprintf(stderr, "cut %s %d\\n", small, n);
  char d[32];
  snprintf(d, 32, "%g", -0.0);
  fprintf(stderr, "probe %s %s = %s @op%d\\n", "0", "f", d, 2);
  fprintf(stderr, "probe %s %s = %s @op%d\\n", "0", "s", "", 3);
  int m = fprintf(stderr, "probe %s %s = %s @op%d\\n", "0", "big", big, 4);
  fprintf(stderr, "big %d\\n", m);
  fprintf(stderr, "probe %s %s = %s\\n", "0", "not machin's format", "x");
  return 0;
}
`,
    );
    const run = (env: Record<string, string>) => spawnSync(exe, { encoding: 'utf8', env: { PATH: process.env.PATH, ...preloadEnv(preload, {}), ...env }, maxBuffer: 1 << 24 }).stderr;
    const glibc = run({});
    const library_ = run({ MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1' });
    assert.ok(glibc.includes('probe 0 fr_stmt0 = 9223372036854775807 @op2147483647\n') && glibc.includes('probe 0.1.2 fr_stmt0 = -9223372036854775808 @op-2147483648\n'), glibc.slice(0, 600));
    assert.ok(glibc.includes('cut -123 7\n') && glibc.includes(`probe 0 big = ${big} @op4\nbig ${big.length + 20}\n`));
    assert.equal(library_, glibc);
  });

  it('a process that dies of a signal still gives every whole line it printed', async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    const exe = cProgram(dir, 'crash', '#include <signal.h>\n#include <stdio.h>\nint main(void) { for (int i = 0; i < 100000; i++) fprintf(stderr, "line %d\\n", i); raise(SIGFPE); return 0; }\n');
    const r = spawnSync(exe, { encoding: 'utf8', env: { PATH: process.env.PATH, MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1', ...preloadEnv(preload, {}) }, maxBuffer: 1 << 26 });
    assert.equal(r.signal, 'SIGFPE', 'the signal still ends it');
    assert.equal(r.stderr, Array.from({ length: 100000 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('threads still printing while exit() runs: no line twice, none torn (50 runs)', async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    const exe = cProgram(
      dir,
      'exit-race',
      `#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* machin's own two formats, which the library writes itself */
static void *spin(void *tag) {
  char g[24], i[24];
  snprintf(g, 24, "%lld", (long long)(long)tag);
  for (long long k = 0;; k++) { snprintf(i, 24, "%lld", k); fprintf(stderr, "probe %s %s = %s @op%d\\n", g, i, "some value to make the line longer", 0); }
  return NULL;
}
int main(void) {
  pthread_t t;
  for (long k = 1; k <= 3; k++) pthread_create(&t, NULL, spin, (void *)k);
  usleep(3000);
  fputs("main ends\\n", stderr);
  exit(0);
}
`,
      ['-pthread'],
    );
    for (let run = 0; run < 50; run++) {
      const r = spawnSync(exe, { encoding: 'utf8', env: { PATH: process.env.PATH, MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1', ...preloadEnv(preload, {}) }, maxBuffer: 1 << 28, timeout: 30_000 });
      assert.equal(r.status, 0, `run ${run}: ${r.signal ?? ''}`);
      const lines = r.stderr.split('\n');
      assert.equal(lines.pop(), '', `run ${run}: ends in a whole line`);
      const next = new Map<string, number>();
      for (const line of lines) {
        if (line === 'main ends') continue;
        const m = /^probe (\d) (\d+) = some value to make the line longer @op0$/.exec(line);
        assert.ok(m, `run ${run}: a torn line: ${JSON.stringify(line.slice(0, 200))}`);
        const want = next.get(m[1]) ?? 0;
        assert.equal(Number(m[2]), want, `run ${run}: thread ${m[1]} printed ${m[2]} after ${want - 1}`);
        next.set(m[1], want + 1);
      }
      assert.ok(lines.includes('main ends'), `run ${run}: main's last line`);
    }
  });
  it("holds a panic mark per thread: dropped at the thread's next probe, written as its statement probe just before that thread's panic", async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    // machin's calls as a --safe statements-only copy's replay makes them (mfl_rr_probe, mfl_panic)
    const exe = cProgram(
      dir,
      'marks',
      `#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void probe(const char *g, const char *name, const char *v, int op) { fprintf(stderr, "probe %s %s = %s @op%d\\n", g, name, v, op); }
static void *other(void *arg) { (void)arg; probe("0.1", "fr_mark0", "99", 3); return NULL; }
int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "end";
  probe("0", "fr_stmt0", "1", 0);
  probe("0", "fr_mark0", "17", 1);
  probe("0", "fr_stmt0", "2", 2);
  probe("0", "fr_mark0", "35", 4);
  probe("0", "fr_mark1", "36", 5);
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  pthread_join(t, NULL);
  if (strcmp(how, "end") == 0) return 0;
  if (strcmp(how, "crash") == 0) raise(SIGFPE);
  char id[400];
  memset(id, '7', sizeof id - 1);
  id[sizeof id - 1] = 0;
  if (strcmp(how, "long") == 0) probe(id, "fr_mark0", "18", 6); /* a line longer than the thread's own room */
  char text[] = "panic: boom";
  if (strcmp(how, "fputs") == 0) fputs(text, stderr); else { fwrite("panic: ", 1, 7, stderr); fputs("boom", stderr); }
  fputc('\\n', stderr);
  fprintf(stderr, "  (replay: goroutine 0, schedule op 5/9)\\n");
  exit(2);
}
`,
      ['-pthread'],
    );
    const run = (how: string, marks = 'fr_mark0=fr_stmt0,fr_mark1=fr_stmt1') =>
      spawnSync(exe, [how], { encoding: 'utf8', env: { PATH: process.env.PATH, MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1', ...(marks ? { FROZEN_RUN_PANIC_MARKS: marks } : {}), ...preloadEnv(preload, {}) } });
    const printed = 'probe 0 fr_stmt0 = 1 @op0\nprobe 0 fr_stmt0 = 2 @op2\n';
    // the last mark of the panicking thread (fr_mark1 stands for fr_stmt1), never the other thread's
    const panic = `${printed}probe 0 fr_stmt1 = 36 @op5\npanic: boom\n  (replay: goroutine 0, schedule op 5/9)\n`;
    assert.equal(run('end').stderr, printed, 'a run that ends writes no mark');
    assert.equal(run('fwrite').stderr, panic, "machin's panic report (fwrite, then fputs)");
    assert.equal(run('fputs').stderr, panic, 'a panic report written with fputs');
    assert.equal(run('long').stderr, `${printed}probe ${'7'.repeat(399)} fr_stmt0 = 18 @op6\npanic: boom\n  (replay: goroutine 0, schedule op 5/9)\n`, 'a long goroutine id');
    const crash = run('crash');
    assert.equal(crash.signal, 'SIGFPE');
    assert.equal(crash.stderr, `${printed}probe 0 fr_stmt1 = 36 @op5\n`, 'a crash by signal: the buffered lines, then the held one');
    // without the pairs, a mark is a probe like any other (the reader then refuses the replay)
    assert.match(run('end', '').stderr, /^probe 0 fr_stmt0 = 1 @op0\nprobe 0 fr_mark0 = 17 @op1\n/);
  });
  it("holds a panic cut beside the mark: a mark drops it, a probe drops both, a panic writes it just before the mark, under its own name", async () => {
    const preload = await library();
    const dir = tempDir('stderr-buffer-c-');
    // a caller's mark before its call of an unprinted helper, then the helper's cuts (instrument.ts, "Panic cuts")
    const exe = cProgram(
      dir,
      'cuts',
      `#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void probe(const char *g, const char *name, const char *v, int op) { fprintf(stderr, "probe %s %s = %s @op%d\\n", g, name, v, op); }
static void *other(void *arg) { (void)arg; probe("0.1", "fr_cut0", "9", 3); return NULL; }
int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "end";
  char id[400];
  memset(id, '7', sizeof id - 1);
  id[sizeof id - 1] = 0;
  const char *g = strcmp(how, "long") == 0 ? id : "0";
  probe(g, "fr_stmt0", "1", 0);
  probe(g, "fr_mark0", "27", 1);
  probe(g, "fr_cut0", "3", 1);
  probe(g, "fr_cut0", "4", 1);
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  pthread_join(t, NULL);
  if (strcmp(how, "end") == 0) return 0;
  if (strcmp(how, "crash") == 0) raise(SIGFPE);
  if (strcmp(how, "marked") == 0) probe(g, "fr_mark0", "29", 2); /* the helper returned; the caller marks its next statement */
  if (strcmp(how, "printed") == 0) probe(g, "fr_stmt0", "5", 2);
  fwrite("panic: ", 1, 7, stderr);
  fputs("boom\\n", stderr);
  exit(2);
}
`,
      ['-pthread'],
    );
    const run = (how: string) =>
      spawnSync(exe, [how], { encoding: 'utf8', env: { PATH: process.env.PATH, MFL_RR_REPLAY: '/t', MFL_RR_PROBE: '1', FROZEN_RUN_PANIC_MARKS: 'fr_mark0=fr_stmt0', FROZEN_RUN_PANIC_CUTS: 'fr_cut0', ...preloadEnv(preload, {}) } });
    const first = 'probe 0 fr_stmt0 = 1 @op0\n';
    assert.equal(run('end').stderr, first, 'a run that ends writes no cut and no mark');
    // the panicking thread's last cut (never the other thread's), then its mark as the statement probe
    assert.equal(run('panic').stderr, `${first}probe 0 fr_cut0 = 4 @op1\nprobe 0 fr_stmt0 = 27 @op1\npanic: boom\n`, 'a panic inside the helper');
    assert.equal(run('marked').stderr, `${first}probe 0 fr_stmt0 = 29 @op2\npanic: boom\n`, 'a mark after the helper returned drops its cut');
    assert.equal(run('printed').stderr, `${first}probe 0 fr_stmt0 = 5 @op2\npanic: boom\n`, 'a probe drops both');
    const long = 'probe ' + '7'.repeat(399);
    assert.equal(run('long').stderr, `${long} fr_stmt0 = 1 @op0\n${long} fr_cut0 = 4 @op1\n${long} fr_stmt0 = 27 @op1\npanic: boom\n`, 'a long goroutine id');
    const crash = run('crash');
    assert.equal(crash.signal, 'SIGFPE');
    assert.equal(crash.stderr, `${first}probe 0 fr_cut0 = 4 @op1\nprobe 0 fr_stmt0 = 27 @op1\n`, 'a crash by signal: the buffered lines, then the cut and the mark');
  });
});
