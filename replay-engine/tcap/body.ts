// The decrypted body (schema 1 and 2): the header fields, then `count` effect records. One pass
// checks every record (lengths against the bytes that remain, seq 0, 1, 2, ..., outcome and
// sentinel ranges, known kinds, resumed task numbers, nothing after the last record) and keeps
// per effect only its offset, its kind and its task's thread, in typed arrays: no object or
// string is made per effect. Everything else is read from the body when asked (effect-index.ts).
// The hot loop reads the words itself; when a check fails, the record is read again by the
// ByteReader, which says exactly what is wrong and where.
import { RecordingError } from '../model/errors';
import type { ThreadInfo } from '../model/timeline';
import { ByteReader } from './byte-reader';
import { EffectIndex } from './effect-index';
import { KNOWN_KINDS, MIN_RECORD_LENGTH, RESUME_KIND } from './format';

export interface CapsuleHeader {
  schema: number;
  tin: Uint8Array;
  program: Uint8Array;
  wall: bigint;
  core: bigint;
  status: bigint;
  flags: bigint;
  request: Uint8Array;
  panic: Uint8Array;
  /** Schema 2 only; null for schema 1. */
  peer: Uint8Array | null;
}

export interface ParsedBody {
  header: CapsuleHeader;
  effects: EffectIndex;
  /** Interned kind names; kind[r] indexes them. */
  kinds: string[];
  kind: Uint8Array;
  /** Tasks in order of first appearance: thread index t is task Number(threads[t].id). */
  threads: ThreadInfo[];
  thread: Uint8Array | Uint16Array | Uint32Array;
  counts: EffectCounts;
}

/** Effects per kind index and per thread index, counted by the scan (for the summary). */
export interface EffectCounts {
  byKind: Uint32Array;
  byThread: Uint32Array;
}

/** A resumed task number above this is refused (it is a damaged word, not a task). */
const MAX_TASK = 0xfffffff;

export function parseBody(body: Uint8Array, file: string, fileOffset: number): ParsedBody {
  const r = new ByteReader(body, file, fileOffset);
  const schemaWord = r.word('schema');
  if (schemaWord !== 1n && schemaWord !== 2n) {
    throw new RecordingError(
      'unsupported-schema',
      `${file}: capsule body schema ${schemaWord} is not supported (this reader knows schemas 1 and 2); update Frozen Run or replay it with the tin that wrote it`,
      { file, offset: fileOffset },
    );
  }
  const schema = Number(schemaWord);
  const header: CapsuleHeader = {
    schema,
    tin: r.string('tin version'),
    program: r.string('program'),
    wall: r.word('wall'),
    core: r.word('core'),
    status: r.word('status'),
    flags: r.word('flags'),
    request: r.string('request'),
    panic: r.string('panic'),
    peer: schema >= 2 ? r.string('peer') : null,
  };
  const count = r.length('effect count', Math.floor((r.remaining - 8) / MIN_RECORD_LENGTH));
  const recordAt = new Uint32Array(count);
  const kindOf = new Uint8Array(count);
  let thread: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(count);
  const threads: ThreadInfo[] = [];
  const threadOfTask = new Map<number, number>();
  // Threads of the tasks numbered below SMALL_TASKS, for the scan (-1: not seen yet).
  const smallThread = new Int32Array(SMALL_TASKS).fill(-1);
  const internTask = (task: number): number => {
    let t = threadOfTask.get(task);
    if (t === undefined) {
      t = threads.length;
      threads.push({ id: String(task), label: task === 0 ? 'request' : `task ${task}` });
      threadOfTask.set(task, t);
      if (task < SMALL_TASKS) smallThread[task] = t;
      if (t > 0xff && thread instanceof Uint8Array) thread = Uint16Array.from(thread);
      else if (t > 0xffff && thread instanceof Uint16Array) thread = Uint32Array.from(thread);
    }
    return t;
  };
  // Kinds seen so far, by where their bytes first appeared (compared byte for byte, no string made).
  const kinds: string[] = [];
  const kindAt = new Int32Array(MAX_KINDS);
  const kindLength = new Int32Array(MAX_KINDS);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  // Counted in the scan's loop, where they cost two increments a record: a loop of its own over
  // 300,000 records after it ran mostly unoptimized in a one-shot CLI (8 to 14 ms).
  const kindCount = new Uint32Array(MAX_KINDS);
  let threadCount = new Uint32Array(16);
  const st = new Float64Array(STATE_SIZE);
  st[S_I] = 0;
  st[S_P] = r.pos;
  st[S_THREAD] = internTask(0);
  st[S_LAST_KIND] = -1;
  st[S_RESUME_KIND] = -1;
  st[S_LAST_TASK] = 0;
  // The scan runs until it meets a kind or a task it has not seen (or a bad record); those are
  // handled here, and the scan goes on from the start of that record.
  for (;;) {
    scanRecords(body, view, count, recordAt, kindOf, thread, kindAt, kindLength, kinds.length, smallThread, kindCount, threadCount, st);
    const stop = st[S_STOP];
    if (stop === STOP_DONE) break;
    const i = st[S_I];
    const start = st[S_P];
    if (stop === STOP_BAD) throw recordError(r, start, i);
    if (stop === STOP_BAD_RESUME) throw resumeError(r, view, st[S_VALUE], st[S_VALUE2], i);
    if (stop === STOP_NEW_KIND) {
      const at = st[S_VALUE];
      const length = st[S_VALUE2];
      const kind = newKind(body, at, length, kinds.length, file, fileOffset + start, i);
      kinds.push(kindName(body, at, length));
      kindAt[kind] = at;
      kindLength[kind] = length;
      if (kinds[kind] === RESUME_KIND) st[S_RESUME_KIND] = kind;
    } else {
      // STOP_NEW_TASK: a task number the scan has no thread for at hand.
      const task = st[S_VALUE];
      st[S_LAST_TASK] = task;
      st[S_LAST_THREAD] = internTask(task);
      if (threads.length > threadCount.length) {
        const grown = new Uint32Array(threadCount.length * 2);
        grown.set(threadCount);
        threadCount = grown;
      }
    }
  }
  r.pos = st[S_P];
  if (r.remaining > 0) throw r.damaged(`${r.remaining} bytes after the last of ${count} effect records`);
  const counts = { byKind: kindCount.subarray(0, kinds.length), byThread: threadCount.subarray(0, threads.length) };
  return { header, effects: new EffectIndex(body, recordAt), kinds, kind: kindOf, threads, thread, counts };
}

/** Kinds per capsule: the kind of an effect is one byte. */
const MAX_KINDS = 256;
/** Tasks numbered below this find their thread in a typed array during the scan; others through a stop. */
const SMALL_TASKS = 4096;

// The scan's state, kept between its runs (a Float64Array: offsets beyond 2^31 stay exact).
const S_I = 0; // the next record
const S_P = 1; // where it starts
const S_THREAD = 2; // the thread of the effects from here on
const S_LAST_KIND = 3;
const S_RESUME_KIND = 4;
const S_LAST_TASK = 5;
const S_LAST_THREAD = 6;
const S_STOP = 7;
const S_VALUE = 8;
const S_VALUE2 = 9;
const STATE_SIZE = 10;
const STOP_DONE = 0;
const STOP_BAD = 1;
const STOP_NEW_KIND = 2;
const STOP_NEW_TASK = 3;
const STOP_BAD_RESUME = 4;

/**
 * The per-record pass: checks record i at p (seq == i, every length against what remains,
 * outcome, ident, the resumed task), finds its kind among the first `kinds` and its thread,
 * and fills recordAt, kindOf and thread (and counts it by kind and thread), until the last record or a stop: a kind or task not
 * seen before, or a record that fails a check (its start is left in st[S_P], for the reader
 * that says why). Small and self-contained on purpose: the optimizing compiler takes a few ms
 * over it, where over the whole of parseBody it took longer than the scan of 300,000 records.
 */
function scanRecords(
  body: Uint8Array,
  view: DataView,
  count: number,
  recordAt: Uint32Array,
  kindOf: Uint8Array,
  thread: Uint8Array | Uint16Array | Uint32Array,
  kindAt: Int32Array,
  kindLength: Int32Array,
  kinds: number,
  smallThread: Int32Array,
  kindCount: Uint32Array,
  threadCount: Uint32Array,
  st: Float64Array,
): void {
  const n = body.length;
  // As small integers for the compiler (i, threads, kinds and tasks fit 31 bits; p is below 2^32).
  let i = st[S_I] | 0;
  let p = st[S_P] >>> 0;
  let t = st[S_THREAD] | 0;
  let lastKind = st[S_LAST_KIND] | 0;
  const resumeKind = st[S_RESUME_KIND] | 0;
  let lastTask = st[S_LAST_TASK] | 0;
  let lastThread = st[S_LAST_THREAD] | 0;
  let stop = STOP_DONE;
  let value = 0;
  let value2 = 0;
  let start = p;
  for (; i < count; i++) {
    start = p;
    // seq == i, then the kind's length
    if (p + 16 > n || view.getUint32(p, true) !== i || view.getInt32(p + 4, true) !== 0) {
      stop = STOP_BAD;
      break;
    }
    const kl = view.getUint32(p + 8, true);
    if (view.getInt32(p + 12, true) !== 0 || kl > n - p - 16) {
      stop = STOP_BAD;
      break;
    }
    const ka = p + 16;
    p = ka + kl;
    let kind = lastKind;
    if (kind < 0 || !sameBytes(view, body, ka, kl, kindAt[kind], kindLength[kind])) {
      kind = -1;
      for (let k = 0; k < kinds; k++) {
        if (sameBytes(view, body, ka, kl, kindAt[k], kindLength[k])) {
          kind = k;
          break;
        }
      }
      if (kind < 0) {
        stop = STOP_NEW_KIND;
        value = ka;
        value2 = kl;
        break;
      }
      lastKind = kind;
    }
    // key
    if (p + 8 > n) {
      stop = STOP_BAD;
      break;
    }
    const keyLength = view.getUint32(p, true);
    if (view.getInt32(p + 4, true) !== 0 || keyLength > n - p - 8) {
      stop = STOP_BAD;
      break;
    }
    p += 8 + keyLength;
    // outcome, ident, data length
    if (p + 24 > n) {
      stop = STOP_BAD;
      break;
    }
    const outcome = view.getUint32(p, true);
    const ident = view.getUint32(p + 8, true);
    const dataLength = view.getUint32(p + 16, true);
    if (outcome > 1 || view.getInt32(p + 4, true) !== 0 || ident > 6 || view.getInt32(p + 12, true) !== 0 || view.getInt32(p + 20, true) !== 0 || dataLength > n - p - 24) {
      stop = STOP_BAD;
      break;
    }
    const dataAt = p + 24;
    p = dataAt + dataLength;
    if (kind === resumeKind && outcome === 0) {
      if (dataLength !== 8 || view.getInt32(dataAt + 4, true) !== 0 || view.getUint32(dataAt, true) > MAX_TASK) {
        stop = STOP_BAD_RESUME;
        value = dataAt;
        value2 = dataLength;
        break;
      }
      const task = view.getUint32(dataAt, true);
      if (task === lastTask) {
        t = lastThread;
      } else {
        const known = task < SMALL_TASKS ? smallThread[task] : -1;
        if (known < 0) {
          stop = STOP_NEW_TASK;
          value = task;
          break;
        }
        t = known;
        lastTask = task;
        lastThread = known;
      }
    }
    recordAt[i] = start;
    kindOf[i] = kind;
    thread[i] = t;
    kindCount[kind]++;
    threadCount[t]++;
  }
  st[S_I] = i;
  st[S_P] = stop === STOP_DONE ? p : start;
  st[S_THREAD] = t;
  st[S_LAST_KIND] = lastKind;
  st[S_LAST_TASK] = lastTask;
  st[S_LAST_THREAD] = lastThread;
  st[S_STOP] = stop;
  st[S_VALUE] = value;
  st[S_VALUE2] = value2;
}

/** Whether bytes [a, a + aLength) equal [b, b + bLength), four bytes at a time. */
function sameBytes(view: DataView, bytes: Uint8Array, a: number, aLength: number, b: number, bLength: number): boolean {
  if (aLength !== bLength) return false;
  let i = 0;
  for (; i + 4 <= aLength; i += 4) if (view.getUint32(a + i, true) !== view.getUint32(b + i, true)) return false;
  for (; i < aLength; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

function kindName(body: Uint8Array, at: number, length: number): string {
  return Buffer.from(body.buffer, body.byteOffset + at, length).toString('latin1');
}

/** A kind not seen before in this capsule: its index, or the unknown-kind error. */
function newKind(body: Uint8Array, at: number, length: number, index: number, file: string, offset: number, i: number): number {
  const name = kindName(body, at, length);
  if (!KNOWN_KINDS.has(name)) {
    const shown = Buffer.from(body.buffer, body.byteOffset + at, length).toString('utf8');
    throw new RecordingError(
      'unknown-kind',
      `${file}: effect ${i} has kind ${JSON.stringify(shown).slice(1, -1)}, which this reader cannot show (it is not in the capsule format this reader knows; update Frozen Run)`,
      { file, offset },
    );
  }
  if (index >= 255) throw new RecordingError('damaged', `${file}: effect ${i}: more than 255 effect kinds`, { file, offset });
  return index;
}

/** Reads record i at `start` field by field, to throw the error that names the bad field. */
function recordError(r: ByteReader, start: number, i: number): RecordingError {
  r.pos = start;
  try {
    r.small('seq', i, i, i);
    r.span('kind', i);
    r.span('key', i);
    r.small('outcome', 0, 1, i);
    r.small('ident (fault sentinel)', 0, 6, i);
    r.span('data', i);
  } catch (e) {
    if (e instanceof RecordingError) return e;
    throw e;
  }
  return r.damaged(`effect ${i} cannot be read`, start);
}

/** A resume's result word must be a task number: the effects after it, until the next resume, are its. */
function resumeError(r: ByteReader, view: DataView, dataAt: number, dataLength: number, i: number): RecordingError {
  if (dataLength !== 8) return r.damaged(`effect ${i} (sched.resume@1) result is ${dataLength} bytes, a task number is one 8-byte word`, dataAt);
  return r.damaged(`effect ${i} (sched.resume@1) resumes task ${view.getBigInt64(dataAt, true)}, not a task number`, dataAt);
}

/** A resume's result word: the task switched in. The effects after it, until the next resume, are its. */
export function resumedTask(data: Uint8Array, r: ByteReader, i: number): number {
  if (data.length !== 8) throw r.damaged(`effect ${i} (sched.resume@1) result is ${data.length} bytes, a task number is one 8-byte word`, r.pos - data.length);
  const view = new DataView(data.buffer, data.byteOffset, 8);
  const lo = view.getUint32(0, true);
  const hi = view.getInt32(4, true);
  if (hi !== 0 || lo > MAX_TASK) throw r.damaged(`effect ${i} (sched.resume@1) resumes task ${view.getBigInt64(0, true)}, not a task number`, r.pos - 8);
  return lo;
}
