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
  const internTask = (task: number): number => {
    let t = threadOfTask.get(task);
    if (t === undefined) {
      t = threads.length;
      threads.push({ id: String(task), label: task === 0 ? 'request' : `task ${task}` });
      threadOfTask.set(task, t);
      if (t > 0xff && thread instanceof Uint8Array) thread = Uint16Array.from(thread);
      else if (t > 0xffff && thread instanceof Uint16Array) thread = Uint32Array.from(thread);
    }
    return t;
  };
  // Kinds seen so far, by where their bytes first appeared (compared byte for byte, no string made).
  const kinds: string[] = [];
  const kindAtOf: number[] = [];
  const kindLengthOf: number[] = [];
  let resumeKind = -1;
  let lastKind = -1;
  let t = internTask(0);

  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const n = body.length;
  let p = r.pos;
  for (let i = 0; i < count; i++) {
    const start = p;
    // seq == i, then the kind's length; any failed check re-reads the record to say why.
    if (p + 16 > n || view.getUint32(p, true) !== i || view.getInt32(p + 4, true) !== 0) throw recordError(r, start, i);
    const kindLength = view.getUint32(p + 8, true);
    if (view.getInt32(p + 12, true) !== 0 || kindLength > n - p - 16) throw recordError(r, start, i);
    const kindAt = p + 16;
    p = kindAt + kindLength;
    let kind = lastKind;
    if (kind < 0 || !sameBytes(body, kindAt, kindLength, kindAtOf[kind], kindLengthOf[kind])) {
      kind = -1;
      for (let k = 0; k < kinds.length; k++) {
        if (sameBytes(body, kindAt, kindLength, kindAtOf[k], kindLengthOf[k])) {
          kind = k;
          break;
        }
      }
      if (kind < 0) {
        kind = newKind(body, kindAt, kindLength, kinds.length, file, fileOffset + start, i);
        kinds.push(kindName(body, kindAt, kindLength));
        kindAtOf.push(kindAt);
        kindLengthOf.push(kindLength);
        if (kinds[kind] === RESUME_KIND) resumeKind = kind;
      }
      lastKind = kind;
    }
    // key
    if (p + 8 > n) throw recordError(r, start, i);
    const keyLength = view.getUint32(p, true);
    if (view.getInt32(p + 4, true) !== 0 || keyLength > n - p - 8) throw recordError(r, start, i);
    p += 8 + keyLength;
    // outcome, ident, data length
    if (p + 24 > n) throw recordError(r, start, i);
    const outcome = view.getUint32(p, true);
    const ident = view.getUint32(p + 8, true);
    const dataLength = view.getUint32(p + 16, true);
    if (outcome > 1 || view.getInt32(p + 4, true) !== 0 || ident > 6 || view.getInt32(p + 12, true) !== 0) throw recordError(r, start, i);
    if (view.getInt32(p + 20, true) !== 0 || dataLength > n - p - 24) throw recordError(r, start, i);
    const dataAt = p + 24;
    p = dataAt + dataLength;
    if (kind === resumeKind && outcome === 0) {
      if (dataLength !== 8 || view.getInt32(dataAt + 4, true) !== 0 || view.getUint32(dataAt, true) > MAX_TASK) throw resumeError(r, view, dataAt, dataLength, i);
      t = internTask(view.getUint32(dataAt, true));
    }
    recordAt[i] = start;
    kindOf[i] = kind;
    thread[i] = t;
  }
  r.pos = p;
  if (r.remaining > 0) throw r.damaged(`${r.remaining} bytes after the last of ${count} effect records`);
  return { header, effects: new EffectIndex(body, recordAt), kinds, kind: kindOf, threads, thread };
}

function sameBytes(bytes: Uint8Array, a: number, aLength: number, b: number, bLength: number): boolean {
  if (aLength !== bLength) return false;
  for (let i = 0; i < aLength; i++) if (bytes[a + i] !== bytes[b + i]) return false;
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
