// A statements-only run's template (run-template.ts) writes the events and frames the index
// builder writes statement by statement: the same columns, frames, call sites, depths, `go`s and
// own-op counts, on any walk (valid ones, and ones that need repairs, where the template must
// step aside), and whatever state the thread is in when a run that was seen before comes again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instrumentSource, type StatementTable } from '../../replay-engine/machin/source/instrument';
import { StatementIndexBuilder, type ThreadStatements } from '../../replay-engine/machin/source/statement-index';
import { PrintedRun, runTemplate } from '../../replay-engine/machin/source/run-template';
import { rowCodes } from '../../replay-engine/machin/source/row-codes';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';

const SRC = [
  'func leaf(x) { y := x * 2  return y }',
  'func mid(x) { a := leaf(x)  return leaf(a) + leaf(1) }',
  'func pick(x) { if x > 1 { return mid(x) }  return 0 }',
  'func worker(ch) { ch <- pick(3)  go leaf(1)  i := 0  for i < 2 { ch <- leaf(i)  i = i + 1 } }',
  'func main() { ch := make(chan int)  go worker(ch)  v := <-ch  println(str(v)) }',
  '',
].join('\n');

function timelineOf(schedule: string[]): Timeline {
  const b = new TimelineBuilder(schedule.length, 1);
  const sched = b.internKind('sched', true);
  b.internKind('io', false);
  for (const g of schedule) b.add(sched, b.internThread(g));
  return b.finish('mflrr', '/t/p.mflrr', [], 5);
}

/** A small deterministic generator (the test is the same on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Statement ids of `fn` of `kind`, in table order. */
function ids(table: StatementTable, fn: string, kind?: string): number[] {
  return table.rows.filter((r) => table.functions[r.fn].name === fn && (kind === undefined || r.kind === kind)).map((r) => r.id);
}

function columns(t: ThreadStatements | undefined): unknown {
  if (!t) return null;
  return {
    statements: [...t.statements],
    ownOps: [...t.ownOps],
    frames: [...t.frames],
    frameFunction: [...t.frameFunction],
    frameCall: [...t.frameCall],
    frameDepth: [...t.frameDepth],
    repairs: t.repairs,
  };
}

describe('statements-only runs by template', () => {
  const { table } = instrumentSource(SRC, '/t/p.mfl');
  const tl = timelineOf(['0', '0.1', '0', '0.1', '0.1', '0', '0.1', '0', '0.1', '0']);
  const T = tl.threadIndex('0.1');
  // Runs machin could print (a call of leaf inside a statement of worker, mid calling leaf three
  // times, a loop body) and runs no walk gives (a statement of another function: a repair).
  const leaf = [...ids(table, 'leaf')];
  const mid = ids(table, 'mid');
  const [workerEntry] = ids(table, 'worker', 'entry');
  const worker = ids(table, 'worker', 'statement');
  const midEntry = ids(table, 'mid', 'entry')[0];
  const [midA, midReturn] = ids(table, 'mid').filter((id) => id !== midEntry);
  const pool: number[][] = [
    [worker[0], ...ids(table, 'pick', 'entry'), ids(table, 'pick', 'statement')[0]],
    [worker[0], ...leaf],
    [...leaf],
    [midEntry, midA, ...leaf, midReturn, ...leaf, ...leaf],
    [worker[1], worker[2]],
    [worker[2], worker[3] ?? worker[2], ...leaf],
    [mid[1]],
    [ids(table, 'main', 'statement')[0]],
    [ids(table, 'worker', 'exit')[0]],
    [ids(table, 'pick', 'return')[1] ?? ids(table, 'pick', 'return')[0]],
  ];

  it('finds templates that hold, and steps aside where a run leaves its starting frame or repairs', () => {
    const codes = rowCodes(table);
    const workerFn = table.rows[workerEntry - 1].fn;
    const inWorker = runTemplate(codes, Int32Array.from([worker[0], ...leaf]), workerFn);
    assert.equal(inWorker.ok, true);
    assert.deepEqual([...inWorker.frame], [0, 1, 1, 1]);
    assert.deepEqual([...inWorker.newDepth], [1]);
    // a statement of worker run while the top frame is mid's: a repair, so no template
    assert.equal(runTemplate(codes, Int32Array.from([worker[0]]), table.rows[midEntry - 1].fn).ok, false);
    // worker's end leaves the starting frame
    assert.equal(runTemplate(codes, Int32Array.from(ids(table, 'worker', 'exit')), workerFn).ok, false);
  });

  for (let seed = 1; seed <= 40; seed++) {
    it(`gives the columns statement-by-statement adds give (walk ${seed})`, () => {
      const next = random(seed);
      const byStatement = new StatementIndexBuilder(table, '/t/p.mfl', tl);
      const byRun = new StatementIndexBuilder(table, '/t/p.mfl', tl);
      const printed = pool.map((r) => new PrintedRun(Int32Array.from(r)));
      let op = 0;
      const first = new PrintedRun(Int32Array.from([workerEntry]));
      for (const p of [first, ...Array.from({ length: 60 }, () => printed[Math.floor(next() * printed.length)])]) {
        if (next() < 0.2) op = Math.min(tl.stepCount, op + 1);
        for (const id of p.ids) byStatement.add(T, id, op);
        byRun.addPrinted(T, p, op);
      }
      const a = byStatement.finish();
      const b = byRun.finish();
      assert.deepEqual(columns(b.threads[T]), columns(a.threads[T]));
      assert.deepEqual(byRun.taken(T), byStatement.taken(T));
    });
  }
});
