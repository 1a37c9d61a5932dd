// Compare two recordings of the same program: align their records, then report where they part.
//
// - firstDivergence: for a trace, the first schedule op whose goroutine differs (the two `S`
//   sequences walked side by side; if they never differ, the first I/O line one run has and the
//   other has not); for a capsule, the first effect whose kind or key differs.
// - valueDifferences: records in the same slot whose values differ: I/O lines of the same
//   goroutine that read something else (paired inside the alignment's hunks), and for capsules
//   effects that asked the same thing but got another result.
// - firstVariableDifference: from machin's value histories, when both runs have them.
import type { Recording } from '../model/recording';
import type { DiffOptions } from './diff-sequences';
import { alignRecords, type Alignment } from './alignment';
import { firstVariableDifference, type VariableDifference } from './history-difference';
import { ioQueueDifferences, type IoQueueDifference } from './io-queues';
import { RecordIdentity } from './record-identity';
import { baseName, checkSameProgram } from './same-program';

/** One side of a divergence: where that recording is when the two part. */
export interface DivergenceSide {
  /** Schedule op (trace) or effect number (capsule): steps completed before this record. */
  op: number;
  /** The record there, or null when this recording has ended. */
  record: number | null;
  /** Goroutine or task id of the record; null when this recording has ended. */
  thread: string | null;
  threadLabel: string | null;
  /** 1-based line (trace text or decoded capsule document); null when ended. */
  line: number | null;
  kind: string | null;
  summary: string | null;
}

export interface Divergence {
  /** What parts them: the schedule (`schedule`), an effect's kind or key (`effect`), an I/O
   * record one run has and the other has not (`io`). */
  cause: 'schedule' | 'effect' | 'io';
  a: DivergenceSide;
  b: DivergenceSide;
}

export interface ValueDifference {
  kind: string;
  thread: string;
  a: DivergenceSide & { value: string };
  b: DivergenceSide & { value: string };
}

export interface ThreadCounts {
  id: string;
  label: string;
  /** Schedule ops (trace) or effects (capsule) of this thread in each recording. */
  a: number;
  b: number;
}

export interface Comparison {
  format: 'mflrr' | 'tcap';
  files: { a: string; b: string };
  program: { a: string; b: string; compared: string };
  records: { a: number; b: number };
  ops: { a: number; b: number };
  identical: boolean;
  /** Records and ops the two share from the start, before the first record that differs. */
  commonPrefix: { records: number; ops: number };
  commonSuffix: { records: number };
  firstDivergence: Divergence | null;
  /** The first value that differs (it may come before the first divergence: a clock read). */
  firstValueDifference: ValueDifference | null;
  valueDifferences: { total: number; shown: ValueDifference[] };
  /** Traces: per goroutine whose I/O queue differs, its first read that differs (k-th read vs k-th read). */
  ioQueues: IoQueueDifference[];
  threads: ThreadCounts[];
  firstVariableDifference: VariableDifference | null;
  /** Which runs carry machin value histories. */
  histories: { a: boolean; b: boolean };
  alignment: {
    hunks: number;
    unmatched: { a: number; b: number };
    /** False when the diff's cost bound made the alignment approximate somewhere. */
    minimal: boolean;
  };
  warnings: string[];
}

export interface CompareOptions extends DiffOptions {
  /** At most this many value differences are listed (all are counted). Default 200. */
  valueLimit?: number;
}

export interface CompareResult {
  comparison: Comparison;
  /** The record alignment, for views (counterparts, hunks). */
  alignment: Alignment;
}

export function compareRecordings(a: Recording, b: Recording, options: CompareOptions = {}): CompareResult {
  const program = checkSameProgram(a, b);
  const ta = a.timeline;
  const tb = b.timeline;
  const partsA = a.comparisonParts();
  const partsB = b.comparisonParts();
  const identity = new RecordIdentity(
    { timeline: ta, bytes: partsA.identity },
    { timeline: tb, bytes: partsB.identity },
    ta.traits.threadInIdentity,
  );
  const alignment = alignRecords(identity, ta.recordCount, tb.recordCount, options);

  const side = (rec: Recording, r: number | null, op: number): DivergenceSide => {
    if (r === null) return { op, record: null, thread: null, threadLabel: null, line: null, kind: null, summary: null };
    const tl = rec.timeline;
    const info = tl.threads[tl.thread[r]];
    return {
      op,
      record: r,
      thread: info.id,
      threadLabel: info.label,
      line: tl.lineOf(r),
      kind: tl.kindName(r),
      summary: rec.describe(r).summary,
    };
  };

  // The first step whose identity differs, walking both step sequences side by side.
  let firstDivergence: Divergence | null = null;
  const steps = Math.min(ta.stepCount, tb.stepCount);
  let k = 0;
  let ra = ta.stepAtOrAfter(0);
  let rb = tb.stepAtOrAfter(0);
  while (k < steps && identity.equal(ra, rb)) {
    k++;
    ra = ta.stepAtOrAfter(ra + 1);
    rb = tb.stepAtOrAfter(rb + 1);
  }
  const cause = ta.traits.stepCause;
  if (k < ta.stepCount || k < tb.stepCount) {
    firstDivergence = {
      cause,
      a: side(a, k < ta.stepCount ? ra : null, k),
      b: side(b, k < tb.stepCount ? rb : null, k),
    };
  }

  // Value differences: pairs inside hunks whose bytes differ, and (capsules) matched effects
  // whose results differ.
  const limit = options.valueLimit ?? 200;
  const shown: ValueDifference[] = [];
  let total = 0;
  let firstValue: ValueDifference | null = null;
  let firstValueKey = Infinity;
  const note = (x: number, y: number) => {
    total++;
    if (shown.length >= limit && x >= firstValueKey) return;
    const diff: ValueDifference = {
      kind: ta.kindName(x),
      thread: ta.threads[ta.thread[x]].id,
      a: { ...side(a, x, ta.stepsBefore(x)), value: partsA.valueText(x) },
      b: { ...side(b, y, tb.stepsBefore(y)), value: partsB.valueText(y) },
    };
    if (x < firstValueKey) {
      firstValueKey = x;
      firstValue = diff;
    }
    if (shown.length < limit) shown.push(diff);
  };
  const differentResult = partsA.result && partsB.result ? sameResultChecker(partsA.result, partsB.result) : null;
  let x = 0;
  let y = 0;
  const hunks = alignment.hunks;
  for (let h = 0; h <= alignment.hunkCount; h++) {
    const aEnd = h < alignment.hunkCount ? hunks[h * 4] : ta.recordCount;
    // Matched run x .. aEnd (y moves with it).
    if (differentResult) {
      for (; x < aEnd; x++, y++) if (differentResult(x, y)) note(x, y);
    }
    if (h === alignment.hunkCount) break;
    for (let i = alignment.pairStart[h]; i < alignment.pairStart[h + 1]; i++) {
      const px = alignment.pairA[i];
      const py = alignment.pairB[i];
      if (!identity.equal(px, py) || (differentResult && differentResult(px, py))) note(px, py);
    }
    x = hunks[h * 4 + 1];
    y = hunks[h * 4 + 3];
  }
  shown.sort((p, q) => (p.a.record ?? 0) - (q.a.record ?? 0));

  // A trace whose schedules agree throughout may still part on an I/O line only one run has.
  if (!firstDivergence && !alignment.identical) {
    for (let h = 0; h < alignment.hunkCount && !firstDivergence; h++) {
      const paired = new Set<number>();
      for (let i = alignment.pairStart[h]; i < alignment.pairStart[h + 1]; i++) paired.add(alignment.pairA[i]);
      const pairedB = new Set<number>();
      for (let i = alignment.pairStart[h]; i < alignment.pairStart[h + 1]; i++) pairedB.add(alignment.pairB[i]);
      let ra = -1;
      let rb = -1;
      for (let r = hunks[h * 4]; r < hunks[h * 4 + 1] && ra < 0; r++) if (!paired.has(r)) ra = r;
      for (let r = hunks[h * 4 + 2]; r < hunks[h * 4 + 3] && rb < 0; r++) if (!pairedB.has(r)) rb = r;
      if (ra < 0 && rb < 0) continue;
      firstDivergence = {
        cause: 'io',
        a: side(a, ra >= 0 ? ra : null, ta.stepsBefore(ra >= 0 ? ra : hunks[h * 4])),
        b: side(b, rb >= 0 ? rb : null, tb.stepsBefore(rb >= 0 ? rb : hunks[h * 4 + 2])),
      };
    }
  }

  const comparison: Comparison = {
    format: ta.format,
    files: { a: ta.file, b: tb.file },
    program: { a: program.a, b: program.b, compared: program.compared },
    records: { a: ta.recordCount, b: tb.recordCount },
    ops: { a: ta.stepCount, b: tb.stepCount },
    identical: alignment.identical && total === 0,
    commonPrefix: { records: alignment.commonPrefix, ops: ta.stepsBefore(alignment.commonPrefix) },
    commonSuffix: { records: alignment.commonSuffix },
    firstDivergence,
    firstValueDifference: firstValue,
    valueDifferences: { total, shown },
    ioQueues: ioQueueDifferences(a, b, { a: partsA.valueText, b: partsB.valueText }),
    threads: threadCounts(a, b),
    firstVariableDifference: firstVariableDifference(a, b),
    histories: { a: a.histories !== null, b: b.histories !== null },
    alignment: {
      hunks: alignment.hunkCount,
      unmatched: { a: alignment.unmatched('a'), b: alignment.unmatched('b') },
      minimal: alignment.minimal,
    },
    warnings: [...program.warnings],
  };
  if (a.bestEffort || b.bestEffort) {
    comparison.warnings.push(
      `${[a, b].filter((r) => r.bestEffort).map((r) => baseName(r.timeline.file)).join(' and ')} ` +
        'is a best-effort trace (the program uses FFI): differences may come from outside the recording.',
    );
  }
  if (!alignment.minimal) {
    comparison.warnings.push('The runs differ so much that the alignment was approximated in places (still a valid alignment, maybe not the shortest).');
  }
  return { comparison, alignment };
}

function sameResultChecker(ra: (r: number) => Uint8Array, rb: (r: number) => Uint8Array) {
  return (x: number, y: number): boolean => {
    const p = ra(x);
    const q = rb(y);
    if (p.length !== q.length) return true;
    for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return true;
    return false;
  };
}

function threadCounts(a: Recording, b: Recording): ThreadCounts[] {
  const rows = new Map<string, ThreadCounts>();
  for (const [rec, s] of [
    [a, 'a'],
    [b, 'b'],
  ] as const) {
    const tl = rec.timeline;
    const counts = new Uint32Array(tl.threads.length);
    const thread = tl.thread;
    for (let r = 0; r < tl.recordCount; r++) if (tl.isStep(r)) counts[thread[r]]++;
    tl.threads.forEach((t, i) => {
      let row = rows.get(t.id);
      if (!row) rows.set(t.id, (row = { id: t.id, label: t.label, a: 0, b: 0 }));
      if (!row.label) row.label = t.label;
      row[s] = counts[i];
    });
  }
  return [...rows.values()];
}
