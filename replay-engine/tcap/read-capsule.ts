// Opens a capsule file: envelope checks, key, authenticate, decrypt, body, index. The result is a
// Recording whose timeline has every effect as a record and a step.
import { resolve } from 'node:path';
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';
import type { OpenOptions } from '../open-options';
import { readRegularFile } from '../regular-file';
import { parseBody } from './body';
import { CapsuleTimeline } from './capsule-timeline';
import { documentHeaderLines } from './document';
import { authenticateV1, checkEnvelopeV1, openEnvelopeV1, openEnvelopeV1Async } from './envelope';
import { capsuleFacts } from './facts';
import { BODY_OFFSET } from './format';
import { capsuleKeyCandidates, type KeyCandidate } from './key-source';
import { deriveKeys, type CapsuleKeys } from './keys';
import { warmUpScan } from './scan-warm-up';
import { TcapRecording } from './tcap-recording';
import { capsuleFileBuffer } from './keystream-parallel';
import { capsuleLimitBytes, tooLargeError } from './size-limit';
import { streamedTagKey } from './streamed-tag';

export async function readCapsule(file: string, options: OpenOptions): Promise<Recording> {
  return openCapsuleFile(file, options);
}

/** Same as readCapsule, typed as the capsule it is (for the CLI and tests). */
export async function openCapsuleFile(file: string, options: OpenOptions = {}): Promise<TcapRecording> {
  const path = resolve(file);
  const streamed = await streamedKey(path, options);
  const bytes = await readCapsuleBytes(path, options);
  return openCapsuleBytesAsync(bytes, path, options, true, streamed && [streamed]);
}

/**
 * openCapsuleBytes, decrypting a large capsule on two threads. `inPlace`: the caller hands over
 * `bytes` (openCapsuleFile's own copy of the file), and the body is decrypted in it.
 */
export async function openCapsuleBytesAsync(
  bytes: Uint8Array,
  file: string,
  options: OpenOptions = {},
  inPlace = false,
  candidates?: readonly KeyCandidate[],
): Promise<TcapRecording> {
  checkEnvelopeV1(bytes, file); // said before any key is asked for
  const opened = await withFirstKey(candidates ?? capsuleKeyCandidates(file, options), async (keys) => ({ keys, body: await openEnvelopeV1Async(bytes, keys, file, inPlace) }));
  return fromBody(opened.body, file, opened.keys.ks, options);
}

export function openCapsuleBytes(bytes: Uint8Array, file: string, options: OpenOptions = {}): TcapRecording {
  checkEnvelopeV1(bytes, file); // not a capsule, cut, or version 2: said before any key is asked for
  const opened = withFirstKey(capsuleKeyCandidates(file, options), (keys) => ({ keys, body: openEnvelopeV1(bytes, keys, file) }));
  return fromBody(opened.body, file, opened.keys.ks, options);
}

/**
 * The key that authenticates a capsule (tag only; the body is not read, so a capsule with a kind
 * this reader does not know can still be handed to tin). Throws as openCapsuleBytes would.
 */
export async function authenticatedKey(file: string, options: OpenOptions = {}): Promise<KeyCandidate> {
  const path = resolve(file);
  const streamed = await streamedKey(path, options);
  if (streamed) return streamed;
  const bytes = await readCapsuleBytes(path, options);
  checkEnvelopeV1(bytes, path);
  return withFirstKey(capsuleKeyCandidates(path, options), (keys, candidate) => {
    authenticateV1(bytes, keys, path);
    return candidate;
  });
}

/**
 * The key candidates tried in order (the given key, or the key file, or the saved-test and
 * environment keys): the first whose attempt does not fail with wrong-key-or-damaged gives the
 * answer; any other error is thrown at once; when every candidate failed, the last one's error.
 * `attempt` may return a promise (the two-thread decrypt): its rejection moves on the same way.
 */
function withFirstKey<T>(candidates: readonly KeyCandidate[], attempt: (keys: CapsuleKeys, candidate: KeyCandidate) => T, from = 0, lastError?: unknown): T {
  if (from >= candidates.length) throw lastError;
  const next = (e: unknown): T => {
    if (e instanceof RecordingError && e.code === 'wrong-key-or-damaged') return withFirstKey(candidates, attempt, from + 1, e);
    throw e;
  };
  let answer: T;
  try {
    answer = attempt(deriveKeys(candidates[from].key), candidates[from]);
  } catch (e) {
    return next(e);
  }
  return answer instanceof Promise ? (answer.catch(next) as T) : answer;
}

function fromBody(body: Uint8Array, file: string, ks: Uint8Array, options: OpenOptions): TcapRecording {
  const parsed = parseBody(body, file, BODY_OFFSET);
  const facts = capsuleFacts(parsed.header, 1, parsed.effects.count, parsed.threads.length);
  const firstRecordLine = documentHeaderLines(file, parsed.header, facts).length + 1;
  const timeline = new CapsuleTimeline(file, facts, parsed.threads, parsed.kinds, parsed.kind, parsed.thread, parsed.effects, firstRecordLine);
  return new TcapRecording(timeline, 1, parsed.header, parsed.effects, ks, options.programRoots ?? [], [], parsed.counts);
}

/**
 * For a capsule too large to read whole before its tag is known to match, the key whose tag
 * matches, found while streaming (streamed-tag.ts); undefined for a smaller one.
 */
async function streamedKey(path: string, options: OpenOptions): Promise<KeyCandidate | undefined> {
  let candidates: KeyCandidate[] = [];
  const k = await streamedTagKey({
    file: path,
    limitBytes: capsuleLimitBytes(options),
    kms: () => (candidates = capsuleKeyCandidates(path, options)).map((c) => deriveKeys(c.key).km),
  });
  return k === undefined ? undefined : candidates[k];
}

/**
 * The capsule file's bytes (a regular file only, up to its size at open, and no larger than the
 * capsule size limit: checked before a byte is read); else a RecordingError naming it. A large one
 * is read into a shared kernel memory, so that two threads can decrypt it in place (and the
 * keystream worker is started before the read, see capsuleFileBuffer).
 */
async function readCapsuleBytes(path: string, options: OpenOptions): Promise<Uint8Array> {
  const limit = capsuleLimitBytes(options);
  return readRegularFile(path, (size) => {
    if (size > limit) throw tooLargeError(path, size, limit);
    const bytes = capsuleFileBuffer(size);
    // Once the read is under way (this thread then waits for it), warm the scan up.
    if (size >= WARM_UP_MIN_BYTES) setImmediate(warmUpScan);
    return bytes;
  });
}

/** A capsule this large has enough records to pay for the scan's warm-up (scan-warm-up.ts). */
const WARM_UP_MIN_BYTES = 2 * 1024 * 1024;
