// The tag of a large capsule, checked while the file streams through one small buffer, before the
// capsule is read whole. A capsule's tag covers every byte before it, so a reader that reads first
// and checks after holds a whole damaged (or wrong-key) file in memory only to refuse it: a
// 1,000 MiB file took 1.09 GB resident and 17 s to be called damaged. Streamed, refusing it costs
// one 4 MiB buffer and about a second. A capsule that passes is then read whole and checked again
// there (openEnvelopeV1Async, summariseCapsule): the file may change between the two reads, and
// only the bytes that are decrypted count. Small capsules skip this pass: reading them whole is
// already bounded, and the second HMAC would slow every open.
import { createHmac, timingSafeEqual, type Hmac } from 'node:crypto';
import { readSync } from 'node:fs';
import { RecordingError } from '../model/errors';
import { openRegularFile } from '../regular-file';
import { fileError } from '../file-error';
import { checkEnvelopeV1, wrongKeyOrDamagedError } from './envelope';
import { MAGIC_LENGTH, MAGIC_V2, TAG_LENGTH } from './format';
import { tooLargeError } from './size-limit';
import { u8 } from './u8';

/** Capsules larger than this have their tag checked in a streamed pass first. */
export const STREAMED_TAG_ABOVE = 64 * 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;
/** The start of the file read for the envelope checks (a version 2 capsule's plain summary is in it). */
const HEAD = 64 * 1024;

/** Which of the given MAC keys (`km`) authenticates the file; -1 when none does. */
class TagCheck {
  private readonly macs: Hmac[];
  constructor(kms: readonly Uint8Array[]) {
    this.macs = kms.map((km) => createHmac('sha256', km));
  }
  update(chunk: Uint8Array): void {
    for (const mac of this.macs) mac.update(chunk);
  }
  match(tag: Uint8Array): number {
    return this.macs.findIndex((mac) => timingSafeEqual(u8(mac.digest()), tag));
  }
}

/** What the streamed pass needs from its caller: the keys, asked for only once the file is known to be a version 1 capsule. */
export interface StreamedTagRequest {
  file: string;
  /** The MAC keys to try, best first (may throw, e.g. no key given). */
  kms: () => readonly Uint8Array[];
  /** A version 2 capsule is left to the whole read (the spool lists its plain summary) instead of refused. */
  passVersion2?: boolean;
}

/**
 * The index of the key that authenticates a capsule larger than STREAMED_TAG_ABOVE, found while
 * streaming; undefined for a smaller file (not read: the caller reads it whole). Throws what the
 * whole read would: not a regular file, too large, not a capsule, version 2, no key, wrong key or
 * damaged (also when the file shrinks while it is read).
 */
export async function streamedTagKey(req: StreamedTagRequest & { limitBytes: number }): Promise<number | undefined> {
  const { handle, size } = await openRegularFile(req.file);
  try {
    if (size <= STREAMED_TAG_ABOVE) return undefined;
    if (size > req.limitBytes) throw tooLargeError(req.file, size, req.limitBytes);
    const buffer = new Uint8Array(Math.min(CHUNK, size));
    const read = async (at: number, n: number): Promise<Uint8Array> => {
      let got = 0;
      while (got < n) {
        const { bytesRead } = await handle.read(buffer, got, n - got, at + got);
        if (bytesRead === 0) throw shrankError(req.file, at + got);
        got += bytesRead;
      }
      return buffer.subarray(0, n);
    };
    return await streamTag(req, size, read);
  } catch (e) {
    throw e instanceof RecordingError ? e : fileError(req.file, e);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * streamedTagKey for the spool's worker threads, which read synchronously: on a file the caller
 * has opened (`fd`) and checked (a regular file of `size` bytes, within the limit).
 */
export function streamedTagKeySync(fd: number, size: number, req: StreamedTagRequest): number | undefined {
  if (size <= STREAMED_TAG_ABOVE) return undefined;
  const buffer = new Uint8Array(Math.min(CHUNK, size));
  const read = (at: number, n: number): Uint8Array => {
    let got = 0;
    while (got < n) {
      const r = readSync(fd, buffer, got, n - got, at + got);
      if (r === 0) throw shrankError(req.file, at + got);
      got += r;
    }
    return buffer.subarray(0, n);
  };
  return streamTagSync(req, size, read);
}

async function streamTag(req: StreamedTagRequest, size: number, read: (at: number, n: number) => Promise<Uint8Array>): Promise<number | undefined> {
  const check = startCheck(req, await read(0, Math.min(HEAD, size)));
  if (!check) return undefined;
  const tagAt = size - TAG_LENGTH;
  for (let at = 0; at < tagAt; at += CHUNK) check.update(await read(at, Math.min(CHUNK, tagAt - at)));
  return matched(req.file, check, await read(tagAt, TAG_LENGTH));
}

function streamTagSync(req: StreamedTagRequest, size: number, read: (at: number, n: number) => Uint8Array): number | undefined {
  const check = startCheck(req, read(0, Math.min(HEAD, size)));
  if (!check) return undefined;
  const tagAt = size - TAG_LENGTH;
  for (let at = 0; at < tagAt; at += CHUNK) check.update(read(at, Math.min(CHUNK, tagAt - at)));
  return matched(req.file, check, read(tagAt, TAG_LENGTH));
}

/** The envelope checks on the head (said before any key is asked for), then the keys; undefined for a version 2 capsule passed on. */
function startCheck(req: StreamedTagRequest, head: Uint8Array): TagCheck | undefined {
  if (req.passVersion2 && head.length >= MAGIC_LENGTH && Buffer.from(head.buffer, head.byteOffset, MAGIC_LENGTH).equals(u8(MAGIC_V2))) return undefined;
  checkEnvelopeV1(head, req.file);
  return new TagCheck(req.kms());
}

function matched(file: string, check: TagCheck, tag: Uint8Array): number {
  const k = check.match(tag);
  if (k < 0) throw wrongKeyOrDamagedError(file);
  return k;
}

function shrankError(file: string, at: number): RecordingError {
  return new RecordingError('io', `${file}: the file got shorter while it was read (at byte ${at.toLocaleString('en-US')}): it is being written or replaced; open it again once it is complete`, { file, offset: at });
}
