// Envelope version 1: magic, nonce, body XOR keystream, tag. The tag is checked in constant time
// over everything before it, and only then is a single byte decrypted.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RecordingError } from '../model/errors';
import { BODY_OFFSET, MAGIC_LENGTH, MAGIC_PREFIX, MAGIC_V1, MAGIC_V2, MIN_BODY_LENGTH, MIN_CAPSULE_LENGTH, NONCE_LENGTH, TAG_LENGTH } from './format';
import { v2NeedsIdentityError } from './envelope-v2';
import type { CapsuleKeys } from './keys';
import { xorKeystream } from './keystream';
import { capsuleBuffer } from './keystream-simd';
import { sharesWork, startKeystream } from './keystream-parallel';
import { u8 } from './u8';

/** The exact wording Tin uses; it cannot say which of the two it was, and neither do we. */
export const WRONG_KEY_OR_DAMAGED = 'capsule: wrong key or damaged';

/**
 * Checks what the file is before any key is looked for: not a capsule, cut, version 2 (throws,
 * with its plain summary), or version 1 (returns).
 */
export function checkEnvelopeV1(bytes: Uint8Array, file: string): void {
  if (bytes.length === 0) {
    throw new RecordingError('empty', `${file}: the file is empty (0 bytes), not a Tin capsule; copy the capsule again`, { file, offset: 0 });
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MAGIC_LENGTH));
  const prefixLength = Math.min(head.length, MAGIC_PREFIX.length);
  if (!head.subarray(0, prefixLength).equals(u8(MAGIC_PREFIX.subarray(0, prefixLength)))) {
    throw new RecordingError('not-a-recording', `${file}: not a capsule (a Tin capsule starts with "TINCAP"); open a .tcap file from a Tin replay spool`, { file, offset: 0 });
  }
  if (head.length === MAGIC_LENGTH && head.equals(u8(MAGIC_V2))) throw v2NeedsIdentityError(bytes, file);
  if (head.length === MAGIC_LENGTH && !head.equals(u8(MAGIC_V1))) {
    throw new RecordingError(
      'unsupported-version',
      `${file}: capsule envelope version ${head[6]}.${head[7]} is not one this reader knows (it reads version 1 and recognises 2); update Frozen Run`,
      { file, offset: 6 },
    );
  }
  if (bytes.length < MIN_CAPSULE_LENGTH) {
    throw new RecordingError(
      'damaged',
      `${file}: capsule damaged: cut short at ${bytes.length} bytes (the smallest capsule has ${MIN_CAPSULE_LENGTH}: magic, nonce and tag); no key can open it, copy it again`,
      { file, offset: bytes.length },
    );
  }
}

/** Authenticates, then decrypts: the plain body. Throws the wrong-key-or-damaged error on a tag mismatch. */
export function openEnvelopeV1(bytes: Uint8Array, keys: CapsuleKeys, file: string): Uint8Array {
  authenticateV1(bytes, keys, file);
  const tagAt = bytes.length - TAG_LENGTH;
  const nonce = bytes.subarray(MAGIC_LENGTH, MAGIC_LENGTH + NONCE_LENGTH);
  return xorKeystream(keys.ke, nonce, bytes.subarray(BODY_OFFSET, tagAt));
}

/**
 * openEnvelopeV1, decrypting a large body on two threads (keystream-parallel.ts), the worker's
 * part posted before the tag is checked so that it starts meanwhile; no byte is decrypted before
 * the tag matched. `inPlace`: the caller owns `bytes` (read into a kernel memory where that pays,
 * see capsuleFileBuffer), and the body is decrypted where it lies (the result is a view of it).
 */
export async function openEnvelopeV1Async(bytes: Uint8Array, keys: CapsuleKeys, file: string, inPlace = false): Promise<Uint8Array> {
  checkEnvelopeV1(bytes, file);
  const tagAt = bytes.length - TAG_LENGTH;
  const nonce = bytes.subarray(MAGIC_LENGTH, MAGIC_LENGTH + NONCE_LENGTH);
  const encrypted = bytes.subarray(BODY_OFFSET, tagAt);
  const body = inPlace ? encrypted : copyForDecrypting(encrypted);
  const job = startKeystream(keys.ke, nonce, body);
  try {
    authenticateV1(bytes, keys, file);
  } catch (e) {
    job.cancel();
    throw e;
  }
  await job.go();
  return body;
}

function copyForDecrypting(bytes: Uint8Array): Uint8Array {
  const copy = (sharesWork(bytes.length) && capsuleBuffer(bytes.length)) || new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Checks the tag (constant time) over everything before it; throws the wrong-key-or-damaged error. */
export function authenticateV1(bytes: Uint8Array, keys: CapsuleKeys, file: string): void {
  checkEnvelopeV1(bytes, file);
  const tagAt = bytes.length - TAG_LENGTH;
  const expected = u8(createHmac('sha256', keys.km).update(bytes.subarray(0, tagAt)).digest());
  const tag = bytes.subarray(tagAt);
  if (!timingSafeEqual(expected, tag)) {
    // The envelope has no length field, but its size can still say it was cut: too small to
    // hold the smallest body and the tag, whatever the key.
    if (bytes.length < MIN_CAPSULE_LENGTH + MIN_BODY_LENGTH) {
      throw new RecordingError(
        'damaged',
        `${file}: capsule looks cut: its ${bytes.length} bytes cannot hold a capsule body (at least ${MIN_BODY_LENGTH} bytes) and its ${TAG_LENGTH}-byte tag, so no key can open it; get a fresh copy of the capsule`,
        { file, offset: bytes.length },
      );
    }
    throw wrongKeyOrDamagedError(file);
  }
}

export function wrongKeyOrDamagedError(file: string): RecordingError {
  return new RecordingError(
    'wrong-key-or-damaged',
    `${file}: ${WRONG_KEY_OR_DAMAGED} (the tag does not match: either the key is not the one the server used, or a byte of the file changed). Try the right key; if it is right, get a fresh copy of the capsule.`,
    { file },
  );
}
