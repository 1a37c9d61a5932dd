// One capsule of a spool, summarised for the index: wall time, core, status, panic, route, peer
// and the first failing effect. Version 1 is authenticated (the tag over the whole file), then only
// the words that give the body's layout are decrypted (LazyBody), and the records are walked with
// the same checks as a full open (seq, lengths, known kinds, task switches, nothing after the
// last record), so a capsule listed as readable is one the timeline opens.
// Version 2 is summarised from its plain text, without a key. Summaries hold strings and numbers,
// never views into the bytes, so the read buffers are reused from capsule to capsule.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RecordingError, type ErrorCode } from '../../model/errors';
import { ByteReader } from '../byte-reader';
import { looseText } from '../decode/bytes-text';
import { readPlainSummary } from '../envelope-v2';
import { checkEnvelopeV1, wrongKeyOrDamagedError } from '../envelope';
import { resumedTask } from '../body';
import { BODY_OFFSET, FLAG_PANICKED, KNOWN_KINDS, MAGIC_LENGTH, MAGIC_V2, MIN_RECORD_LENGTH, NONCE_LENGTH, RESUME_KIND, TAG_LENGTH } from '../format';
import type { CapsuleKeys } from '../keys';
import { u8 } from '../u8';
import { keystreamPads, LazyBody } from './lazy-body';
import { maskPanic, routeOf, signatureKey, templateKey, type FailureSignature } from './signature';
import { parseSpoolName } from './spool-name';

/** Texts kept per capsule are cut to this many characters, so an index's size is per capsule. */
const MAX_TEXT = 500;
/** The request line is read from this many first bytes of the request at most. */
const REQUEST_LINE_LIMIT = 8192;

export interface FirstFault {
  /** The record's position (seq). */
  seq: number;
  kind: string;
  /** The effect's key as recorded (as text, cut to MAX_TEXT); the signature holds it templated. */
  key: string;
  /** The fault's message (its data as text), cut to MAX_TEXT. */
  message: string;
}

export interface CapsuleSummary {
  readable: true;
  file: string;
  name: string;
  size: number;
  envelope: 1 | 2;
  /** ns since the epoch: from the body (version 1) or the file name (version 2); null if neither says. */
  wall: bigint | null;
  core: number | null;
  status: number | null;
  panicked: boolean;
  /** The panic message as recorded (cut), '' when none. */
  panic: string;
  method: string;
  /** The request target as recorded (with query values: shown to the user, never grouped on). */
  target: string;
  /** Schema 2 only (and not in a version 2 plain summary). */
  peer: string | null;
  effectCount: number | null;
  firstFault: FirstFault | null;
  signature: FailureSignature;
  /** signatureKey(signature). */
  key: string;
}

export interface UnreadableCapsule {
  readable: false;
  file: string;
  name: string;
  size: number;
  /** From the file name when it is of the spool's form. */
  wall: bigint | null;
  core: number | null;
  code: ErrorCode;
  /** The engine's message: the file, the place and what to do. */
  reason: string;
}

export type SpoolCapsule = CapsuleSummary | UnreadableCapsule;

/** The keys to try for a folder's version 1 capsules, derived once; `missing` says why there are none. */
export interface FolderKeys {
  keys: Array<CapsuleKeys & { source: string; pads: ReturnType<typeof keystreamPads> }>;
  /** The no-key error to list a version 1 capsule with when `keys` is empty. */
  missing?: (file: string) => RecordingError;
}

const cut = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

/** The folder's keys for `file`; with none, throws why (no key given, or the tag cannot match). */
export function keysOrWhy(folderKeys: FolderKeys, file: string): FolderKeys['keys'] {
  if (folderKeys.keys.length === 0) throw folderKeys.missing?.(file) ?? wrongKeyOrDamagedError(file);
  return folderKeys.keys;
}

/** Summarises one capsule's bytes; throws a RecordingError when it cannot be read. */
export function summariseCapsule(bytes: Uint8Array, file: string, name: string, keysFor: (file: string) => FolderKeys): CapsuleSummary {
  if (bytes.length >= MAGIC_LENGTH && Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC_LENGTH).equals(u8(MAGIC_V2))) return summariseV2(bytes, file, name);
  checkEnvelopeV1(bytes, file);
  const candidates = keysOrWhy(keysFor(file), file);
  const tagAt = bytes.length - TAG_LENGTH;
  const tag = bytes.subarray(tagAt);
  for (const keys of candidates) {
    if (timingSafeEqual(tagOf(keys.km, bytes.subarray(0, tagAt)), tag)) return summariseV1(bytes, file, name, keys);
  }
  throw wrongKeyOrDamagedError(file);
}

/** HMAC-SHA256 of everything before the tag (native; about a gigabyte a second). */
function tagOf(km: Uint8Array, data: Uint8Array): Uint8Array {
  return u8(createHmac('sha256', km).update(data).digest());
}

function summariseV1(bytes: Uint8Array, file: string, name: string, keys: FolderKeys['keys'][number]): CapsuleSummary {
  const nonce = bytes.subarray(MAGIC_LENGTH, MAGIC_LENGTH + NONCE_LENGTH);
  const body = new LazyBody(bytes.subarray(BODY_OFFSET, bytes.length - TAG_LENGTH), keys.ke, nonce, keys.pads);
  const plain = body.plain;
  const r = new ByteReader(plain, file, BODY_OFFSET);
  const word = (what: string): bigint => (body.ensure(r.pos, 8), r.word(what));
  /** A string; only its first `limit` bytes are decrypted and returned. */
  const text = (what: string, record = -1, limit = Infinity): Uint8Array => {
    body.ensure(r.pos, 8);
    const at = r.span(what, record);
    const n = Math.min(r.spanLength, limit);
    body.ensure(at, n);
    return plain.subarray(at, at + n);
  };
  const schemaWord = word('schema');
  if (schemaWord !== 1n && schemaWord !== 2n) {
    throw new RecordingError(
      'unsupported-schema',
      `${file}: capsule body schema ${schemaWord} is not supported (this reader knows schemas 1 and 2); update Frozen Run or replay it with the tin that wrote it`,
      { file, offset: BODY_OFFSET },
    );
  }
  text('tin version', -1, 0);
  text('program', -1, 0);
  const wall = word('wall');
  const core = word('core');
  const status = word('status');
  const flags = word('flags');
  const request = requestLine(text('request', -1, REQUEST_LINE_LIMIT));
  const panic = looseText(text('panic', -1, MAX_TEXT * 4));
  const peer = schemaWord === 2n ? looseText(text('peer')) : null;
  body.ensure(r.pos, 8);
  const count = r.length('effect count', Math.floor((r.remaining - 8) / MIN_RECORD_LENGTH));
  let firstFault: FirstFault | null = null;
  for (let i = 0; i < count; i++) {
    body.ensure(r.pos, 8);
    r.small('seq', i, i, i);
    const kind = latin1(text('kind', i, 256));
    if (!KNOWN_KINDS.has(kind)) {
      throw new RecordingError(
        'unknown-kind',
        `${file}: effect ${i} has kind ${JSON.stringify(kind).slice(1, -1)}, which this reader cannot show (it is not in the capsule format this reader knows; update Frozen Run)`,
        { file, offset: r.fileOffsetHere },
      );
    }
    // Its length only: the key's bytes stay sealed, but for the first failing effect's (below).
    text('key', i, 0);
    const keyAt = r.pos - r.spanLength;
    const keyLength = r.spanLength;
    body.ensure(r.pos, 16);
    const outcome = r.small('outcome', 0, 1, i);
    r.small('ident (fault sentinel)', 0, 6, i);
    const isResume = kind === RESUME_KIND && outcome === 0;
    const data = text('data', i, isResume ? Infinity : outcome === 1 && firstFault === null ? MAX_TEXT * 4 : 0);
    if (isResume) resumedTask(data, r, i); // the reader's own check of a task switch
    if (outcome === 1 && firstFault === null) {
      const n = Math.min(keyLength, MAX_TEXT * 4);
      body.ensure(keyAt, n);
      firstFault = { seq: i, kind, key: cut(looseText(plain.subarray(keyAt, keyAt + n))), message: cut(looseText(data)) };
    }
  }
  if (r.remaining > 0) throw r.damaged(`${r.remaining} bytes after the last of ${count} effect records`);
  const panicked = (flags & FLAG_PANICKED) !== 0n;
  const signature: FailureSignature = {
    status: safeNumber(status),
    panic: maskPanic(cut(panic)),
    route: routeOf(request.method, request.target),
    faultKind: firstFault?.kind ?? null,
    faultKey: firstFault ? templateKey(firstFault.key) : null,
  };
  return {
    readable: true,
    file,
    name,
    size: bytes.length,
    envelope: 1,
    wall,
    core: safeNumber(core),
    status: signature.status,
    panicked,
    panic: cut(panic),
    method: request.method,
    target: cut(request.target),
    peer,
    effectCount: count,
    firstFault,
    signature,
    key: signatureKey(signature),
  };
}

function summariseV2(bytes: Uint8Array, file: string, name: string): CapsuleSummary {
  const s = readPlainSummary(bytes);
  const fromName = parseSpoolName(name);
  const status = s.status !== undefined && /^\d{1,4}$/.test(s.status.trim()) ? Number(s.status.trim()) : null;
  const panic = cut(s.panic ?? '');
  const method = s.method ?? '';
  const target = s.path ?? '';
  const signature: FailureSignature = { status, panic: maskPanic(panic), route: routeOf(method, target), faultKind: undefined };
  return {
    readable: true,
    file,
    name,
    size: bytes.length,
    envelope: 2,
    wall: fromName?.wall ?? null,
    core: fromName?.core ?? null,
    status,
    panicked: panic !== '',
    panic,
    method,
    target: cut(target),
    peer: null,
    effectCount: null,
    firstFault: null,
    signature,
    key: signatureKey(signature),
  };
}

function safeNumber(w: bigint): number | null {
  return w >= BigInt(Number.MIN_SAFE_INTEGER) && w <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(w) : null;
}

/** Method and target from the request's first line (`METHOD TARGET HTTP/1.1`); the rest is not needed. */
function requestLine(raw: Uint8Array): { method: string; target: string } {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const eol = buf.indexOf(10);
  const line = buf.toString('utf8', 0, eol < 0 ? buf.length : eol).replace(/\r$/, '');
  const [method = '', target = ''] = line.split(' ');
  return { method, target };
}

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}
