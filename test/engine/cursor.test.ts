// The cursor: stepping properties over random timelines (fast-check), and per-goroutine queries
// against values computed by hand from the fixtures and against machin's own causal chains.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { Cursor } from '../../replay-engine/model/cursor';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';
import { MACHIN_FIXTURES } from '../support/paths';

const ROOT = MACHIN_FIXTURES;

/** A timeline from a list of [thread, isStep] records. */
function timelineOf(records: Array<[number, boolean]>, threads: number): Timeline {
  const b = new TimelineBuilder(records.length, 0);
  const sched = b.internKind('sched', true);
  const io = b.internKind('io', false);
  for (let t = 0; t < threads; t++) b.internThread(t === 0 ? '0' : `0.${t}`);
  for (const [t, step] of records) b.add(step ? sched : io, t);
  return b.finish('mflrr', '/x.mflrr', [], 5);
}

type Move = { kind: 'fwd' | 'back' } | { kind: 'tfwd' | 'tback'; thread: number };

function apply(c: Cursor, m: Move): boolean {
  switch (m.kind) {
    case 'fwd': return c.stepForward();
    case 'back': return c.stepBack();
    case 'tfwd': return c.stepThreadForward(m.thread);
    case 'tback': return c.stepThreadBack(m.thread);
  }
}

function inverse(m: Move): Move {
  switch (m.kind) {
    case 'fwd': return { kind: 'back' };
    case 'back': return { kind: 'fwd' };
    case 'tfwd': return { kind: 'tback', thread: m.thread };
    case 'tback': return { kind: 'tfwd', thread: m.thread };
  }
}

const THREADS = 4;
const arbTimeline = fc.array(fc.tuple(fc.integer({ min: 0, max: THREADS - 1 }), fc.boolean()), { maxLength: 60 });
const arbMove: fc.Arbitrary<Move> = fc.oneof(
  fc.constant<Move>({ kind: 'fwd' }),
  fc.constant<Move>({ kind: 'back' }),
  fc.integer({ min: 0, max: THREADS - 1 }).map((thread): Move => ({ kind: 'tfwd', thread })),
  fc.integer({ min: 0, max: THREADS - 1 }).map((thread): Move => ({ kind: 'tback', thread })),
);

describe('cursor stepping', () => {
  it('any sequence of moves followed by its reverse returns to the same position', () => {
    fc.assert(
      fc.property(arbTimeline, fc.nat(), fc.array(arbMove, { maxLength: 80 }), (records, start, moves) => {
        const tl = timelineOf(records, THREADS);
        const c = new Cursor(tl);
        c.moveTo(start % (tl.stepCount + 1));
        const p0 = c.position;
        const done: Move[] = [];
        for (const m of moves) if (apply(c, m)) done.push(m);
        for (const m of done.reverse()) assert.ok(apply(c, inverse(m)), `the inverse of ${m.kind} did not move`);
        assert.equal(c.position, p0);
      }),
      { numRuns: 500 },
    );
  });

  it('a thread step forward lands just after a step of that thread, with none of its steps skipped', () => {
    fc.assert(
      fc.property(arbTimeline, fc.nat(), fc.integer({ min: 0, max: THREADS - 1 }), (records, start, t) => {
        const tl = timelineOf(records, THREADS);
        const c = new Cursor(tl);
        c.moveTo(start % (tl.stepCount + 1));
        const p = c.position;
        if (!c.stepThreadForward(t)) {
          for (let k = p; k < tl.stepCount; k++) assert.notEqual(c.threadOfStep(k), t);
          assert.equal(c.position, p);
          return;
        }
        const q = c.position;
        assert.equal(c.threadOfStep(q - 1), t);
        for (let k = p; k < q - 1; k++) assert.notEqual(c.threadOfStep(k), t);
      }),
      { numRuns: 300 },
    );
  });

  it('a thread step back from anywhere lands after the thread\'s previous step (or at 0)', () => {
    fc.assert(
      fc.property(arbTimeline, fc.nat(), fc.integer({ min: 0, max: THREADS - 1 }), (records, start, t) => {
        const tl = timelineOf(records, THREADS);
        const c = new Cursor(tl);
        c.moveTo(start % (tl.stepCount + 1));
        const p = c.position;
        const moved = c.stepThreadBack(t);
        assert.equal(moved, p > 0);
        const q = c.position;
        if (q > 0) assert.equal(c.threadOfStep(q - 1), t);
        for (let k = Math.max(q, 0); k < p - 1; k++) assert.notEqual(c.threadOfStep(k), t);
      }),
      { numRuns: 300 },
    );
  });

  it('findForward and findBackward agree with a linear scan', () => {
    fc.assert(
      fc.property(arbTimeline, fc.nat(), fc.integer({ min: 0, max: THREADS - 1 }), (records, start, t) => {
        const tl = timelineOf(records, THREADS);
        const c = new Cursor(tl);
        const p = start % (tl.stepCount + 1);
        const pred = (k: number) => c.threadOfStep(k) === t;
        let fwd = -1;
        for (let q = p + 1; q <= tl.stepCount && fwd < 0; q++) if (pred(q - 1)) fwd = q;
        let back = -1;
        for (let q = p - 1; q >= 1 && back < 0; q--) if (pred(q - 1)) back = q;
        assert.equal(c.findForward(pred, p), fwd);
        assert.equal(c.findBackward(pred, p), back);
      }),
      { numRuns: 300 },
    );
  });
});

describe('cursor queries on fixtures', () => {
  it('flaky: lastRecordOf, consumedBy and causalChain, computed by hand', async () => {
    // Records: r0 S 0.1 | r1 S 0 | r2 I 0 30 | r3 S 0.2 | r4 S 0 | r5 I 0 31 | r6 S 0.1 ...
    const rec = await readMflrr(`${ROOT}/flaky/flaky.mflrr`);
    const tl = rec.timeline;
    const c = new Cursor(tl);
    const main = tl.threadIndex('0');
    const a = tl.threadIndex('0.1');
    const b = tl.threadIndex('0.2');
    assert.equal(c.lastRecordOf(main, 0), -1);
    assert.equal(c.lastRecordOf(a, 1), 0);
    assert.equal(c.lastRecordOf(main, 2), 2);
    assert.equal(c.lastRecordOf(b, 2), -1);
    assert.equal(c.lastRecordOf(main, 4), 5);
    assert.equal(c.lastRecordOf(a, 4), 0);
    assert.deepEqual(c.consumedBy(main, 2), [2]);
    assert.deepEqual(c.consumedBy(main, 4), [2, 5]);
    assert.deepEqual(c.consumedBy(main, 4, 1), [5]);
    assert.deepEqual(c.consumedBy(a, 4), []);
    assert.deepEqual(Array.from(c.causalChain(4), (t) => tl.threads[t].id), ['0.1', '0', '0.2', '0']);
  });

  it('reader: I/O read before the first op is consumed at position 0', async () => {
    const rec = await readMflrr(`${ROOT}/reader/reader.mflrr`);
    const c = new Cursor(rec.timeline);
    assert.deepEqual(c.consumedBy(0, 0), [0, 1, 2]);
    assert.equal(c.lastRecordOf(0, 0), 2);
    assert.equal(c.lastRecordOf(0, 1), 3);
  });

  for (const name of ['crash', 'gopanic']) {
    it(`${name}: causalChain at the panic equals machin replay --json`, async () => {
      const outputs = JSON.parse(readFileSync(`${ROOT}/${name}/outputs.json`, 'utf8')) as { replays: Array<{ args: string[]; stderr: string }> };
      const json = outputs.replays.find((r) => r.args.includes('--json'));
      assert.ok(json);
      const panic = JSON.parse(json.stderr.split('\n').find((l) => l.startsWith('{')) ?? '') as { scheduleOp: number; causalChain: string[] };
      const rec = await readMflrr(`${ROOT}/${name}/${name}.mflrr`);
      const c = new Cursor(rec.timeline);
      assert.deepEqual(Array.from(c.causalChain(panic.scheduleOp), (t) => rec.timeline.threads[t].id), panic.causalChain);
    });
  }

  it('findRecordForward finds an I/O value by its bytes', async () => {
    const rec = await readMflrr(`${ROOT}/flaky/flaky.mflrr`);
    const tl = rec.timeline;
    const c = new Cursor(tl);
    const isOne = (r: number) => tl.kindName(r) === 'io' && tl.payload(r)[0] === 0x31;
    assert.equal(c.findRecordForward(isOne, 0), tl.positionOf(5));
    assert.equal(c.findRecordBackward(isOne, tl.stepCount), tl.positionOf(tl.recordCount - 2));
  });
});
