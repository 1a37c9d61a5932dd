// The format-neutral timeline: every record of a recording (machin trace or Tin capsule) in
// compact typed arrays, never one object per record. A 10M-op trace is ~11M records; with the
// layout below that is about 12 bytes a record plus its payload bytes.
//
// Vocabulary shared by every view:
// - record r: one line of a trace (`S`/`I`) or one effect of a capsule, 0..recordCount-1, in file order.
// - step k: a record the cursor moves over (a machin schedule op, a Tin effect), 0..stepCount-1.
// - position p: how many steps have completed, 0..stepCount. Record r is "done" at position
//   `positionOf(r)`: a step k is done at p = k+1; a non-step record (a machin I/O line) is done at
//   the number of steps that precede it in the file (it was consumed before the next op).

export type RecordingFormat = 'mflrr' | 'tcap';

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
  constructor(
    readonly format: RecordingFormat,
    /** Absolute path of the recording file. */
    readonly file: string,
    readonly facts: HeaderFact[],
    readonly threads: ThreadInfo[],
    /** Interned kind names, indexed by `kind[r]`. mflrr: `sched`, `io`; tcap: `redis@1`, ... */
    readonly kinds: string[],
    readonly recordCount: number,
    readonly kind: Uint8Array,
    readonly thread: Uint16Array | Uint32Array,
    /** recordCount + 1 offsets into `bytes`: record r's payload is bytes[payloadStart[r] .. payloadStart[r+1]). */
    readonly payloadStart: Uint32Array,
    readonly bytes: Uint8Array,
    readonly stepCount: number,
    /** stepCount entries: the record index of step k. */
    readonly stepRecord: Uint32Array,
    /** 1-based line (in the recording text, or in the decoded document of a capsule) of record 0. */
    readonly firstRecordLine: number,
    /**
     * Records whose line is not `firstRecordLine + r` (blank or skipped lines before them), as
     * sorted pairs [record, extra lines before it, cumulative]. Empty for well-formed files.
     */
    readonly lineGaps: ReadonlyArray<readonly [number, number]> = [],
  ) {}

  /** The 1-based line of record r. */
  lineOf(r: number): number {
    let extra = 0;
    for (const [rec, cumulative] of this.lineGaps) {
      if (rec > r) break;
      extra = cumulative;
    }
    return this.firstRecordLine + r + extra;
  }

  /** The record on a 1-based line, or -1 when that line holds no record. */
  recordAtLine(line: number): number {
    let lo = 0;
    let hi = this.recordCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const l = this.lineOf(mid);
      if (l === line) return mid;
      if (l < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
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

  payload(r: number): Uint8Array {
    return this.bytes.subarray(this.payloadStart[r], this.payloadStart[r + 1]);
  }

  /** The step number of record r, or -1 when r is not a step. */
  stepOf(r: number): number {
    const k = this.stepsBefore(r);
    return k < this.stepCount && this.stepRecord[k] === r ? k : -1;
  }

  /** How many steps precede record r in the file (binary search over stepRecord). */
  stepsBefore(r: number): number {
    let lo = 0;
    let hi = this.stepCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.stepRecord[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The cursor position at which record r is done (see the vocabulary above). */
  positionOf(r: number): number {
    const k = this.stepsBefore(r);
    return k < this.stepCount && this.stepRecord[k] === r ? k + 1 : k;
  }

  /** The first record not yet done at position p (recordCount when all are). */
  frontier(p: number): number {
    if (p >= this.stepCount) return this.recordCount;
    // Records up to and including step p-1 are done, as are non-step records after it.
    return this.stepRecord[p];
  }

  label(t: number): string {
    const info = this.threads[t];
    return info.label ? `${info.id} ${info.label}` : info.id;
  }
}

/** The arrays TimelineBuilder.reserve hands a reader's hot loop. */
export interface RecordArrays {
  kind: Uint8Array;
  thread: Uint16Array | Uint32Array;
  payloadStart: Uint32Array;
  stepRecord: Uint32Array;
  bytes: Uint8Array;
}

/** Collects records while a reader streams a file; sizes come from an upper bound so nothing is copied. */
export class TimelineBuilder {
  private kinds: string[] = [];
  private kindIds = new Map<string, number>();
  readonly threads: ThreadInfo[] = [];
  private threadIds = new Map<string, number>();
  private kind: Uint8Array;
  private thread: Uint16Array | Uint32Array;
  private payloadStart: Uint32Array;
  private bytes: Uint8Array;
  private stepRecord: Uint32Array;
  private count = 0;
  private steps = 0;
  private used = 0;
  private lineGaps: Array<[number, number]> = [];
  private extraLines = 0;

  /**
   * maxRecords and maxPayload are upper bounds (for a trace: from the file size). The arrays are
   * allocated at that size; pages never written are never touched, so the resident size follows
   * what is actually stored, and the final arrays are views, not copies.
   */
  constructor(maxRecords: number, maxPayload: number) {
    const records = Math.max(1, maxRecords);
    this.kind = new Uint8Array(records);
    this.thread = new Uint16Array(records);
    this.payloadStart = new Uint32Array(records + 1);
    this.bytes = new Uint8Array(Math.max(1, maxPayload));
    this.stepRecord = new Uint32Array(records);
  }

  get recordCount(): number {
    return this.count;
  }

  get stepCount(): number {
    return this.steps;
  }

  internKind(name: string): number {
    let id = this.kindIds.get(name);
    if (id === undefined) {
      if (this.kinds.length >= 255) throw new Error('more than 255 record kinds');
      id = this.kinds.length;
      this.kinds.push(name);
      this.kindIds.set(name, id);
    }
    return id;
  }

  internThread(id: string, label = ''): number {
    let t = this.threadIds.get(id);
    if (t === undefined) {
      t = this.threads.length;
      this.threads.push({ id, label });
      this.threadIds.set(id, t);
      if (t > 0xffff && this.thread instanceof Uint16Array) {
        const wide = new Uint32Array(this.thread.length);
        wide.set(this.thread);
        this.thread = wide;
      }
    }
    return t;
  }

  /** Record that `lines` blank or skipped lines come before the next record. */
  skipLines(lines: number): void {
    this.extraLines += lines;
    this.lineGaps.push([this.count, this.extraLines]);
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
    return at;
  }

  get payloadBytes(): Uint8Array {
    return this.bytes;
  }

  /** Append a record whose payload was written with reservePayload just before (or none). */
  add(kind: number, thread: number, isStep: boolean): number {
    const r = this.count;
    if (r >= this.kind.length) this.grow();
    this.kind[r] = kind;
    this.thread[r] = thread;
    this.payloadStart[r + 1] = this.used;
    if (isStep) this.stepRecord[this.steps++] = r;
    this.count = r + 1;
    return r;
  }

  /**
   * For a reader's hot loop (mflrr/read-trace.ts), which writes records itself: the arrays to write
   * records recordCount.. and payload bytes payloadUsed.. into, with room for at least `records`
   * more records and `payload` more bytes. Record r is written as add() does: kind[r], thread[r],
   * payloadStart[r + 1] (= payload end), stepRecord[k] for a step. Then commit() the new counts
   * before any other call; any other call (internThread may widen `thread`) invalidates the arrays.
   */
  reserve(records: number, payload: number): RecordArrays {
    while (this.count + records > this.kind.length) this.grow();
    if (this.used + payload > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + payload));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    return { kind: this.kind, thread: this.thread, payloadStart: this.payloadStart, stepRecord: this.stepRecord, bytes: this.bytes };
  }

  /** The counts after records were written through reserve(). */
  commit(recordCount: number, stepCount: number, payloadUsed: number): void {
    this.count = recordCount;
    this.steps = stepCount;
    this.used = payloadUsed;
  }

  get payloadUsed(): number {
    return this.used;
  }

  /** Undo payload bytes reserved for a record that will not be added (a cut last line). */
  dropPayloadFrom(offset: number): void {
    this.used = offset;
  }

  private grow(): void {
    const size = this.kind.length * 2;
    const kind = new Uint8Array(size);
    kind.set(this.kind);
    this.kind = kind;
    const thread = this.thread instanceof Uint16Array ? new Uint16Array(size) : new Uint32Array(size);
    thread.set(this.thread);
    this.thread = thread;
    const start = new Uint32Array(size + 1);
    start.set(this.payloadStart);
    this.payloadStart = start;
    const steps = new Uint32Array(size);
    steps.set(this.stepRecord);
    this.stepRecord = steps;
  }

  finish(format: RecordingFormat, file: string, facts: HeaderFact[], firstRecordLine: number): Timeline {
    const n = this.count;
    return new Timeline(
      format,
      file,
      facts,
      this.threads,
      this.kinds,
      n,
      this.kind.subarray(0, n),
      this.thread.subarray(0, n),
      this.payloadStart.subarray(0, n + 1),
      this.bytes.subarray(0, this.used),
      this.steps,
      this.stepRecord.subarray(0, this.steps),
      firstRecordLine,
      this.lineGaps,
    );
  }
}
