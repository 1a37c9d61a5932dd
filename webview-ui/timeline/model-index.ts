// Indices the timeline view derives once from the model, all typed arrays, so drawing a frame
// never walks every record: per-lane record lists (a counting sort of records by thread) answer
// "how many records of lane L fall in records [a, b)" with two binary searches, which is what a
// pixel column needs at any zoom. Prefix counts over the same lists answer the same question for
// non-step records (machin I/O) and for causal-chain records.
import type { TimelineModel } from '../protocol';
import { lowerBound } from '../../replay-engine/model/lower-bound';

export class TimelineIndex {
  readonly recordCount: number;
  readonly stepCount: number;
  readonly laneCount: number;
  /** Records of all lanes, grouped by lane, ascending within a lane: lane L is laneRecords[laneStart[L] .. laneStart[L+1]). */
  readonly laneRecords: Uint32Array;
  readonly laneStart: Uint32Array;
  /** Prefix count of non-step records over laneRecords: the non-steps among laneRecords[i..j) are nonStepPrefix[j] - nonStepPrefix[i]. */
  readonly nonStepPrefix: Uint32Array;
  /** Prefix count of causal-chain records over laneRecords; null when the chain is a plain prefix of the steps. */
  readonly chainPrefix: Uint32Array | null;
  /**
   * Where each lane's records cross every multiple of 2^bucketShift records: laneBuckets[L *
   * (bucketCount + 1) + j] is the offset of lane L's first record >= j << bucketShift. A lower
   * bound then searches one bucket (a few hundred bytes) instead of the whole lane, which keeps
   * a zoomed-out frame of 10M records in cache.
   */
  readonly bucketShift: number;
  readonly bucketCount: number;
  readonly laneBuckets: Uint32Array;
  /** nonStepPrefix (and chainPrefix) read at each laneBuckets offset, so far-out frames stay in these small arrays. */
  readonly bucketNonSteps: Uint32Array;
  readonly bucketChain: Uint32Array | null;
  /** Records in the causal chain end before this record (chain = every step before the panic); -1 without a panic. */
  readonly chainEnd: number;
  /** Thread indices that took part in the causal chain. */
  readonly chainThreads: Set<number>;

  /**
   * Builds the indices in three linear passes (about 1 s per 10M records on a slow machine) and
   * checks the arrays agree with each other as it goes: a bad model throws, it never draws garbage.
   */
  constructor(readonly model: TimelineModel) {
    const n = model.recordCount;
    const lanes = model.threads.length;
    const thread = model.recordThread;
    const steps = model.stepRecord;
    if (!Number.isInteger(n) || n < 0) throw new Error('bad record count');
    if (thread.length !== n || model.recordKind.length !== n) throw new Error('record arrays do not match the record count');
    const prog = model.program;
    if (prog && (prog.stepLine.length !== steps.length || prog.stepColumn.length !== steps.length || prog.stepOp.length !== steps.length)) {
      throw new Error('the program arrays do not match the step count');
    }
    this.recordCount = n;
    this.stepCount = steps.length;
    this.laneCount = lanes;

    // Pass 1: records and non-steps per lane (walking stepRecord alongside, so no per-record flag array).
    const counts = new Uint32Array(lanes + 1);
    const nonSteps = new Uint32Array(lanes + 1);
    let k = 0;
    let prev = -1;
    for (let r = 0; r < n; r++) {
      const t = thread[r];
      if (t >= lanes) throw new Error(`record ${r} names thread ${t} of ${lanes}`);
      counts[t + 1]++;
      if (k < steps.length && steps[k] === r) {
        prev = r;
        k++;
      } else nonSteps[t + 1]++;
    }
    if (k !== steps.length || (steps.length > 0 && steps[steps.length - 1] !== prev)) throw new Error('step records are not ascending record indices');
    for (let l = 0; l < lanes; l++) {
      counts[l + 1] += counts[l];
      nonSteps[l + 1] += nonSteps[l];
    }
    this.laneStart = counts.slice();

    // Pass 2: place each record in its lane and extend the lane's non-step prefix.
    const fill = counts.subarray(0, lanes);
    const nsRun = nonSteps.subarray(0, lanes);
    const recs = new Uint32Array(n);
    const prefix = new Uint32Array(n + 1);
    k = 0;
    for (let r = 0; r < n; r++) {
      const t = thread[r];
      const at = fill[t]++;
      recs[at] = r;
      if (k < steps.length && steps[k] === r) k++;
      else nsRun[t]++;
      prefix[at + 1] = nsRun[t];
    }
    this.laneRecords = recs;
    this.nonStepPrefix = prefix;

    // Pass 3: bucket boundaries, sized to about 2M entries whatever the lane count.
    let shift = 6;
    while (shift < 24 && lanes * ((n >>> shift) + 1) > 2_000_000) shift++;
    const bc = (n >>> shift) + 1;
    const buckets = new Uint32Array(lanes * (bc + 1));
    for (let l = 0; l < lanes; l++) {
      const end = this.laneStart[l + 1];
      let i = this.laneStart[l];
      const base = l * (bc + 1);
      for (let j = 0; j <= bc; j++) {
        const edge = j << shift;
        while (i < end && recs[i] < edge) i++;
        buckets[base + j] = i;
      }
    }
    this.bucketShift = shift;
    this.bucketCount = bc;
    this.laneBuckets = buckets;
    const bucketNonSteps = new Uint32Array(buckets.length);
    for (let x = 0; x < buckets.length; x++) bucketNonSteps[x] = prefix[buckets[x]];
    this.bucketNonSteps = bucketNonSteps;

    this.chainThreads = new Set();
    const panic = model.panic;
    if (panic && (panic.thread >= lanes || panic.position > this.stepCount || panic.position < 0)) throw new Error('panic outside the recording');
    if (!panic) {
      this.chainEnd = -1;
      this.chainPrefix = null;
      this.bucketChain = null;
    } else if (panic.chainSteps) {
      // Pass 3 (only for a narrowed chain): flag its records, then prefix-count them in lane order.
      const inChain = new Uint8Array(n);
      for (const s of panic.chainSteps) {
        if (s >= this.stepCount) continue;
        const r = steps[s];
        inChain[r] = 1;
        this.chainThreads.add(thread[r]);
      }
      const chain = new Uint32Array(n + 1);
      for (let i = 0; i < n; i++) chain[i + 1] = chain[i] + inChain[recs[i]];
      this.chainPrefix = chain;
      const bucketChain = new Uint32Array(buckets.length);
      for (let x = 0; x < buckets.length; x++) bucketChain[x] = chain[buckets[x]];
      this.bucketChain = bucketChain;
      this.chainEnd = this.frontier(panic.position);
    } else {
      this.chainPrefix = null;
      this.bucketChain = null;
      const end = Math.min(panic.position, this.stepCount);
      for (let s = 0; s < end && this.chainThreads.size < lanes; s++) this.chainThreads.add(thread[steps[s]]);
      this.chainEnd = this.frontier(panic.position);
    }
    if (panic) this.chainThreads.add(panic.thread);
  }

  /** Is the record at laneRecords offset i a step? */
  isStepAt(i: number): boolean {
    return this.nonStepPrefix[i + 1] === this.nonStepPrefix[i];
  }

  /** Offset in laneRecords of lane L's first record >= r. */
  laneLowerBound(lane: number, r: number): number {
    if (r <= 0) return this.laneStart[lane];
    if (r >= this.recordCount) return this.laneStart[lane + 1];
    const j = r >>> this.bucketShift;
    const base = lane * (this.bucketCount + 1);
    const recs = this.laneRecords;
    return lowerBound(this.laneBuckets[base + j], this.laneBuckets[base + j + 1], (i) => recs[i] < r);
  }

  /** Is record r part of the causal chain that led to the panic? */
  inChain(r: number, offset?: number): boolean {
    if (this.chainEnd < 0 || r >= this.chainEnd) return false;
    const i = offset ?? this.laneLowerBound(this.model.recordThread[r], r);
    if (!this.chainPrefix) return this.isStepAt(i);
    return this.chainPrefix[i + 1] - this.chainPrefix[i] === 1;
  }

  /** The lane's record nearest to record coordinate x (fractional), or -1 for an empty lane. */
  nearestInLane(lane: number, x: number): number {
    const start = this.laneStart[lane];
    const end = this.laneStart[lane + 1];
    if (start === end) return -1;
    const i = this.laneLowerBound(lane, Math.floor(x));
    const candidates: number[] = [];
    if (i < end) candidates.push(this.laneRecords[i]);
    if (i > start) candidates.push(this.laneRecords[i - 1]);
    let best = candidates[0];
    for (const c of candidates) if (Math.abs(c + 0.5 - x) < Math.abs(best + 0.5 - x)) best = c;
    return best;
  }

  /** The next (dir 1) or previous (dir -1) record of the same lane, or r itself at the end. */
  stepInLane(r: number, dir: 1 | -1): number {
    const lane = this.model.recordThread[r];
    const i = this.laneLowerBound(lane, r) + dir;
    if (i < this.laneStart[lane] || i >= this.laneStart[lane + 1]) return r;
    return this.laneRecords[i];
  }

  /** How many steps precede record r (binary search over stepRecord). */
  stepsBefore(r: number): number {
    const steps = this.model.stepRecord;
    return lowerBound(0, steps.length, (i) => steps[i] < r);
  }

  /** Step number of record r, or -1 when it is not a step. */
  stepOf(r: number): number {
    const k = this.stepsBefore(r);
    return k < this.stepCount && this.model.stepRecord[k] === r ? k : -1;
  }

  /** The cursor position at which record r is done (as Timeline.positionOf). */
  positionOf(r: number): number {
    const k = this.stepsBefore(r);
    return k < this.stepCount && this.model.stepRecord[k] === r ? k + 1 : k;
  }

  /** The first record not yet done at position p (as Timeline.frontier). */
  frontier(p: number): number {
    if (p >= this.stepCount) return this.recordCount;
    if (p <= 0) return this.stepCount > 0 ? this.model.stepRecord[0] : this.recordCount;
    return this.model.stepRecord[p];
  }

  /** The program statement that did record r (a schedule op), when the model has it: `{op: 'recv', file: 'bank.mfl', line: 8, column: 5}`. */
  statementOf(r: number): { op: string; file: string; line: number; column: number } | null {
    const p = this.model.program;
    if (!p) return null;
    const k = this.stepOf(r);
    if (k < 0 || p.stepLine[k] === 0) return null;
    return { op: p.opWords[p.stepOp[k]] ?? 'op', file: p.fileName, line: p.stepLine[k], column: p.stepColumn[k] };
  }

  /** `recv · bank.mfl:8` for a schedule op whose statement is known, else ''. */
  statementLabel(r: number): string {
    const s = this.statementOf(r);
    return s ? `${s.op} · ${s.file}:${s.line}` : '';
  }

  laneLabel(lane: number): string {
    const t = this.model.threads[lane];
    return t.label ? `${t.id} ${t.label}` : t.id;
  }

  laneSize(lane: number): number {
    return this.laneStart[lane + 1] - this.laneStart[lane];
  }
}
