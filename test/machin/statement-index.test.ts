// Placing statement events among their goroutine's own schedule ops: by how many of its own ops
// are among the first P of the trace, whatever other goroutines did to the global counter P.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instrumentSource } from '../../replay-engine/machin/source/instrument';
import { StatementIndex } from '../../replay-engine/machin/source/statement-index';

const src = 'func worker(ch) { ch <- 1  ch <- 2 }\nfunc main() { ch := make(chan int)  go worker(ch)  a := <-ch  b := <-ch  println(str(a + b)) }\n';
const { table } = instrumentSource(src, 'p.mfl');
const id = (fn: string, kind: string, nth = 0): number => table.rows.filter((r) => table.functions[r.fn].name === fn && r.kind === kind)[nth].id;

describe('statement index', () => {
  // schedule: worker sends (0.1), main receives (0), worker sends, main receives, main prints
  const schedule = ['0.1', '0', '0.1', '0', '0'];
  const probes = [
    { goroutine: '0', statement: id('main', 'entry'), op: 0 },
    { goroutine: '0', statement: id('main', 'statement', 0), op: 0 },
    { goroutine: '0', statement: id('main', 'statement', 1), op: 0 },
    { goroutine: '0.1', statement: id('worker', 'entry'), op: 0 },
    { goroutine: '0.1', statement: id('worker', 'statement', 0), op: 0 },
    // main's probe before its first receive ran while the counter already showed worker's send
    { goroutine: '0', statement: id('main', 'statement', 2), op: 1 },
    { goroutine: '0.1', statement: id('worker', 'statement', 1), op: 2 },
    { goroutine: '0.1', statement: id('worker', 'exit'), op: 3 },
    { goroutine: '0', statement: id('main', 'statement', 3), op: 2 },
    { goroutine: '0', statement: id('main', 'statement', 4), op: 4 },
    { goroutine: '0', statement: id('main', 'exit'), op: 5 },
  ];
  const index = new StatementIndex(table, probes, schedule);

  it('counts own ops completed before each event, not the global counter', () => {
    assert.deepEqual([...index.goroutines.get('0')!.ownOps], [0, 0, 0, 0, 1, 2, 3]);
    assert.deepEqual([...index.goroutines.get('0.1')!.ownOps], [0, 0, 1, 2]);
  });

  it('maps each event to the global index of its goroutine\'s last op before it', () => {
    assert.deepEqual([0, 1, 2, 3].map((i) => index.globalAfter('0.1', i)), [-1, -1, 0, 2]);
    assert.deepEqual([3, 4, 5, 6].map((i) => index.globalAfter('0', i)), [-1, 1, 3, 4]);
  });

  it('keeps events, frames and op counts in typed arrays of four bytes an entry', () => {
    const g = index.goroutines.get('0')!;
    assert.ok(g.statements instanceof Uint32Array && g.ownOps instanceof Uint32Array && g.frames instanceof Int32Array);
    const events = 7 + 4;
    const frames = 2;
    assert.equal(index.byteLength(), events * 12 + frames * 8 + schedule.length * 4);
  });

  it('says when the probes are not a walk of the table: a statement outside the current frame', () => {
    const odd = new StatementIndex(table, [{ goroutine: '0', statement: id('main', 'entry'), op: 0 }, { goroutine: '0', statement: id('worker', 'statement', 0), op: 0 }], schedule);
    assert.equal(odd.goroutines.get('0')!.repairs, 1);
    assert.deepEqual(odd.stackAt('0', 1), ['worker']);
  });

  it('refuses a statement number the table does not have', () => {
    assert.throws(() => new StatementIndex(table, [{ goroutine: '0', statement: 999, op: 0 }], schedule), /statement 999/);
  });
});
