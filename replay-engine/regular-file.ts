// Opening a recording the only way the engine does: a regular file, its size taken before the
// first byte is read, and never more than that size read. A mailed recording can be a symlink to
// /dev/zero or /dev/urandom (read without end), a FIFO (an open that never returns) or a device;
// such a file is refused by name before anything is read. O_NONBLOCK makes the open of a FIFO
// return at once (it has no effect on a regular file), so the check can run at all.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fileError } from './file-error';
import { RecordingError } from './model/errors';

export interface RegularFile {
  handle: FileHandle;
  /** Bytes at open time: every read stops here, even if the file grows meanwhile. */
  size: number;
  stamp: FileStamp;
}

/** Which version of a file was read: a later read with another stamp is of a changed file. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** What a non-regular file is, for the message. */
export function kindOf(s: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  if (s.isDirectory()) return 'a folder';
  return 'not a plain file';
}

export function notRegularError(file: string, what: string): RecordingError {
  return new RecordingError(
    'io',
    `${file}: not a regular file: it is ${what}, or a link to one; Frozen Run reads recordings only from regular files: copy the recording into a file and open that`,
    { file },
  );
}

/** Opens `file` for reading if it is a regular file (after following links); throws RecordingError otherwise. */
export async function openRegularFile(file: string): Promise<RegularFile> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw fileError(file, err);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegularError(file, kindOf(stat));
    return { handle, size: stat.size, stamp: { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw fileError(file, err);
  }
}

/**
 * Where a file's bytes are read into (the capsule reader uses shared memory for a large one). It
 * is called with the size at open before a byte is read, and may throw to refuse the file (the
 * capsule size limit).
 */
export type Allocate = (size: number) => Uint8Array;

/** The whole of a regular file, read up to the size it had when opened. */
export async function readRegularFile(file: string, allocate?: Allocate): Promise<Uint8Array> {
  return (await readStampedFile(file, allocate)).bytes;
}

/** readRegularFile, with the stamp of the version read. */
export async function readStampedFile(file: string, allocate: Allocate = (size) => new Uint8Array(size)): Promise<{ bytes: Uint8Array; stamp: FileStamp }> {
  const { handle, size, stamp } = await openRegularFile(file);
  try {
    const bytes = allocate(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break; // shrank while being read: what is there
      at += bytesRead;
    }
    return { bytes: at === size ? bytes : bytes.subarray(0, at), stamp };
  } catch (err) {
    throw fileError(file, err);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
