// The statement index and its queries, from hand-made walks (the real machin's walks are in
// instrumented-replay.test.ts and source-level.test.ts): placement among a goroutine's own ops
// whatever the global counter said, call stacks with the call site of each frame, the total
// order, stepping by statement both ways, line breakpoint hits, the statement of each op.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instrumentSource, type StatementTable } from '../../replay-engine/machin/source/instrument';
import { StatementIndex, type StatementProbe } from '../../replay-engine/machin/source/statement-index';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';

/** A trace timeline of `S G` records only, goroutines interned in order of first appearance (as the reader does). */
function timelineOf(schedule: string[], extraThreads: string[] = []): Timeline {
  const b = new TimelineBuilder(schedule.length, 1);
  const sched = b.internKind('sched', true);
  b.internKind('io', false);
  for (const g of schedule) b.add(sched, b.internThread(g));
  for (const g of extraThreads) b.internThread(g);
  return b.finish('mflrr', '/t/p.mflrr', [], 5);
}

/** Statement number by function, kind and line (nth among those). */
function idOf(table: StatementTable, fn: string, kind: string, line?: number, nth = 0): number {
  const rows = table.rows.filter((r) => table.functions[r.fn].name === fn && r.kind === kind && (line === undefined || r.line === line));
  if (!rows[nth]) throw new Error(`no ${kind} of ${fn} on line ${line}`);
  return rows[nth].id;
}

describe('statement index: placement among own ops', () => {
  const src = 'func worker(ch) { ch <- 1  ch <- 2 }\nfunc main() { ch := make(chan int)  go worker(ch)  a := <-ch  b := <-ch  println(str(a + b)) }\n';
  const { table } = instrumentSource(src, '/t/p.mfl');
  const id = (fn: string, kind: string, nth = 0) => idOf(table, fn, kind, undefined, nth);
  // schedule: worker sends (0.1), main receives (0), worker sends, main receives, main prints
  const schedule = ['0.1', '0', '0.1', '0', '0'];
  const tl = timelineOf(schedule);
  const [W, M] = [tl.threadIndex('0.1'), tl.threadIndex('0')];
  const probes: StatementProbe[] = [
    { thread: M, statement: id('main', 'entry'), op: 0 },
    { thread: M, statement: id('main', 'statement', 0), op: 0 },
    { thread: M, statement: id('main', 'statement', 1), op: 0 },
    { thread: W, statement: id('worker', 'entry'), op: 0 },
    { thread: W, statement: id('worker', 'statement', 0), op: 0 },
    // main's probe before its first receive ran while the counter already showed worker's send
    { thread: M, statement: id('main', 'statement', 2), op: 1 },
    { thread: W, statement: id('worker', 'statement', 1), op: 2 },
    { thread: W, statement: id('worker', 'exit'), op: 3 },
    { thread: M, statement: id('main', 'statement', 3), op: 2 },
    { thread: M, statement: id('main', 'statement', 4), op: 4 },
    { thread: M, statement: id('main', 'exit'), op: 5 },
  ];
  const index = StatementIndex.build(table, '/t/p.mfl', tl, probes);

  it('counts own ops completed before each event, not the global counter', () => {
    assert.deepEqual([...index.threads[M]!.ownOps], [0, 0, 0, 0, 1, 2, 3]);
    assert.deepEqual([...index.threads[W]!.ownOps], [0, 0, 1, 2]);
  });

  it('places each event right after its goroutine\'s last op before it, and names the record before it', () => {
    assert.deepEqual([0, 1, 2, 3].map((i) => index.positionOf(W, i)), [0, 0, 1, 3]);
    assert.deepEqual([3, 4, 5, 6].map((i) => index.positionOf(M, i)), [0, 2, 4, 5]);
    assert.deepEqual([0, 2, 3].map((i) => index.recordBefore(W, i)), [-1, 0, 2]);
  });

  it('one total order: by position, then parents before the goroutines they start, each goroutine\'s own order kept; seqOf and eventAt are inverse', () => {
    assert.equal(index.eventCount, 11);
    const seen = Array.from({ length: index.eventCount }, (_, q) => index.eventAt(q));
    // main (0) ranks before worker (0.1), though worker is thread 0 (first in the trace)
    const rank = (t: number) => (t === M ? 0 : 1);
    for (let q = 1; q < seen.length; q++) {
      const [a, b] = [seen[q - 1], seen[q]];
      const [pa, pb] = [index.positionOf(a.thread, a.event), index.positionOf(b.thread, b.event)];
      assert.ok(pa < pb || (pa === pb && (rank(a.thread) < rank(b.thread) || (a.thread === b.thread && a.event < b.event))), `seq ${q}`);
    }
    for (let q = 0; q < seen.length; q++) assert.equal(index.seqOf(seen[q].thread, seen[q].event), q);
    // at position 0 main runs up to its first receive, `go worker(ch)` among it, before worker's entry
    assert.deepEqual(seen.slice(0, 6).map((e) => `${e.thread}:${e.event}`), [`${M}:0`, `${M}:1`, `${M}:2`, `${M}:3`, `${W}:0`, `${W}:1`]);
  });

  it('the current statement of each goroutine as of a seq and as of a record', () => {
    const q = index.seqOf(W, 2); // worker's second send, placed after op 0
    assert.equal(index.currentEvent(W, q), 2);
    assert.equal(index.currentEvent(M, q), 3, 'main is at its first receive');
    assert.equal(index.currentEvent(W, -1), -1);
    // on record 1 (main's first receive, done): main is at that receive, worker at its second send
    assert.equal(index.currentEventAtRecord(M, 1), 3);
    assert.equal(index.currentEventAtRecord(W, 1), 2);
    assert.equal(index.currentEventAtRecord(M, -1), -1, 'nothing has run at the start');
    assert.equal(index.seqAtPosition(0), 0);
    assert.equal(index.seqAtPosition(tl.stepCount + 1), index.eventCount);
  });

  it('names the statement that performed each op', () => {
    const at = (k: number) => {
      const p = index.performerOfStep(k)!;
      const l = index.location(p.thread, p.event);
      return `${tl.threads[p.thread].id} ${l.line}:${l.column}`;
    };
    assert.deepEqual([0, 1, 2, 3, 4].map(at), ['0.1 1:19', '0 2:52', '0.1 1:28', '0 2:63', '0 2:74']);
    assert.equal(index.performerOfStep(5), null);
  });

  it('keeps events, frames and the order in typed arrays: statement numbers two bytes each in a small program', () => {
    const g = index.threads[M]!;
    assert.ok(g.statements instanceof Uint16Array && g.ownOps instanceof Uint32Array && g.frames instanceof Int32Array);
    const events = 11;
    const frames = 2;
    // statements 2 + ownOps 4 + frames 4 per event (the order: nothing, its threads are merged); function 2 + call 4 + depth 4 per frame; base 4 per thread + 1
    assert.equal(index.byteLength(), events * 10 + frames * 10 + (tl.threads.length + 1) * 4);
  });

  it('says when the probes are not a walk of the table: a statement outside the current frame', () => {
    const odd = StatementIndex.build(table, '/t/p.mfl', tl, [{ thread: M, statement: id('main', 'entry'), op: 0 }, { thread: M, statement: id('worker', 'statement', 0), op: 0 }]);
    assert.equal(odd.threads[M]!.repairs, 1);
    assert.deepEqual(odd.stack(M, 1).map((f) => f.function), ['worker']);
  });

  it('refuses a statement number the table does not have', () => {
    assert.throws(() => StatementIndex.build(table, '/t/p.mfl', tl, [{ thread: M, statement: 999, op: 0 }]), /statement 999/);
  });

  it('keeps what races with the end, marked: a goroutine\'s events after its last sure one are this replay\'s only', () => {
    // main's only op is op 0; the worker's op 1 may never happen before main exits
    const racy = timelineOf(['0', '0.1']);
    const [m, w] = [racy.threadIndex('0'), racy.threadIndex('0.1')];
    const walk = [
      { thread: m, statement: id('main', 'entry'), op: 0 },
      { thread: w, statement: id('worker', 'entry'), op: 0 },
      { thread: w, statement: id('worker', 'statement', 0), op: 1 },
    ];
    const kept = StatementIndex.build(table, '/t/p.mfl', racy, walk, (t) => (t === w ? 0 : 1));
    assert.equal(kept.eventsOf(w), 2, 'kept');
    assert.equal(kept.unsure, 2);
    assert.equal(kept.isSure(w, 0), false);
    assert.equal(kept.isSure(m, 0), true);
    assert.deepEqual(kept.performerOfStep(1), { thread: w, event: 1 }, 'the statement of a racing op is this replay\'s');
    const all = StatementIndex.build(table, '/t/p.mfl', racy, walk);
    assert.equal(all.unsure, 0, 'a deadlock prints every probe: all sure');
  });
});

describe('statement index: stacks, stepping and line hits in a recursive program', () => {
  const src = [
    'func fact(n) {',
    '    if n <= 1 { return 1 }',
    '    return n * fact(n - 1)',
    '}',
    'func main() {',
    '    x := fact(3)',
    '    i := 0',
    '    for i < 2 { i = i + 1 }',
    '    println(str(x))',
    '}',
    '',
  ].join('\n');
  const { table } = instrumentSource(src, '/t/f.mfl');
  const tl = timelineOf(['0']); // the println is main's only op
  const M = 0;
  const s = (fn: string, kind: string, line?: number, nth = 0) => idOf(table, fn, kind, line, nth);
  const walk = [
    s('main', 'entry'),
    s('main', 'statement', 6), // 1  x := fact(3)
    s('fact', 'entry'), // 2
    s('fact', 'statement', 2), // 3  if (n = 3)
    s('fact', 'return', 3), // 4  return n * fact(n - 1)
    s('fact', 'entry'), // 5
    s('fact', 'statement', 2), // 6  if (n = 2)
    s('fact', 'return', 3), // 7
    s('fact', 'entry'), // 8
    s('fact', 'statement', 2), // 9  if (n = 1)
    s('fact', 'return', 2), // 10 return 1
    s('main', 'statement', 7), // 11 i := 0
    s('main', 'statement', 8, 0), // 12 for
    s('main', 'statement', 8, 1), // 13 i = i + 1
    s('main', 'statement', 8, 1), // 14 i = i + 1
    s('main', 'statement', 9), // 15 println
    s('main', 'exit'), // 16
  ];
  const index = StatementIndex.build(table, '/t/f.mfl', tl, walk.map((statement, i) => ({ thread: M, statement, op: i === walk.length - 1 ? 1 : 0 })));
  const where = (e: number) => {
    const l = index.location(M, e);
    return `${l.function}:${l.line}:${l.column}`;
  };

  it('the stack at the deepest call: one frame per active call, each at its own statement', () => {
    assert.deepEqual(
      index.stack(M, 10).map((f) => `${f.function}:${f.line}:${f.column}`),
      ['fact:2:17', 'fact:3:5', 'fact:3:5', 'main:6:5'],
    );
    assert.deepEqual(index.stack(M, 10).map((f) => f.event), [10, 7, 4, 1]);
    assert.equal(index.depth(M, 10), 3);
    assert.deepEqual(index.stack(M, 11).map((f) => f.function), ['main'], 'all three returned');
    assert.equal(index.threads[M]!.repairs, 0);
  });

  it('Step Over, Into and Out, forward', () => {
    assert.equal(where(index.stepTarget(M, 1, 'over')), 'main:7:5', 'over the call');
    assert.equal(where(index.stepTarget(M, 1, 'into')), 'fact:2:5', 'into the call, past its entry');
    assert.equal(index.stepTarget(M, 6, 'over'), 7, 'the next statement of the same call');
    assert.equal(index.stepTarget(M, 7, 'over'), 11, 'over the inner calls; the callers have nothing left but main');
    assert.equal(index.stepTarget(M, 9, 'out'), 11, 'out of fact(1): the callers returned with it, so main');
    assert.equal(index.stepTarget(M, 15, 'over'), 16, 'the closing brace');
    assert.equal(index.stepTarget(M, 16, 'over'), -1);
    assert.equal(index.stepTarget(M, 16, 'out'), -1);
    assert.equal(index.stepTarget(M, -1, 'over'), 1, 'from before the start: the first statement');
  });

  it('their reverses', () => {
    assert.equal(index.stepTarget(M, 11, 'backOver'), 1, 'back over the call');
    assert.equal(index.stepTarget(M, 11, 'backInto'), 10, 'back into the deepest return');
    assert.equal(index.stepTarget(M, 6, 'backOut'), 4, 'to the call site in the caller');
    assert.equal(index.stepTarget(M, 3, 'backOver'), 1, 'from a first statement: the caller\'s call');
    assert.equal(index.stepTarget(M, 1, 'backOver'), -1);
    assert.equal(index.stepTarget(M, 1, 'backInto'), -1, 'main\'s entry is no stop');
    assert.equal(index.stepTarget(M, -1, 'backInto'), -1);
  });

  it('line breakpoints: verified lines, and one hit per arrival (per call, per loop iteration)', () => {
    assert.deepEqual(index.breakableLines(), [2, 3, 6, 7, 8, 9]);
    const hits = (line: number) => Array.from(index.lineHits(line), (q) => index.eventAt(q).event);
    assert.deepEqual(hits(2), [3, 6, 9], 'the if of each call; its return 1 on the same line is no new hit');
    assert.deepEqual(hits(3), [4, 7]);
    assert.deepEqual(hits(8), [12, 14], 'a one-line loop: the for, then each jump back in the body');
    assert.deepEqual(hits(6), [1]);
    assert.deepEqual(hits(1), [], 'no statement starts on a func line');
    assert.deepEqual(hits(10), []);
  });

  it('the op and the panic statement', () => {
    assert.deepEqual(index.performerOfStep(0), { thread: M, event: 15 });
    assert.equal(index.lastEvent(M), 16);
    assert.equal(index.lastEvent(5), -1);
  });
});

describe('statement index: the total order', () => {
  // Three goroutines taking turns, each with statement probes at random ops; the order is merged
  // thread by thread when their ops never go back, counted by position otherwise: the same order.
  const src = 'func worker(ch) { ch <- 1  ch <- 2  ch <- 3 }\nfunc main() { ch := make(chan int)  go worker(ch)  go worker(ch)  a := <-ch  println(str(a)) }\n';
  const { table } = instrumentSource(src, '/t/p.mfl');
  const stmts = table.rows.filter((r) => r.kind === 'statement').map((r) => r.id);
  const schedule = ['0', '0.1', '0.2', '0.1', '0', '0.2', '0.2', '0.1', '0', '0.1', '0.2', '0'];
  const tl = timelineOf(schedule);
  let seed = 7;
  const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const probesOf = (goBack: boolean): StatementProbe[] => {
    const out: StatementProbe[] = [];
    const op = [0, 0, 0];
    for (let k = 0; k < 90; k++) {
      const thread = Math.floor(next() * 3);
      if (next() < 0.3) op[thread] = Math.min(schedule.length, op[thread] + 1 + Math.floor(next() * 3));
      if (goBack && k === 60) op[thread] = 0; // (machin's counter going back: never seen, but handled)
      out.push({ thread, statement: stmts[Math.floor(next() * stmts.length)], op: op[thread] });
    }
    return out;
  };
  for (const goBack of [false, true]) {
    it(goBack ? 'a thread whose ops go back: listed by seq' : 'ops that never go back: merged (nothing kept per event), every query as the list by seq answers it', () => {
      const index = StatementIndex.build(table, '/t/p.mfl', tl, probesOf(goBack));
      const listed = new StatementIndex(table, '/t/p.mfl', tl, index.threads, true);
      const n = index.eventCount;
      // merged: the order holds nothing per event; listed: 4 bytes an event
      assert.equal(listed.byteLength() - index.byteLength(), goBack ? 0 : 4 * n);
      for (let q = 0; q < n; q++) assert.deepEqual(index.eventAt(q), listed.eventAt(q), `event at ${q}`);
      for (let t = 0; t < tl.threads.length; t++) {
        for (let e = 0; e < index.eventsOf(t); e++) assert.equal(index.seqOf(t, e), listed.seqOf(t, e), `seq of ${t}/${e}`);
        for (let q = -1; q <= n; q++) assert.equal(index.currentEvent(t, q), listed.currentEvent(t, q), `current event of ${t} at ${q}`);
      }
      for (let p = 0; p <= tl.stepCount + 1; p++) assert.equal(index.seqAtPosition(p), listed.seqAtPosition(p), `at position ${p}`);
      for (const line of index.breakableLines()) assert.deepEqual([...index.lineHits(line)], [...listed.lineHits(line)], `hits of line ${line}`);
      if (!goBack) {
        // asked for the event at a seq many times over (a log point's every arrival), it lists the order, the same
        for (let round = 0; round < 12; round++) for (let q = 0; q < n; q++) index.eventAt(q);
        assert.equal(index.byteLength(), listed.byteLength());
        for (let q = 0; q < n; q++) assert.deepEqual(index.eventAt(q), listed.eventAt(q), `event at ${q}, listed`);
      }
      // and it is the order of positions: they never go down along it
      const positions = Array.from({ length: n }, (_, q) => {
        const { thread, event } = index.eventAt(q);
        return index.positionOf(thread, event);
      });
      assert.ok(positions.every((p, q) => q === 0 || p >= positions[q - 1]), positions.join(','));
      // ties at one position: parents before children, each thread in its own order
      for (let q = 1; q < n; q++) {
        const a = index.eventAt(q - 1);
        const b = index.eventAt(q);
        if (positions[q] !== positions[q - 1]) continue;
        if (a.thread === b.thread) assert.ok(b.event > a.event);
        else assert.ok(a.thread < b.thread, `${a.thread} then ${b.thread} at position ${positions[q]}`);
      }
    });
  }
});
