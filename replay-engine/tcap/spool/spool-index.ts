// The spool index: every capsule of a folder (never a `.tmp` being written), summarised and handed
// out one by one as it is read, so memory is the capsule being read plus one small summary each,
// whatever the spool's size. A large spool is read on worker threads (spool-workers.ts); a small one
// on this thread, in slices that give the event loop a turn. A capsule that cannot be read is
// listed with the engine's reason and never stops the rest.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileError } from '../../file-error';
import { RecordingError } from '../../model/errors';
import type { OpenOptions } from '../../open-options';
import { kindOf, notRegularError } from '../../regular-file';
import { capsuleLimitBytes, tooLargeError } from '../size-limit';
import { STREAMED_TAG_ABOVE, streamedTagKeySync } from '../streamed-tag';
import { keysOrWhy, summariseCapsule, type FolderKeys, type SpoolCapsule } from './capsule-summary';
import { folderKeyResolver } from './folder-keys';
import { decodedName, escapedName, isCapsuleName, parseSpoolName } from './spool-name';
import { summariseOnWorkers, workerCount, workerScriptFound } from './spool-workers';

export interface SpoolProgress {
  done: number;
  total: number;
  bytes: number;
}

export interface SpoolOptions extends Pick<OpenOptions, 'keyHex' | 'keyFile' | 'env' | 'capsuleSizeLimitMB'> {
  /** 1: read on this thread only; n > 1: on n worker threads; default: workers for a large spool when cores are spare. */
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (p: SpoolProgress) => void;
}

/** The capsule names of a folder, newest name first. A folder that cannot be listed is a RecordingError. */
export async function listSpool(folder: string): Promise<string[]> {
  return (await listSpoolEntries(folder)).names;
}

/**
 * The capsule names of a folder, newest name first, and apart those whose bytes are not UTF-8
 * (escaped, `e\xff.tcap`): read as bytes, so such a name is counted and listed, never lost.
 */
export async function listSpoolEntries(folder: string): Promise<{ names: string[]; undecodable: string[] }> {
  const dir = resolve(folder);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (e) {
    const err = fileError(dir, e);
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new RecordingError('io', `${dir}: not a folder; give the spool folder (TIN_REPLAY_DIR) that holds the .tcap files`, { file: dir });
    }
    throw err;
  }
  const names: string[] = [];
  const undecodable: string[] = [];
  // Every entry but a folder: a FIFO or a device named x.tcap is listed (as unreadable, with
  // what it is, by readSpoolCapsule), never left out of the counts.
  for (const e of entries) {
    if (e.isDirectory() || !isCapsuleName(e.name.toString('latin1'))) continue;
    const name = decodedName(e.name);
    if (name === null) undecodable.push(escapedName(e.name));
    else names.push(name);
  }
  const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  return { names: names.sort(newestFirst), undecodable: undecodable.sort(newestFirst) };
}

/** A capsule whose file name is not UTF-8: listed as unreadable, by its escaped name. */
export function undecodableCapsule(dir: string, name: string): SpoolCapsule {
  const file = join(dir, name);
  const reason = `${file}: the file name is not valid UTF-8 (shown with its bytes escaped), so it cannot be opened by name; rename it, e.g. with mv in a shell, and index the spool again`;
  return { readable: false, file, name, size: 0, wall: null, core: null, code: 'io', reason };
}

/**
 * One capsule file, summarised or listed as unreadable with its reason (never throws); undefined
 * when it is gone (a spool drops its oldest capsules as it fills). A file larger than
 * `limitBytes` (the capsule size limit) is listed unreadable without being read.
 */
export function readSpoolCapsule(file: string, keysFor: (file: string) => FolderKeys, limitBytes = capsuleLimitBytes()): SpoolCapsule | undefined {
  const name = basename(file);
  let size = 0;
  try {
    let bytes: Uint8Array;
    try {
      bytes = readIntoScratch(file, limitBytes, keysFor, (s) => (size = s));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw fileError(file, e);
    }
    size = bytes.length;
    return summariseCapsule(bytes, file, name, keysFor);
  } catch (e) {
    const fromName = parseSpoolName(name);
    const err = e instanceof RecordingError ? e : new RecordingError('damaged', `${file}: cannot be read: ${e instanceof Error ? e.message : String(e)}`, { file });
    return { readable: false, file, name, size, wall: fromName?.wall ?? null, core: fromName?.core ?? null, code: err.code, reason: err.message };
  }
}

/** One read buffer per thread, grown to the largest capsule: reading a spool allocates nothing per capsule. */
let scratch = new Uint8Array(256 * 1024);

/**
 * The file's bytes in the scratch buffer (valid until the next call). A large capsule's tag is
 * checked streaming first (streamed-tag.ts): a damaged one is never held whole.
 */
function readIntoScratch(file: string, limitBytes: number, keysFor: (file: string) => FolderKeys, sized: (size: number) => void): Uint8Array {
  // As every recording is opened (regular-file.ts): O_NONBLOCK so a FIFO's open returns, and only a
  // regular file is read, never past the size it had when opened, nor above the size limit.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegularError(file, kindOf(stat));
    const size = stat.size;
    sized(size);
    if (size > limitBytes) throw tooLargeError(file, size, limitBytes);
    streamedTagKeySync(fd, size, { file, kms: () => keysOrWhy(keysFor(file), file).map((k) => k.km), passVersion2: true });
    // A large capsule gets a buffer of its own: the scratch stays small for the rest of the spool.
    const into = size > STREAMED_TAG_ABOVE ? new Uint8Array(size) : scratch.length < size ? (scratch = new Uint8Array(size)) : scratch;
    let at = 0;
    while (at < size) {
      const n = readSync(fd, into, at, size - at, at);
      if (n === 0) break; // cut while being read: the envelope checks say so
      at += n;
    }
    return into.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** Work done between two turns of the event loop, so a host (VS Code) stays responsive. */
const SLICE_MS = 10;

/**
 * Every capsule of the folder, newest name first. Throws only for the folder itself, a malformed
 * key or a cancel.
 */
export async function* readSpool(folder: string, options: SpoolOptions = {}): AsyncGenerator<SpoolCapsule> {
  const dir = resolve(folder);
  const { names, undecodable } = await listSpoolEntries(dir);
  yield* undecodable.map((name) => undecodableCapsule(dir, name));
  const keysFor = folderKeyResolver({ ...options, env: options.env ?? process.env });
  const limitBytes = capsuleLimitBytes({ capsuleSizeLimitMB: options.capsuleSizeLimitMB, env: options.env ?? process.env }); // a bad limit is said once
  if (names.length) keysFor(join(dir, names[0])); // a malformed key is said once, for the whole spool
  let bytes = 0;
  options.onProgress?.({ done: 0, total: names.length, bytes });
  const workers = options.threads === undefined ? workerCount(names.length) : options.threads > 1 && workerScriptFound() ? options.threads : 0;
  if (workers > 0) {
    let done = 0;
    const setup = { dir, keyHex: options.keyHex, keyFile: options.keyFile, env: options.env ?? process.env, limitBytes };
    try {
      for await (const batch of summariseOnWorkers(setup, names, workers, () => options.signal?.aborted === true)) {
        for (const capsule of batch) {
          if (options.signal?.aborted) throw cancelled(dir);
          bytes += capsule?.size ?? 0;
          options.onProgress?.({ done: ++done, total: names.length, bytes });
          if (capsule) yield capsule;
        }
      }
      if (options.signal?.aborted) throw cancelled(dir);
      return;
    } catch (e) {
      // A worker that could not start (no threads in this host): read on this thread instead.
      if (e instanceof RecordingError || done > 0) throw e;
    }
  }
  let sliceStart = Date.now();
  for (let i = 0; i < names.length; i++) {
    if (Date.now() - sliceStart >= SLICE_MS) {
      await new Promise((r) => setImmediate(r));
      sliceStart = Date.now();
    }
    if (options.signal?.aborted) throw cancelled(dir);
    const capsule = readSpoolCapsule(join(dir, names[i]), keysFor, limitBytes);
    bytes += capsule?.size ?? 0;
    options.onProgress?.({ done: i + 1, total: names.length, bytes });
    if (capsule) yield capsule;
  }
}

export function cancelled(dir: string): RecordingError {
  return new RecordingError('cancelled', `${dir}: indexing the spool was cancelled`, { file: dir });
}
