// The spool index: every capsule of a folder (never a `.tmp` being written), summarised and put in
// groups by failure signature. Capsules are read a few at a time (the read and the tag run on
// libuv's thread pool while the main thread walks another capsule's records) and handed out as
// each is done, so memory is a few capsules plus one small summary each, whatever the spool's
// size. A capsule that cannot be read is listed with the engine's reason and never stops the rest.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileError } from '../../file-error';
import { RecordingError } from '../../model/errors';
import type { OpenOptions } from '../../open-options';
import { u8 } from '../u8';
import { summariseCapsule, type FolderKeys, type SpoolCapsule } from './capsule-summary';
import { folderKeyResolver } from './folder-keys';
import { isCapsuleName, parseSpoolName } from './spool-name';

export interface SpoolProgress {
  done: number;
  total: number;
  bytes: number;
}

export interface SpoolOptions extends Pick<OpenOptions, 'keyHex' | 'keyFile' | 'env'> {
  signal?: AbortSignal;
  onProgress?: (p: SpoolProgress) => void;
  /** Capsules read at once (default 4: the thread pool's size). */
  concurrency?: number;
}

/** The capsule names of a folder, newest name first. A folder that cannot be listed is a RecordingError. */
export async function listSpool(folder: string): Promise<string[]> {
  const dir = resolve(folder);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const err = fileError(dir, e);
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new RecordingError('io', `${dir}: not a folder; give the spool folder (TIN_REPLAY_DIR) that holds the .tcap files`, { file: dir });
    }
    throw err;
  }
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && isCapsuleName(e.name))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** One capsule file, summarised or listed as unreadable with its reason (never throws). */
export async function readSpoolCapsule(file: string, keysFor: (file: string) => FolderKeys): Promise<SpoolCapsule> {
  const name = basename(file);
  let size = 0;
  try {
    const bytes = u8(await readFile(file).catch((e: unknown) => Promise.reject(fileError(file, e))));
    size = bytes.length;
    return await summariseCapsule(bytes, file, name, keysFor);
  } catch (e) {
    const fromName = parseSpoolName(name);
    const err = e instanceof RecordingError ? e : new RecordingError('damaged', `${file}: cannot be read: ${e instanceof Error ? e.message : String(e)}`, { file });
    return { readable: false, file, name, size, wall: fromName?.wall ?? null, core: fromName?.core ?? null, code: err.code, reason: err.message };
  }
}

/** Every capsule of the folder as it is read (not in name order). Throws only for the folder itself or a cancel. */
export async function* readSpool(folder: string, options: SpoolOptions = {}): AsyncGenerator<SpoolCapsule> {
  const dir = resolve(folder);
  const names = await listSpool(dir);
  const keysFor = folderKeyResolver({ ...options, env: options.env ?? process.env });
  if (names.length) keysFor(join(dir, names[0])); // a malformed key is said once, for the whole spool
  const limit = Math.max(1, options.concurrency ?? 4);
  const running = new Map<number, Promise<{ slot: number; capsule: SpoolCapsule }>>();
  let next = 0;
  let done = 0;
  let bytes = 0;
  options.onProgress?.({ done, total: names.length, bytes });
  while (next < names.length || running.size > 0) {
    while (next < names.length && running.size < limit && !options.signal?.aborted) {
      const slot = next++;
      running.set(slot, readSpoolCapsule(join(dir, names[slot]), keysFor).then((capsule) => ({ slot, capsule })));
    }
    if (running.size === 0) break;
    const { slot, capsule } = await Promise.race(running.values());
    running.delete(slot);
    done++;
    bytes += capsule.size;
    options.onProgress?.({ done, total: names.length, bytes });
    yield capsule;
  }
  if (options.signal?.aborted) throw cancelled(dir);
}

export function cancelled(dir: string): RecordingError {
  return new RecordingError('cancelled', `${dir}: indexing the spool was cancelled`, { file: dir });
}
