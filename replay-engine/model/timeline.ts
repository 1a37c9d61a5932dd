// The format-neutral timeline: every record of a recording (machin trace or Tin capsule) in
// compact typed arrays, never one object per record. A 10M-op trace is ~11M records; with the
// layout below a record costs 3 bytes, and a record that is not a step (a trace's `I` line, 1 in
// 9) or has a payload 4 or 8 more plus its payload bytes. Whether a record is a step follows from
// its kind; step k's record is k plus the number of non-step records before it, found from a
// sample every 64 steps (stepSample) and a short binary search.
//
// Vocabulary shared by every view:
// - record r: one line of a trace (`S`/`I`) or one effect of a capsule, 0..recordCount-1, in file order.
// - step k: a record the cursor moves over (a machin schedule op, a Tin effect), 0..stepCount-1.
// - position p: how many steps have completed, 0..stepCount. Record r is "done" at position
//   `positionOf(r)`: a step k is done at p = k+1; a non-step record (a machin I/O line) is done at
//   the number of steps that precede it in the file (it was consumed before the next op).
import { FORMAT_TRAITS, type FormatTraits, type RecordingFormat, type UnitWords } from './format-traits';
import { lowerBound } from './lower-bound';

import { LineGaps } from './line-gaps';

export type { RecordingFormat, UnitWords } from './format-traits';

/** One header fact shown to humans (program, boundary, status, ...). */
export interface HeaderFact {
  key: string;
  label: string;
  value: string;
}

export interface ThreadInfo {
  /** The recording's own id: a goroutine path (`0.1`) or a task number (`2`). */
  id: string;
  /** What a human calls it: `main`, `feed`, `request`. Empty when unknown. */
  label: string;
}

export class Timeline {
  /** What this format calls a step and a thread. */
  get units(): UnitWords {
    return FORMAT_TRAITS[this.format].units;
  }

  /** What this format says about itself (format-traits.ts): views ask this, never the format. */
  get traits(): FormatTraits {
    return FORMAT_TRAITS[this.format];
  }

  constructor(
    readonly format: RecordingFormat,
    /** Absolute path of the recording file. */
    readonly file: string,
    readonly facts: HeaderFact[],
    readonly threads: ThreadInfo[],
    /** Interned kind names, indexed by `kind[r]`. mflrr: `sched`, `io`; tcap: `redis@1`, ... */
    readonly kinds: string[],
    /** Per kind: 1 when its records are steps (mflrr `sched`, every capsule effect), else 0. */
    readonly stepKind: Uint8Array,
    readonly recordCount: number,
    readonly kind: Uint8Array,
    /** Thread of each record: 1 byte while there are at most 256 threads, then 2, then 4. */
    readonly thread: Uint8Array | Uint16Array | Uint32Array,
    /** The records that carry a payload, ascending (a trace's `I` lines; every effect of a capsule). */
    readonly payloadRecord: Uint32Array,
    /** payloadRecord.length + 1 offsets into `bytes`: the j-th payload is bytes[payloadOffset[j] .. payloadOffset[j+1]). */
    readonly payloadOffset: Uint32Array,
    readonly bytes: Uint8Array,
    readonly stepCount: number,
    /** The records that are not steps, ascending (a trace's `I` lines; none in a capsule). */
    readonly otherRecord: Uint32Array,
    /** 1-based line (in the recording text, or in the decoded document of a capsule) of record 0. */
    readonly firstRecordLine: number,
    /**
     * Records whose line is not `firstRecordLine + r` (blank or skipped lines before them), with
     * the extra lines before each, cumulative. Empty for well-formed files.
     */
    readonly lineGaps: LineGaps = LineGaps.EMPTY,
  ) {}

  /**
   * stepSample[b]: how many non-step records come before step 64b, that is the first i with
   * otherRecord[i] - i >= 64b (otherRecord[i] - i is the number of steps before record i). Made
   * on the first recordOfStep (a debug session), not when the file is read.
   */
  private stepSample: Uint32Array | null = null;

  /** The 1-based line of record r. */
  lineOf(r: number): number {
    return this.firstRecordLine + r + this.lineGaps.extraBefore(r);
  }

  /** The record on a 1-based line, or -1 when that line holds no record. */
  recordAtLine(line: number): number {
    const r = lowerBound(0, this.recordCount, (i) => this.lineOf(i) < line);
    return r < this.recordCount && this.lineOf(r) === line ? r : -1;
  }

  kindName(r: number): string {
    return this.kinds[this.kind[r]];
  }

  kindIndex(name: string): number {
    return this.kinds.indexOf(name);
  }

  threadIndex(id: string): number {
    return this.threads.findIndex((t) => t.id === id);
  }

  /** Record r's payload bytes (empty when it has none). */
  payload(r: number): Uint8Array {
    const j = this.payloadIndex(r);
    return j < 0 ? this.bytes.subarray(0, 0) : this.bytes.subarray(this.payloadOffset[j], this.payloadOffset[j + 1]);
  }

  /** The index of record r in payloadRecord, or -1 when it has no payload. */
  payloadIndex(r: number): number {
    const records = this.payloadRecord;
    const j = lowerBound(0, records.length, (i) => records[i] < r);
    return j < records.length && records[j] === r ? j : -1;
  }

  /**
   * Every record's payload bounds in `bytes` (equal for a record without one), for code that
   * compares all records' payloads (compare/); 8 bytes a record, made on each call.
   */
  payloadBounds(): { begin: Uint32Array; end: Uint32Array } {
    const begin = new Uint32Array(this.recordCount);
    const end = new Uint32Array(this.recordCount);
    const records = this.payloadRecord;
    const offsets = this.payloadOffset;
    let j = 0;
    let at = 0;
    for (let r = 0; r < this.recordCount; r++) {
      if (j < records.length && records[j] === r) {
        begin[r] = offsets[j];
        at = offsets[++j];
        end[r] = at;
      } else {
        begin[r] = at;
        end[r] = at;
      }
    }
    return { begin, end };
  }

  isStep(r: number): boolean {
    return this.stepKind[this.kind[r]] === 1;
  }

  /** The record of step k (0 <= k < stepCount). */
  recordOfStep(k: number): number {
    const other = this.otherRecord;
    if (other.length === 0) return k;
    // Count the non-step records before it: those i with otherRecord[i] - i <= k.
    const sample = (this.stepSample ??= sampleSteps(other, this.stepCount));
    return k + lowerBound(sample[k >> 6], sample[(k >> 6) + 1], (i) => other[i] - i <= k);
  }

  /** The first step record at or after r (recordCount when none): walks steps without a search. */
  stepAtOrAfter(r: number): number {
    while (r < this.recordCount && this.stepKind[this.kind[r]] !== 1) r++;
    return r;
  }

  /** The last step record at or before r (-1 when none). */
  stepAtOrBefore(r: number): number {
    while (r >= 0 && this.stepKind[this.kind[r]] !== 1) r--;
    return r;
  }

  /** The thread that performed step k. */
  threadOfStep(k: number): number {
    return this.thread[this.recordOfStep(k)];
  }

  /** Every step's record, in a new array (4 bytes a step): for views that need them all at once. */
  stepRecords(): Uint32Array {
    const out = new Uint32Array(this.stepCount);
    let r = -1;
    for (let k = 0; k < out.length; k++) out[k] = r = this.stepAtOrAfter(r + 1);
    return out;
  }

  /** The thread of each step 0..count-1: the causal chain that leads to position `count`. */
  stepThreads(count = this.stepCount): Uint32Array {
    const out = new Uint32Array(count);
    let r = -1;
    for (let k = 0; k < count; k++) out[k] = this.thread[(r = this.stepAtOrAfter(r + 1))];
    return out;
  }

  /** The step number of record r, or -1 when r is not a step. */
  stepOf(r: number): number {
    return this.isStep(r) ? this.stepsBefore(r) : -1;
  }

  /** How many steps precede record r in the file. */
  stepsBefore(r: number): number {
    // r minus the non-step records before it (binary search over otherRecord).
    const other = this.otherRecord;
    return r - lowerBound(0, other.length, (i) => other[i] < r);
  }

  /** The cursor position at which record r is done (see the vocabulary above). */
  positionOf(r: number): number {
    const k = this.stepsBefore(r);
    return this.isStep(r) ? k + 1 : k;
  }

  /** The first record not yet done at position p (recordCount when all are). */
  frontier(p: number): number {
    if (p >= this.stepCount) return this.recordCount;
    // Records up to and including step p-1 are done, as are non-step records after it.
    return this.recordOfStep(p);
  }

  label(t: number): string {
    const info = this.threads[t];
    return info.label ? `${info.id} ${info.label}` : info.id;
  }

  /** Thread t as text names it after its unit word (format-traits.ts): `0.1 worker` (a goroutine), `2` (a task). */
  nameOf(t: number): string {
    return this.traits.threadName === 'id' ? this.threads[t].id : this.label(t);
  }
}

function sampleSteps(other: Uint32Array, stepCount: number): Uint32Array {
  const blocks = (stepCount >> 6) + 1;
  const sample = new Uint32Array(blocks + 1);
  let i = 0;
  for (let b = 0; b <= blocks; b++) {
    const firstStep = b * 64;
    while (i < other.length && other[i] - i < firstStep) i++;
    sample[b] = i;
  }
  return sample;
}

/** The arrays TimelineBuilder.reserve hands a reader's hot loop. */
export interface RecordArrays {
  kind: Uint8Array;
  thread: Uint8Array | Uint16Array | Uint32Array;
  payloadRecord: Uint32Array;
  payloadOffset: Uint32Array;
  otherRecord: Uint32Array;
  bytes: Uint8Array;
}

/** Collects records while a reader streams a file; sizes come from an upper bound so nothing is copied. */
export class TimelineBuilder {
  private kinds: string[] = [];
  private stepKinds: number[] = [];
  private kindIds = new Map<string, number>();
  readonly threads: ThreadInfo[] = [];
  private threadIds = new Map<string, number>();
  private kind: Uint8Array;
  private thread: Uint8Array | Uint16Array | Uint32Array;
  private payloadRecord: Uint32Array;
  private payloadOffset: Uint32Array;
  private bytes: Uint8Array;
  private otherRecord: Uint32Array;
  private count = 0;
  private others = 0;
  private payloads = 0;
  private used = 0;
  /** reservePayload was called for the next record. */
  private payloadPending = false;
  private lineGaps = new LineGaps();
  private extraLines = 0;

  /**
   * maxRecords and maxPayload are upper bounds (for a trace: from the file size). The arrays are
   * allocated at that size; pages never written are never touched, so the resident size follows
   * what is actually stored, and the final arrays are views, not copies.
   */
  constructor(maxRecords: number, maxPayload: number) {
    const records = Math.max(1, maxRecords);
    this.kind = new Uint8Array(records);
    this.thread = new Uint8Array(records);
    this.payloadRecord = new Uint32Array(records);
    this.payloadOffset = new Uint32Array(records + 1);
    this.bytes = new Uint8Array(Math.max(1, maxPayload));
    this.otherRecord = new Uint32Array(records);
  }

  get recordCount(): number {
    return this.count;
  }

  get stepCount(): number {
    return this.count - this.others;
  }

  get otherCount(): number {
    return this.others;
  }

  /** The index of kind `name`, whose records are steps when `step` (the same for every record of a kind). */
  internKind(name: string, step: boolean): number {
    let id = this.kindIds.get(name);
    if (id === undefined) {
      if (this.kinds.length >= 255) throw new Error('more than 255 record kinds');
      id = this.kinds.length;
      this.kinds.push(name);
      this.stepKinds.push(step ? 1 : 0);
      this.kindIds.set(name, id);
    } else if (this.stepKinds[id] !== (step ? 1 : 0)) {
      throw new Error(`record kind ${name} interned both as a step and not`);
    }
    return id;
  }

  internThread(id: string, label = ''): number {
    const t = this.threadIds.get(id);
    if (t !== undefined) return t;
    const added = this.addThread(id, label);
    this.threadIds.set(id, added);
    return added;
  }

  /**
   * A thread the caller knows is new (a reader with its own id table, as the trace reader's
   * GoroutineTable): no second lookup by string, which for 750,000 goroutines is most of the cost
   * of their first lines. Do not mix with internThread for the same ids.
   */
  addThread(id: string, label = ''): number {
    const t = this.threads.length;
    this.threads.push({ id, label });
    if (t > 0xff && this.thread instanceof Uint8Array) this.widenThreads(Uint16Array);
    if (t > 0xffff && this.thread instanceof Uint16Array) this.widenThreads(Uint32Array);
    return t;
  }

  /** Copies the records so far into a wider thread column (only those: the rest stays untouched). */
  private widenThreads(to: Uint16ArrayConstructor | Uint32ArrayConstructor): void {
    const wide = new to(this.thread.length);
    wide.set(this.thread.subarray(0, this.count));
    this.thread = wide;
  }

  /** Record that `lines` blank or skipped lines come before the next record. */
  skipLines(lines: number): void {
    this.extraLines += lines;
    this.lineGaps.add(this.count, this.extraLines);
  }

  /** Reserve `length` payload bytes for the next record and return the offset to write them at. */
  reservePayload(length: number): number {
    const at = this.used;
    if (at + length > this.bytes.length) {
      // The bound was too small (a capsule, for instance, does not know it up front): grow.
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, at + length));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    this.used = at + length;
    this.payloadPending = true;
    return at;
  }

  get payloadBytes(): Uint8Array {
    return this.bytes;
  }

  /** Append a record whose payload was written with reservePayload just before (or none). */
  add(kind: number, thread: number): number {
    const r = this.count;
    if (r >= this.kind.length) this.grow();
    this.kind[r] = kind;
    this.thread[r] = thread;
    if (this.payloadPending) {
      this.payloadRecord[this.payloads] = r;
      this.payloadOffset[++this.payloads] = this.used;
      this.payloadPending = false;
    }
    if (this.stepKinds[kind] !== 1) this.otherRecord[this.others++] = r;
    this.count = r + 1;
    return r;
  }

  /**
   * For a reader's hot loop (mflrr/read-trace.ts), which writes records itself: the arrays to write
   * records recordCount.. and payload bytes payloadUsed.. into, with room for at least `records`
   * more records and `payload` more bytes. Record r is written as add() does: kind[r], thread[r],
   * otherRecord[i] = r when it is not a step, and for a payload j: payloadRecord[j] = r,
   * payloadOffset[j + 1] (its end). Then commit() the new counts before any other call; any other
   * call (internThread may widen `thread`) invalidates the arrays.
   */
  reserve(records: number, payload: number): RecordArrays {
    while (this.count + records > this.kind.length) this.grow();
    if (this.used + payload > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + payload));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    return {
      kind: this.kind,
      thread: this.thread,
      payloadRecord: this.payloadRecord,
      payloadOffset: this.payloadOffset,
      otherRecord: this.otherRecord,
      bytes: this.bytes,
    };
  }

  /** The counts after records were written through reserve(). */
  commit(recordCount: number, otherCount: number, payloadCount: number, payloadUsed: number): void {
    this.count = recordCount;
    this.others = otherCount;
    this.payloads = payloadCount;
    this.used = payloadUsed;
  }

  /** Bytes per record in the thread column (1, 2 or 4). */
  get threadBytes(): number {
    return this.thread.BYTES_PER_ELEMENT;
  }

  get payloadCount(): number {
    return this.payloads;
  }

  get payloadUsed(): number {
    return this.used;
  }

  private grow(): void {
    const size = this.kind.length * 2;
    const kind = new Uint8Array(size);
    kind.set(this.kind);
    this.kind = kind;
    const thread = new (this.thread.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor)(size);
    thread.set(this.thread);
    this.thread = thread;
    const records = new Uint32Array(size);
    records.set(this.payloadRecord);
    this.payloadRecord = records;
    const offsets = new Uint32Array(size + 1);
    offsets.set(this.payloadOffset);
    this.payloadOffset = offsets;
    const others = new Uint32Array(size);
    others.set(this.otherRecord);
    this.otherRecord = others;
  }

  finish(format: RecordingFormat, file: string, facts: HeaderFact[], firstRecordLine: number): Timeline {
    const n = this.count;
    return new Timeline(
      format,
      file,
      facts,
      this.threads,
      this.kinds,
      Uint8Array.from(this.stepKinds),
      n,
      this.kind.subarray(0, n),
      this.thread.subarray(0, n),
      this.payloadRecord.subarray(0, this.payloads),
      this.payloadOffset.subarray(0, this.payloads + 1),
      this.bytes.subarray(0, this.used),
      n - this.others,
      this.otherRecord.subarray(0, this.others),
      firstRecordLine,
      this.lineGaps.trimmed(),
    );
  }
}
