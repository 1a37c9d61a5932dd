// A timeline model of any size, generated directly as typed arrays (for the benchmark and the
// follow/zoom tests, where a real trace of millions of ops would only measure the trace reader).
// Deterministic: the same arguments give the same model in the page and in Node.
import type { TimelineModel } from '../../../webview-ui/protocol';
import { FORMAT_TRAITS } from '../../../replay-engine/model/format-traits';

/** `records` records over `lanes` goroutines; every 8th record is an I/O read, the rest schedule ops. */
export function syntheticModel(records: number, lanes: number, withPanic: boolean): TimelineModel {
  const recordThread = new Uint16Array(records);
  const recordKind = new Uint8Array(records);
  const steps = new Uint32Array(records);
  let stepCount = 0;
  let seed = 12345;
  for (let r = 0; r < records; r++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    // Skewed: low lanes run more often, like a main goroutine and a few busy workers.
    const u = (seed >>> 8) / 16777216;
    recordThread[r] = Math.min(lanes - 1, Math.floor(lanes * u * u));
    const io = r % 8 === 7;
    recordKind[r] = io ? 1 : 0;
    if (!io) steps[stepCount++] = r;
  }
  const stepRecord = steps.slice(0, stepCount);
  const threads = Array.from({ length: lanes }, (_, i) => ({ id: i === 0 ? '0' : `0.${i}`, label: i === 0 ? 'main' : `worker${i}` }));
  return {
    format: 'mflrr',
    traits: FORMAT_TRAITS.mflrr,
    fileName: `synthetic-${records}.mflrr`,
    facts: [
      { key: 'program', label: 'Program', value: '/home/ci/app/synthetic.mfl' },
      { key: 'boundary', label: 'Boundary', value: 'faithful' },
    ],
    threads,
    kinds: ['sched', 'io'],
    recordCount: records,
    recordThread,
    recordKind,
    stepRecord,
    panic: withPanic ? { position: stepCount, thread: recordThread[stepRecord[stepCount - 1]], message: 'synthetic panic' } : null,
    bestEffort: false,
  };
}

/**
 * A model with a known shape, to check what the zoomed-out drawing shows: lane 0 holds the first
 * half of the records, lane 1 the second half, lane 2 every 1000th record; every 8th record of
 * lane 0 is an I/O read.
 */
export function patternModel(records: number): TimelineModel {
  const recordThread = new Uint16Array(records);
  const recordKind = new Uint8Array(records);
  const steps = new Uint32Array(records);
  let stepCount = 0;
  const half = records >>> 1;
  for (let r = 0; r < records; r++) {
    const lane = r % 1000 === 500 ? 2 : r < half ? 0 : 1;
    recordThread[r] = lane;
    const io = lane === 0 && r % 8 === 7;
    recordKind[r] = io ? 1 : 0;
    if (!io) steps[stepCount++] = r;
  }
  return {
    format: 'mflrr',
    traits: FORMAT_TRAITS.mflrr,
    fileName: `pattern-${records}.mflrr`,
    facts: [],
    threads: [
      { id: '0', label: 'first half' },
      { id: '0.1', label: 'second half' },
      { id: '0.2', label: 'sparse' },
    ],
    kinds: ['sched', 'io'],
    recordCount: records,
    recordThread,
    recordKind,
    stepRecord: steps.slice(0, stepCount),
    panic: null,
    bestEffort: false,
  };
}
