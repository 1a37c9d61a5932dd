// The timeline's step index (no per-step array: step k's record comes from the non-step records
// and a sample every 64 steps) must answer like a plain list of the step records, including runs
// of hundreds of non-step records (a goroutine reading a file line by line between two ops).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';

/** Runs of [steps, non-steps] records; thread = record index mod 3. */
function timelineOf(runs: Array<[number, number]>): { tl: Timeline; isStep: boolean[] } {
  const isStep: boolean[] = [];
  for (const [steps, others] of runs) {
    for (let i = 0; i < steps; i++) isStep.push(true);
    for (let i = 0; i < others; i++) isStep.push(false);
  }
  const b = new TimelineBuilder(isStep.length, 1);
  const sched = b.internKind('sched', true);
  const io = b.internKind('io', false);
  for (let t = 0; t < 3; t++) b.internThread(t === 0 ? '0' : `0.${t}`);
  isStep.forEach((step, r) => b.add(step ? sched : io, r % 3));
  return { tl: b.finish('mflrr', '/x.mflrr', [], 5), isStep };
}

const run = fc.tuple(
  fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 60, max: 200 })),
  fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 64, max: 400 }) }),
);

describe('step index', () => {
  it('recordOfStep, stepsBefore, positionOf, frontier and the walks agree with a plain list of steps', () => {
    fc.assert(
      fc.property(fc.array(run, { maxLength: 12 }), (runs) => {
        const { tl, isStep } = timelineOf(runs);
        const steps = isStep.flatMap((s, r) => (s ? [r] : []));
        assert.equal(tl.stepCount, steps.length);
        assert.deepEqual(Array.from(tl.stepRecords()), steps);
        assert.deepEqual(Array.from(tl.stepThreads()), steps.map((r) => r % 3));
        steps.forEach((r, k) => assert.equal(tl.recordOfStep(k), r, `step ${k}`));
        let before = 0;
        for (let r = 0; r < isStep.length; r++) {
          assert.equal(tl.stepsBefore(r), before, `steps before record ${r}`);
          assert.equal(tl.isStep(r), isStep[r]);
          assert.equal(tl.stepOf(r), isStep[r] ? before : -1);
          assert.equal(tl.positionOf(r), isStep[r] ? before + 1 : before);
          const after = steps.find((x) => x >= r) ?? isStep.length;
          assert.equal(tl.stepAtOrAfter(r), after);
          const atOrBefore = [...steps].reverse().find((x) => x <= r) ?? -1;
          assert.equal(tl.stepAtOrBefore(r), atOrBefore);
          if (isStep[r]) before++;
        }
        for (let p = 0; p <= steps.length; p++) assert.equal(tl.frontier(p), p < steps.length ? steps[p] : isStep.length);
      }),
      { numRuns: 200 },
    );
  });

  it('a kind is a step or not, never both', () => {
    const b = new TimelineBuilder(4, 1);
    b.internKind('sched', true);
    assert.throws(() => b.internKind('sched', false), /both as a step and not/);
  });
});
