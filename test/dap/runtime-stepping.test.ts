// The runtime's stepping, which every step request of a session uses, as properties over random
// timelines (fast-check): a step and its inverse return where they started, a thread's step lands
// on that thread's next record with none of its records skipped, and the cursor position follows
// the records that happened (steps before the current record, I/O done at the next op).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Recording } from '../../replay-engine/model/recording';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';
import { ReplayRuntime } from '../../debug-adapter/runtime';

const THREADS = 4;

/** A timeline from a list of [thread, isStep] records. */
function timelineOf(records: Array<[number, boolean]>): Timeline {
  const b = new TimelineBuilder(records.length, 0);
  const sched = b.internKind('sched', true);
  const io = b.internKind('io', false);
  for (let t = 0; t < THREADS; t++) b.internThread(t === 0 ? '0' : `0.${t}`);
  for (const [t, step] of records) b.add(step ? sched : io, t);
  return b.finish('mflrr', '/x.mflrr', [], 5);
}

function runtimeOf(records: Array<[number, boolean]>): ReplayRuntime {
  const timeline = timelineOf(records);
  const rec = { format: 'mflrr', timeline, warnings: [], bestEffort: false, panic: null, verify: null, histories: null, describe: () => { throw new Error('unused'); } } as unknown as Recording;
  return new ReplayRuntime(rec, { log: () => undefined });
}

const arbRecords = fc.array(fc.tuple(fc.integer({ min: 0, max: THREADS - 1 }), fc.boolean()), { minLength: 1, maxLength: 50 });

test('stepIn then stepBackIn, and next(t) then stepBack(t), return to the record they left', async () => {
  await fc.assert(
    fc.asyncProperty(arbRecords, fc.nat(), fc.integer({ min: 0, max: THREADS - 1 }), async (records, start, t) => {
      const rt = runtimeOf(records);
      const n = records.length;
      const from = (start % (n + 1)) - 1; // -1 (the start) .. n - 1
      rt.jump(from, { reason: 'goto', thread: 0, description: '' });
      if (from < n - 1) {
        await rt.stepIn();
        assert.equal(rt.record, from + 1);
        await rt.stepBackIn();
        assert.equal(rt.record, from);
      }
      const own = records.map(([th], r) => (th === t ? r : -1)).filter((r) => r > from);
      const onOwn = from >= 0 && records[from][0] === t;
      const justBeforeFirst = own.length > 0 && !records.slice(0, from + 1).some(([th]) => th === t) && from === own[0] - 1;
      if (own.length > 0 && (onOwn || justBeforeFirst)) {
        // From a record of t (or just before its first), next(t) and stepBack(t) are inverses.
        await rt.next(t);
        assert.equal(rt.record, own[0], 'next(t) lands on t\'s next record');
        await rt.stepBack(t);
        assert.equal(rt.record, from, 'stepBack(t) returns to where next(t) came from');
      }
    }),
    { numRuns: 300 },
  );
});

test('next(t) skips no record of t, and stepBack(t) lands on t\'s previous record (or the start)', async () => {
  await fc.assert(
    fc.asyncProperty(arbRecords, fc.nat(), fc.integer({ min: 0, max: THREADS - 1 }), async (records, start, t) => {
      const rt = runtimeOf(records);
      const n = records.length;
      const from = (start % (n + 1)) - 1;
      rt.jump(from, { reason: 'goto', thread: 0, description: '' });
      const stop = await rt.next(t);
      const next = records.findIndex(([th], r) => r > from && th === t);
      if (next < 0) {
        assert.equal(stop.reason, 'end');
        assert.equal(rt.atEnd, true);
      } else {
        assert.equal(rt.record, next);
        assert.equal(rt.timeline.thread[rt.record], t);
      }
      rt.jump(from, { reason: 'goto', thread: 0, description: '' });
      await rt.stepBack(t);
      const before = records.map(([th], r) => (th === t && r <= from ? r : -1)).filter((r) => r >= 0);
      // Back from the latest record of t at or before here: onto its previous one, else before it.
      if (before.length === 0) assert.equal(rt.record, -1);
      else if (before.length === 1) assert.equal(rt.record, before[0] - 1);
      else assert.equal(rt.record, before[before.length - 2]);
    }),
    { numRuns: 300 },
  );
});

test('the position is the number of steps done: every step up to the current record, I/O at the next op', () => {
  fc.assert(
    fc.property(arbRecords, fc.nat(), (records, start) => {
      const rt = runtimeOf(records);
      const n = records.length;
      const m = (start % (n + 2)) - 1; // -1 .. n (the end)
      rt.jump(m, { reason: 'goto', thread: 0, description: '' });
      const steps = records.slice(0, Math.max(0, Math.min(m, n - 1) + 1)).filter(([, step]) => step).length;
      assert.equal(rt.position, m >= n ? records.filter(([, s]) => s).length : steps);
      // The record state of that position: every record done at it has happened.
      const back = rt.recordForPosition(rt.position);
      assert.equal(rt.positionAt(back), rt.position);
      if (back + 1 < n) assert.ok(rt.positionAt(back + 1) > rt.position, 'a record done at this position was left out');
    }),
    { numRuns: 500 },
  );
});
