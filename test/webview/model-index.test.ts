// The timeline's level-of-detail index against the plain definition: for random models and
// random record ranges, what the index answers equals counting record by record.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { TimelineModel } from '../../webview-ui/protocol';
import { TimelineIndex } from '../../webview-ui/timeline/model-index';
import { FORMAT_TRAITS } from '../../replay-engine/model/format-traits';

const modelArb = fc
  .record({
    lanes: fc.integer({ min: 1, max: 6 }),
    records: fc.array(fc.record({ thread: fc.nat(5), step: fc.boolean() }), { maxLength: 300 }),
    panicAt: fc.option(fc.nat(300)),
    narrowed: fc.boolean(),
  })
  .map(({ lanes, records, panicAt, narrowed }): TimelineModel => {
    const recordThread = Uint16Array.from(records, (r) => r.thread % lanes);
    const stepRecord = Uint32Array.from(records.flatMap((r, i) => (r.step ? [i] : [])));
    const position = panicAt === null ? -1 : panicAt % (stepRecord.length + 1);
    return {
      format: 'mflrr',
      traits: FORMAT_TRAITS.mflrr,
      fileName: 't.mflrr',
      facts: [],
      threads: Array.from({ length: lanes }, (_, i) => ({ id: String(i), label: '' })),
      kinds: ['sched', 'io'],
      recordCount: records.length,
      recordThread,
      recordKind: Uint8Array.from(records, (r) => (r.step ? 0 : 1)),
      stepRecord,
      panic:
        position < 0 || stepRecord.length === 0
          ? null
          : {
              position,
              thread: recordThread[stepRecord[Math.max(0, position - 1)]],
              message: 'p',
              chainSteps: narrowed ? Uint32Array.from({ length: position }, (_, k) => k).filter((k) => k % 3 === 0) : undefined,
            },
      bestEffort: false,
    };
  });

describe('TimelineIndex', () => {
  it('counts records, non-steps and chain records of a lane in any range like a plain scan', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(310), fc.nat(310), (model, x, y) => {
        const index = new TimelineIndex(model);
        const a = Math.min(x, y);
        const b = Math.max(x, y);
        const steps = new Set(model.stepRecord);
        const chain = new Set(model.panic?.chainSteps ? Array.from(model.panic.chainSteps, (k) => model.stepRecord[k]) : []);
        for (let lane = 0; lane < index.laneCount; lane++) {
          const i = index.laneLowerBound(lane, a);
          const j = index.laneLowerBound(lane, b);
          let count = 0;
          let nonSteps = 0;
          let inChain = 0;
          for (let r = a; r < Math.min(b, model.recordCount); r++) {
            if (model.recordThread[r] !== lane) continue;
            count++;
            if (!steps.has(r)) nonSteps++;
            if (chain.has(r)) inChain++;
          }
          assert.equal(j - i, count);
          assert.equal(index.nonStepPrefix[j] - index.nonStepPrefix[i], nonSteps);
          if (index.chainPrefix) assert.equal(index.chainPrefix[j] - index.chainPrefix[i], inChain);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('maps records to positions and back like the engine Timeline', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const index = new TimelineIndex(model);
        for (let r = 0; r < model.recordCount; r++) {
          const before = Array.from(model.stepRecord).filter((s) => s < r).length;
          const isStep = model.stepRecord.includes(r);
          assert.equal(index.positionOf(r), isStep ? before + 1 : before);
          assert.equal(index.stepOf(r), isStep ? before : -1);
          assert.equal(index.isStepAt(index.laneLowerBound(model.recordThread[r], r)), isStep);
        }
        for (let p = 0; p <= index.stepCount; p++) {
          assert.equal(index.frontier(p), p < index.stepCount ? model.stepRecord[p] : model.recordCount);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses arrays that disagree', () => {
    const base: TimelineModel = {
      format: 'tcap',
      traits: FORMAT_TRAITS.tcap,
      fileName: 'x.tcap',
      facts: [],
      threads: [{ id: '1', label: '' }],
      kinds: ['redis@1'],
      recordCount: 2,
      recordThread: Uint16Array.from([0, 0]),
      recordKind: Uint8Array.from([0, 0]),
      stepRecord: Uint32Array.from([0, 1]),
      panic: null,
      bestEffort: false,
    };
    assert.doesNotThrow(() => new TimelineIndex(base));
    assert.throws(() => new TimelineIndex({ ...base, recordThread: Uint16Array.from([0, 1]) }), /names thread 1 of 1/);
    assert.throws(() => new TimelineIndex({ ...base, stepRecord: Uint32Array.from([1, 0]) }), /not ascending/);
    assert.throws(() => new TimelineIndex({ ...base, stepRecord: Uint32Array.from([0, 5]) }), /not ascending/);
    assert.throws(() => new TimelineIndex({ ...base, recordCount: 3 }), /do not match/);
    assert.throws(() => new TimelineIndex({ ...base, panic: { position: 3, thread: 0, message: '' } }), /panic outside/);
  });
});
