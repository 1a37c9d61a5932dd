// The secret check: a secret header value or query argument is stored as a handle,
// `tin-secret:` + hex of the first 16 bytes of HMAC-SHA256(Ks, text). With the key, a candidate
// text can be tested against every handle in the capsule. Neither the candidate nor the key is
// ever part of a result.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';
import { looseText } from './decode/bytes-text';
import { SECRET_HANDLE_PREFIX } from './decode/http-request';
import { secretKeyOf, type TcapRecording } from './tcap-recording';
import { u8 } from './u8';

const HANDLE = /tin-secret:([0-9a-f]{32})/g;

export interface HandlePlace {
  handle: string;
  /** `request header Authorization`, `request query token`, `effect 4 (postgres@1) key`. */
  where: string;
}

export interface SecretCheckResult {
  /** Every handle in the capsule and where it is. */
  handles: HandlePlace[];
  /** The places whose handle the candidate matches (empty: it is not the secret behind any). */
  matches: HandlePlace[];
}

/** The capsule behind `rec`, whose secret handles can be tested; a trace has none (a usage error naming `file`). */
export function capsuleWithSecrets(rec: Recording, file = rec.timeline.file): TcapRecording {
  if (rec.format !== 'tcap') throw new RecordingError('usage', `${file}: not a Tin capsule; secret handles (tin-secret:…) exist only in capsules`, { file });
  return rec as TcapRecording;
}

export function secretHandle(ks: Uint8Array, text: string): string {
  return SECRET_HANDLE_PREFIX + createHmac('sha256', ks).update(text, 'utf8').digest().subarray(0, 16).toString('hex');
}

export function secretHandles(rec: TcapRecording): HandlePlace[] {
  const out: HandlePlace[] = [];
  const req = rec.request;
  for (let i = 0; i < req.headerCount; i++) {
    const h = req.header(i);
    for (const m of h.value.matchAll(HANDLE)) out.push({ handle: m[0], where: `request header ${h.name}` });
  }
  for (const q of req.query) for (const m of q.value.matchAll(HANDLE)) out.push({ handle: m[0], where: `request query ${q.name}` });
  const raw = looseText(rec.header.request);
  const inParts = new Set(out.map((p) => p.handle));
  for (const m of raw.matchAll(HANDLE)) if (!inParts.has(m[0])) out.push({ handle: m[0], where: 'request' });
  const tl = rec.timeline;
  for (let r = 0; r < tl.recordCount; r++) {
    const key = rec.key(r);
    if (key.length < SECRET_HANDLE_PREFIX.length + 32 || Buffer.from(key.buffer, key.byteOffset, key.length).indexOf(SECRET_HANDLE_PREFIX, 0, 'latin1') < 0) continue;
    for (const m of looseText(key).matchAll(HANDLE)) out.push({ handle: m[0], where: `effect ${r} (${tl.kindName(r)}) key` });
  }
  return out;
}

export function checkSecret(rec: TcapRecording, candidate: string): SecretCheckResult {
  const mine = u8(Buffer.from(secretHandle(secretKeyOf(rec), candidate), 'latin1'));
  const handles = secretHandles(rec);
  const matches = handles.filter((p) => {
    const theirs = u8(Buffer.from(p.handle, 'latin1'));
    return theirs.length === mine.length && timingSafeEqual(theirs, mine);
  });
  return { handles, matches };
}
