// The statements-only replay (issue 26: a line per op, call and return, not per statement) held to
// a probe before every statement, with the real machin 0.137.0 on programs recorded here, in a
// --safe build (where `+`, `-` and `*` can panic) and a plain one: loops with calls, returns in the
// middle of a block, `continue` and `break`, a range, a select, recursion, panics in the middle of
// a block (a division, an index, an overflow, an `else if`'s test), one-line loop bodies and
// function literals.
// Two truths, both replayed by machin:
// - test/support/truth-probes.ts: a probe before every statement line, made by lines (not by the
//   product's statement model), with the values of the program's variables before each statement.
//   Per goroutine, the statements that surely ran, and the values before each, equal the truth's.
// - machin's own statement probes of the per-statement copy (a probe before every statement,
//   read here by the test's own line parser): per goroutine, the same statements in the same
//   order; and the index built from them has the same frames and positions at every event.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import type { Recording } from '../../replay-engine/model/recording';
import { instrumentProgram, instrumentStatementsOnly, statementsOnlyPrinted, type StatementTable } from '../../replay-engine/machin/source/instrument';
import { StatementIndex } from '../../replay-engine/machin/source/statement-index';
import { mflProgram } from '../../replay-engine/machin/mfl-program';
import { machinPath, pointTraceAt, probeLines, recordProgram, runMachin, type ProbeLine } from '../support/machin';
import { productStatements, truthReplay } from '../support/truth-probes';
import { tempDir } from './support';
import { panicMarksEnv, preloadEnv, sharedStderrBuffer } from '../../replay-engine/machin/source/stderr-buffer';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const MACHIN = machinPath();

/**
 * Loops with a call per item, a return in the middle of a block, continue and break, a range, a
 * select, recursion; a straight-line helper (twice: in a plain build its calls print nothing, the
 * statements it runs are known from the text) and one that is also a goroutine (note: printed);
 * in a plain build, helpers that branch and loop but only compute (scale, fact, sumTo calling bump
 * in a loop long enough to fill its local) print their own runs, which go after their callers'
 * calling statements (CallSplicer).
 */
const CALLS = `func twice(x) {
    y2 := x * 2
    return y2
}

func note(x, out) {
    k := x % 3
    out <- k
}

func third(x) {
    t3 := x % 3
    return t3
}

func scale(x) {
    if x % 5 == 0 {
        return 0
    }
    y := x * 2
    z := y + 1
    return z
}

func fact(n) {
    if n <= 1 {
        return 1
    }
    r := n * fact(n - 1)
    return r
}

func bump(x) {
    if x > 2 {
        return x + 1
    }
    return x
}

func sumTo(n) {
    s := 0
    k := 0
    for k < n {
        s = s + bump(k)
        k = k + 1
    }
    return s
}

func producer(out, n) {
    i := 0
    for i < n {
        v := scale(i)
        w := twice(v) + 1
        out <- w
        i = i + 1
    }
    close(out)
}

func sums(xs, done) {
    total := 0
    for k, x := range xs {
        if x == 3 {
            continue
        }
        if x > 7 {
            break
        }
        total = total + x * k
    }
    j := 0
    for {
        j = j + 1
        if j >= 4 {
            break
        }
    }
    done <- total + j
}

func main() {
    ch := make(chan int)
    done := make(chan int)
    go producer(ch, 12)
    xs := []int{1, 2, 3, 4, 5, 8, 9}
    go sums(xs, done)
    got := 0
    acc := 0
    for item := range ch {
        acc = acc + item
        got = got + 1
    }
    f := fact(5)
    notes := make(chan int)
    go note(f, notes)
    nt := <-notes
    m3 := third(nt)
    f = f + (m3 * 2)
    st := sumTo(20)
    b1 := bump(1)
    b2 := bump(5)
    f = f + st + b1 + b2
    select {
    case s := <-done:
        acc = acc + s
    }
    println(str(acc + f))
}
`;

/** A division by zero in the middle of a goroutine's block, after statements that cannot panic (kept, not printed, until it). */
const DIVIDE_MID_BLOCK = `func divide(a, b, out) {
    c := a
    d := b
    same := c == d
    e := c / d
    f := e + 1
    out <- f
}

func main() {
    out := make(chan int)
    k := 3
    m := k - 3
    go divide(k, m, out)
    n := k * 2
    r := <-out
    println(str(r + n))
}
`;

/** An index out of range in the middle of main's block, after a call that returned early. */
const INDEX_MID_BLOCK = `func pick(xs, i) {
    if i > 0 {
        return i + 1
    }
    return 0
}

func main() {
    xs := []int{1, 2}
    i := 0
    j := i + 1
    k := pick(xs, j)
    l := k + 2
    n := l
    big := n > 1
    m := xs[n]
    println(str(m))
}
`;

/** An overflow in the middle of a loop body (a --safe build panics at the `*`). */
const OVERFLOW_MID_BLOCK = `func grow(seed, done) {
    p := seed
    n := 0
    for n < 100 {
        q := n + 1
        p = p * seed
        n = q
    }
    done <- p
}

func main() {
    done := make(chan int)
    go grow(7, done)
    r := <-done
    println(str(r))
}
`;

/**
 * Branches whose tests only compute (kept in the local, not printed) before one whose `else if`
 * divides by a name and panics (a --safe build), in the middle of a goroutine's block.
 */
const BRANCH_MID_BLOCK = `func check(a, b, out) {
    c := a
    if c < 0 {
        c = 0
    } else if c > 100 {
        c = 100
    }
    n := 0
    for n < 3 {
        if n % 2 == 0 {
            c = c + 1
        } else {
            c = c + 2
        }
        n = n + 1
    }
    d := b
    if c == d {
        d = d + 1
    } else if c / d > 1 {
        d = 2
    }
    out <- d
}

func main() {
    out := make(chan int)
    go check(3, 0, out)
    r := <-out
    println(str(r))
}
`;

/**
 * An overflow in a loop's test (a --safe build panics at `k * k` after the body ran): the body's
 * statements are kept unprinted and marked, so only the stderr library's held mark prints them.
 */
const LOOP_TEST_OVERFLOW = `func climb(start, done) {
    k := start
    steps := 0
    for k * k > 0 {
        steps = steps + 1
        k = k * 3
    }
    done <- steps
}

func main() {
    done := make(chan int)
    go climb(5, done)
    r := <-done
    println(str(r))
}
`;

/** An overflow in a function literal a goroutine calls (its statements are one level in: fr_stmt1, fr_mark1). */
const LITERAL_OVERFLOW = `func run(done) {
    grow := func(x) {
        y := 0
        for y < 100 {
            x = x * 7
            y = y + 1
        }
        return x
    }
    done <- grow(3)
}

func main() {
    done := make(chan int)
    go run(done)
    r := <-done
    println(str(r))
}
`;

/**
 * An overflow in the middle of a straight-line helper (a --safe build panics at `y * 5` on the
 * 27th call): nobody prints the helper's statements, so the stderr library's held cut says how far
 * it got, and the caller's held mark what ran before the call.
 */
const HELPER_OVERFLOW = `func scale(x) {
    y := x + 1
    z := y * 5
    return z - 1
}

func grow(seed, done) {
    v := seed
    n := 0
    for n < 100 {
        v = scale(v)
        n = n + 1
    }
    done <- v
}

func main() {
    done := make(chan int)
    go grow(3, done)
    r := <-done
    println(str(r))
}
`;

/** An overflow in a one-line helper's return, called from a function literal (its caller's mark is fr_mark1). */
const HELPER_RETURN_OVERFLOW = `func triple(x) { return x * 3 }

func run(done) {
    climb := func(k) {
        for k > 0 {
            k = triple(k)
        }
        return k
    }
    done <- climb(1)
}

func main() {
    done := make(chan int)
    go run(done)
    r := <-done
    println(str(r))
}
`;

/**
 * An overflow in a loop's test right after a straight-line helper ran whole (a --safe build panics
 * at `k * k`): the cut the helper left is no longer how far it got, and must not be written.
 */
const HELPER_THEN_TEST_OVERFLOW = `func double(x) {
    y := x * 2
    return y
}

func climb(start, done) {
    k := start
    for k * k > 0 {
        k = double(k)
    }
    done <- k
}

func main() {
    done := make(chan int)
    go climb(5, done)
    r := <-done
    println(str(r))
}
`;

/** One-line loop bodies and function literals (called, and run as a goroutine): the per-statement copy is their truth. */
const LITERALS = `func apply(f, x) { return f(x) }
func counter(k, done) { step := func(s) { return s + 1 }  s := 0  for s < k { s = step(s) }  done <- s }
func main() {
    n := 0
    add := func(a) { b := a + n  return b * 2 }
    i := 0  for i < 5 { n = n + apply(add, i)  i = i + 1 }
    done := make(chan int)
    go counter(3, done)
    r := <-done
    t := 0  for t < 3 { t = t + 1 }
    println(str(n + r + t))
}
`;

interface Shape {
  name: string;
  source: string;
  safe: boolean;
  /** Watched by the line-made truth; null: the program is not one statement per line (the per-statement copy is its truth). */
  names: string[] | null;
  /**
   * Whether the line-made truth's values are comparable: it keeps one value per name and goroutine
   * (not per frame, and no parameters), so only in programs whose goroutines call no function.
   */
  values: boolean;
  panic: string | null;
  /** The statements-only copy has panic marks (a --safe build with statements that only an overflow check can fail). */
  marks?: true;
  /** And panic cuts (a straight-line helper that only an overflow check can fail, left unprinted). */
  cuts?: true;
}

const SHAPES: Shape[] = [
  { name: 'calls', source: CALLS, safe: true, names: [], values: false, panic: null },
  { name: 'calls', source: CALLS, safe: false, names: [], values: false, panic: null },
  // (a plain build checks no division and no index: only a --safe one panics there)
  { name: 'divide', source: DIVIDE_MID_BLOCK, safe: true, names: ['c', 'd', 'same', 'e', 'k', 'm', 'n', 'r'], values: true, panic: 'integer divide by zero' },
  { name: 'index', source: INDEX_MID_BLOCK, safe: true, names: [], values: false, panic: 'index out of range [4] with length 2' },
  { name: 'overflow', source: OVERFLOW_MID_BLOCK, safe: true, names: ['p', 'n', 'q', 'r'], values: true, panic: 'integer overflow (*)', marks: true },
  { name: 'loop-test-overflow', source: LOOP_TEST_OVERFLOW, safe: true, names: null, values: false, panic: 'integer overflow (*)', marks: true },
  { name: 'literal-overflow', source: LITERAL_OVERFLOW, safe: true, names: null, values: false, panic: 'integer overflow (*)', marks: true },
  { name: 'helper-overflow', source: HELPER_OVERFLOW, safe: true, names: null, values: false, panic: 'integer overflow (*)', marks: true, cuts: true },
  { name: 'helper-return-overflow', source: HELPER_RETURN_OVERFLOW, safe: true, names: null, values: false, panic: 'integer overflow (*)', marks: true, cuts: true },
  { name: 'helper-then-test-overflow', source: HELPER_THEN_TEST_OVERFLOW, safe: true, names: null, values: false, panic: 'integer overflow (*)', marks: true, cuts: true },
  { name: 'overflow', source: OVERFLOW_MID_BLOCK, safe: false, names: ['p', 'n', 'q', 'r'], values: true, panic: null },
  { name: 'branch', source: BRANCH_MID_BLOCK, safe: true, names: null, values: false, panic: 'integer divide by zero' },
  { name: 'literals', source: LITERALS, safe: true, names: null, values: false, panic: null },
  { name: 'literals', source: LITERALS, safe: false, names: null, values: false, panic: null },
];

async function enriched(trace: string, dir: string): Promise<{ rec: Recording; output: string[] }> {
  const rec = await readMflrr(trace);
  const output: string[] = [];
  await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 60_000, onOutput: (t) => output.push(t) });
  return { rec, output };
}


/**
 * machin's statement probes of the per-statement copy (a probe before every statement, the
 * product's instrumentProgram), read with the test's own parser: per goroutine, the statements in
 * the order it ran them, and the lines machin printed.
 */
function perStatementProbes(trace: string, program: string, dir: string): { byGoroutine: Map<string, number[]>; lines: number; probes: ProbeLine[]; table: StatementTable } {
  const copyDir = path.join(dir, 'per-statement');
  mkdirSync(copyDir, { recursive: true });
  const ins = instrumentProgram(mflProgram(readFileSync(program, 'utf8'), program));
  const copy = path.join(copyDir, path.basename(program));
  writeFileSync(copy, ins.text);
  const pointed = pointTraceAt(trace, copy, path.join(copyDir, path.basename(trace)));
  const r = runMachin(['replay', pointed, '--verify', '--print', ins.table.probeNames.join(',')], { timeoutMs: 60_000 });
  assert.equal(r.timedOut, false, 'the per-statement replay ended');
  const names = new Set(ins.table.probeNames);
  const byGoroutine = new Map<string, number[]>();
  const probes = probeLines(r.stderr).filter((p) => names.has(p.name));
  for (const p of probes) {
    const list = byGoroutine.get(p.goroutine) ?? [];
    byGoroutine.set(p.goroutine, list);
    list.push(Number(p.value));
  }
  return { byGoroutine, lines: probes.length, probes, table: ins.table };
}

/** How many lines the statements-only copy makes machin print, replayed by the test itself. */
/**
 * How many lines the statements-only copy makes machin print, replayed by the test itself as the
 * product replays it: with panic marks (`marks`) the stderr library loaded, holding them.
 */
async function statementsOnlyLines(trace: string, program: string, dir: string, safe: boolean, marks: boolean): Promise<number> {
  const copyDir = path.join(dir, marks ? 'statements-only-marked' : 'statements-only');
  mkdirSync(copyDir, { recursive: true });
  const ins = instrumentStatementsOnly(mflProgram(readFileSync(program, 'utf8'), program), safe, marks);
  const copy = path.join(copyDir, path.basename(program));
  writeFileSync(copy, ins.text);
  const pointed = pointTraceAt(trace, copy, path.join(copyDir, path.basename(trace)));
  const buffer = await sharedStderrBuffer();
  assert.ok('preload' in buffer, JSON.stringify(buffer));
  const env = marks ? { ...preloadEnv(buffer.preload), ...panicMarksEnv(ins.table) } : {};
  const r = runMachin(['replay', pointed, '--verify', '--print', statementsOnlyPrinted(ins.table).join(',')], { timeoutMs: 60_000, env });
  assert.ok(!/ fr_mark/.test(r.stderr), 'no mark printed as such');
  assert.ok((r.stderr.match(/ fr_cut/g) ?? []).length <= 1, 'a cut printed only where the panic is');
  return probeLines(r.stderr).length;
}

describe('the statements-only replay against a probe before every statement (real machin)', () => {
  for (const shape of SHAPES) {
    const build = shape.safe ? '--safe' : 'plain';
    it(`${shape.name} (${build} build): every goroutine's statements, frames${shape.values ? ' and values' : ''} are the per-statement truth's; the statements come from the statements-only replay`, async () => {
      const dir = tempDir(`so-${shape.name}-${build}-`);
      const { trace, program, record } = recordProgram(dir, shape.name, shape.source, { safe: shape.safe });
      if (shape.panic) assert.ok(record.stderr.includes(`panic: ${shape.panic}`), `the recorded run panicked as meant: ${record.stderr}`);
      const { rec, output } = await enriched(trace, dir);
      const why = JSON.stringify(rec.warnings);
      assert.deepEqual(rec.sourceLevel, { state: 'ready' }, why);
      assert.ok(!rec.warnings.some((w) => w.code === 'values-unplaced'), `the values' replay ran the statements' statements: ${why}`);
      // the statements came from the statements-only copy's replay (its probes alone), the values from a third
      const started = output.filter((o) => o.startsWith('$ '));
      assert.equal(started.length, 3, started.join(''));
      assert.match(started[0], / replay \S+ --verify --print fr_stmt0(,fr_stmt1)?(,fr_mark0(,fr_mark1)?(,fr_cut0)?)?\n$/);
      // a --safe build's statements that only an overflow check can fail are marked, not printed before
      if (shape.marks) assert.match(started[0], /FROZEN_RUN_PANIC_MARKS=fr_mark0=fr_stmt0.* --print fr_stmt0(,fr_stmt1)?,fr_mark0/);
      if (!shape.safe) assert.doesNotMatch(started[0], /fr_mark/);
      // ... and a straight-line helper that only an overflow check can fail is not printed at all
      if (shape.cuts) assert.match(started[0], /FROZEN_RUN_PANIC_CUTS=fr_cut0 .* --print \S*,fr_cut0\n$/);
      assert.equal(rec.panic?.message ?? null, shape.panic);
      const tl = rec.timeline;
      assert.ok(rec.statements instanceof StatementIndex);
      const s = rec.statements;
      if (shape.panic) {
        const t = rec.panic!.thread;
        assert.equal(s.positionOf(t, s.lastEvent(t)), rec.panic!.position, 'the panicking statement is at the panic');
      }

      // 1. machin's probes of the per-statement copy: the same statements in each goroutine's order.
      const truth = perStatementProbes(trace, program, dir);
      for (const [g, ids] of truth.byGoroutine) {
        const t = tl.threadIndex(g);
        assert.ok(t >= 0, `goroutine ${g} is a thread`);
        const mine = Array.from(s.threads[t]?.statements ?? []);
        const sure = s.sureEventsOf(t);
        assert.ok(sure > 0, `goroutine ${g} surely ran statements`);
        assert.deepEqual(mine.slice(0, sure), ids.slice(0, sure), `goroutine ${g}: its statements that surely ran are the per-statement replay's`);
        const both = Math.min(mine.length, ids.length);
        assert.deepEqual(mine.slice(0, both), ids.slice(0, both), `goroutine ${g}: and so are the rest, where both printed them`);
        // the panicking goroutine printed every statement up to the panic in both: all of them, the last the panic's
        if (shape.panic && t === rec.panic!.thread) assert.deepEqual(mine, ids, `goroutine ${g}: every statement up to the panic`);
      }
      for (let t = 0; t < tl.threads.length; t++) {
        if (s.eventsOf(t) > 0) assert.ok(truth.byGoroutine.has(tl.threads[t].id), `goroutine ${tl.threads[t].id} ran statements in the per-statement replay too`);
      }
      // ... and so the same frames and positions at every event that surely ran as the index of
      // the per-statement probes (each at machin's own @op).
      const perStatement = StatementIndex.build(truth.table, program, tl, truth.probes.map((p) => ({ thread: tl.threadIndex(p.goroutine), statement: Number(p.value), op: p.op })));
      for (let t = 0; t < tl.threads.length; t++) {
        for (let e = 0; e < Math.min(s.sureEventsOf(t), perStatement.eventsOf(t)); e++) {
          const where = `goroutine ${tl.threads[t].id}, event ${e} (line ${s.location(t, e).line})`;
          assert.deepEqual(s.stack(t, e), perStatement.stack(t, e), `${where}: its frames`);
          assert.equal(s.positionOf(t, e), perStatement.positionOf(t, e), `${where}: its position among the ops`);
        }
      }

      // 2. the line-made truth, where the program is one statement per line: statements (and values).
      if (shape.names) {
        const lineTruth = truthReplay(trace, program, shape.names);
        for (const [g, expected] of lineTruth.byGoroutine) {
          const t = tl.threadIndex(g);
          const mine = productStatements(rec, t, shape.names);
          const sure = mine.filter((m) => m.sure);
          assert.deepEqual(
            sure.map(({ line, column, values }) => ({ line, column, ...(shape.values ? { values } : {}) })),
            expected.slice(0, sure.length).map(({ line, column, values }) => ({ line, column, ...(shape.values ? { values } : {}) })),
            `goroutine ${g}: the statements that surely ran${shape.values ? ' and the values before each' : ''} equal the truth's`,
          );
        }
      }

      // 3. machin printed fewer lines for the statements than a probe before every statement.
      const lines = await statementsOnlyLines(trace, program, dir, shape.safe, shape.safe);
      assert.ok(lines < truth.lines, 'fewer lines than per statement');
      // 4. and, with panic marks, fewer than printing before each statement an overflow check can fail
      if (shape.marks) assert.ok(lines < (await statementsOnlyLines(trace, program, dir, shape.safe, false)), 'fewer lines with panic marks');
    });
  }
});
