// The decrypted body (schema 1 and 2): the header fields, then `count` effect records. Every length
// is checked against the bytes that remain before anything is allocated; records must be numbered
// 0, 1, 2, ...; nothing may follow the last one; a kind this reader does not know is refused.
import { RecordingError } from '../model/errors';
import { TimelineBuilder } from '../model/timeline';
import { ByteReader } from './byte-reader';
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

/** Per-effect fields the Timeline does not hold, in parallel typed arrays (keys are views into the body). */
export interface CapsuleEffects {
  count: number;
  keyAt: Uint32Array;
  keyLength: Uint32Array;
  outcome: Uint8Array;
  ident: Uint8Array;
  /** The task number of each effect (Timeline.thread holds the index into timeline.threads). */
  task: Uint32Array;
  /** File offset of each record, for messages. */
  recordOffset: Float64Array;
}

export interface ParsedBody {
  header: CapsuleHeader;
  effects: CapsuleEffects;
  builder: TimelineBuilder;
  /** Thread index in the builder of each task number seen. */
  tasks: number[];
}

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
  const effects: CapsuleEffects = {
    count,
    keyAt: new Uint32Array(count),
    keyLength: new Uint32Array(count),
    outcome: new Uint8Array(count),
    ident: new Uint8Array(count),
    task: new Uint32Array(count),
    recordOffset: new Float64Array(count),
  };
  const builder = new TimelineBuilder(count, r.remaining);
  const bodyBuffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const kindIds = new Map<string, number>();
  const tasks: number[] = [];
  const threadOfTask = (task: number): number => {
    let t = tasks[task];
    if (t === undefined) {
      t = builder.internThread(String(task), task === 0 ? 'request' : `task ${task}`);
      tasks[task] = t;
    }
    return t;
  };
  let task = 0;
  let thread = threadOfTask(0);
  let resumeKind = -1;
  let lastKind: number | undefined;
  let lastKindAt = 0;
  let lastKindLength = 0;
  for (let i = 0; i < count; i++) {
    const start = r.pos;
    effects.recordOffset[i] = fileOffset + start;
    r.small('seq', i, i, i);
    const kindAt = r.span('kind', i);
    const kindLength = r.spanLength;
    // Runs of one kind are common: compare with the last kind's bytes before making a string.
    let kind = sameBytes(body, kindAt, kindLength, lastKindAt, lastKindLength) ? lastKind : undefined;
    const kindName = kind === undefined ? bodyBuffer.toString('latin1', kindAt, kindAt + kindLength) : '';
    if (kind === undefined) kind = kindIds.get(kindName);
    if (kind === undefined) {
      const shown = bodyBuffer.toString('utf8', kindAt, kindAt + kindLength);
      if (!KNOWN_KINDS.has(kindName)) {
        throw new RecordingError(
          'unknown-kind',
          `${file}: effect ${i} has kind ${JSON.stringify(shown).slice(1, -1)}, which this reader cannot show (it is not in the capsule format this reader knows; update Frozen Run)`,
          { file, offset: fileOffset + start },
        );
      }
      kind = builder.internKind(kindName, true); // every effect is a step
      kindIds.set(kindName, kind);
      if (kindName === RESUME_KIND) resumeKind = kind;
    }
    lastKind = kind;
    lastKindAt = kindAt;
    lastKindLength = kindLength;
    effects.keyAt[i] = r.span('key', i);
    effects.keyLength[i] = r.spanLength;
    effects.outcome[i] = r.small('outcome', 0, 1, i);
    effects.ident[i] = r.small('ident (fault sentinel)', 0, 6, i);
    const dataAt = r.span('data', i);
    const dataLength = r.spanLength;
    if (kind === resumeKind && effects.outcome[i] === 0) {
      task = resumedTask(body.subarray(dataAt, dataAt + dataLength), r, i);
      thread = threadOfTask(task);
    }
    effects.task[i] = task;
    const at = builder.reservePayload(dataLength);
    const pool = builder.payloadBytes;
    if (dataLength < 64) for (let k = 0; k < dataLength; k++) pool[at + k] = body[dataAt + k];
    else pool.set(body.subarray(dataAt, dataAt + dataLength), at);
    builder.add(kind, thread);
  }
  if (r.remaining > 0) throw r.damaged(`${r.remaining} bytes after the last of ${count} effect records`);
  return { header, effects, builder, tasks };
}

function sameBytes(bytes: Uint8Array, a: number, aLength: number, b: number, bLength: number): boolean {
  if (aLength !== bLength || aLength === 0) return false;
  for (let i = 0; i < aLength; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

/** A resume's result word: the task switched in. The effects after it, until the next resume, are its. */
export function resumedTask(data: Uint8Array, r: ByteReader, i: number): number {
  if (data.length !== 8) throw r.damaged(`effect ${i} (sched.resume@1) result is ${data.length} bytes, a task number is one 8-byte word`, r.pos - data.length);
  const view = new DataView(data.buffer, data.byteOffset, 8);
  const lo = view.getUint32(0, true);
  const hi = view.getInt32(4, true);
  if (hi !== 0 || lo > 0xfffffff) throw r.damaged(`effect ${i} (sched.resume@1) resumes task ${view.getBigInt64(0, true)}, not a task number`, r.pos - 8);
  return lo;
}
