// Where a capsule key comes from, in order: the key given by the caller (--key, the Set Capsule
// Key command), a key file, the TIN_REPLAY_KEY environment variable, and the public test key when
// the capsule is a saved regression test (listed in a cases.json beside it). Keys are never
// printed: messages name only where a key came from.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RecordingError } from '../model/errors';
import type { OpenOptions } from '../open-options';
import { parseKeyHex, publicTestKey } from './keys';

export interface KeyCandidate {
  key: Uint8Array;
  /** Where it came from, for messages: `--key`, `the key file X`, `TIN_REPLAY_KEY`, `the public test key`. */
  source: string;
}

/**
 * The keys to try, best first. An explicit key (option or file) is the only candidate: the user
 * said which key. Otherwise TIN_REPLAY_KEY and, for a saved test, the public test key are both
 * tried, so a developer with a production key in the environment can still open saved tests.
 */
export function capsuleKeyCandidates(file: string, options: OpenOptions, savedTest = isSavedTest(file)): KeyCandidate[] {
  if (options.keyHex !== undefined) return [{ key: parseKeyHex(options.keyHex, 'the key option'), source: 'the given key' }];
  if (options.keyFile !== undefined) return [{ key: readKeyFile(options.keyFile), source: `the key file ${options.keyFile}` }];
  const out: KeyCandidate[] = [];
  const envKey = (options.env ?? process.env).TIN_REPLAY_KEY;
  if (envKey !== undefined && envKey !== '') out.push({ key: parseKeyHex(envKey, 'TIN_REPLAY_KEY'), source: 'TIN_REPLAY_KEY' });
  if (savedTest) out.push({ key: publicTestKey(), source: 'the public test key (the capsule is a saved test in cases.json)' });
  if (out.length === 0) {
    throw new RecordingError(
      'no-key',
      `${file}: this capsule is encrypted and no key was given. Give the key the server ran with (its TIN_REPLAY_KEY): run "Frozen Run: Set Capsule Key", set the TIN_REPLAY_KEY environment variable, or pass --key HEX (or --key-file FILE).`,
      { file },
    );
  }
  return out;
}

export function readKeyFile(path: string): Uint8Array {
  let mode: number;
  let text: string;
  try {
    const st = statSync(path);
    // A key is 64 hex digits: a FIFO or a device (or a huge file) is not a key file, and is not read.
    if (!st.isFile() || st.size > 4096) {
      throw new RecordingError('usage', `key file ${path}: not a regular file of at most 4 KB; a key file holds the 64 hex digits of the key`);
    }
    mode = st.mode;
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof RecordingError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new RecordingError('io', `key file ${path}: cannot read it (${code === 'ENOENT' ? 'no such file' : code ?? 'error'})`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new RecordingError(
      'usage',
      `key file ${path}: group or others can read it (mode ${(mode & 0o777).toString(8).padStart(3, '0')}); a capsule key must be private: run chmod 600 on it`,
    );
  }
  return parseKeyHex(text, `the key file ${path}`);
}

interface CaseEntry {
  replay?: { capsule?: unknown; key?: unknown };
}

/** True when a cases.json beside the capsule lists it (`replay.capsule` is its file name). */
export function isSavedTest(file: string): boolean {
  return savedTestNames(dirname(file)).has(basename(file));
}

/** The capsule names a folder's cases.json lists as saved tests (read once for a whole spool). */
export function savedTestNames(folder: string): Set<string> {
  const names = new Set<string>();
  let cases: unknown;
  try {
    cases = JSON.parse(readFileSync(join(folder, 'cases.json'), 'utf8'));
  } catch {
    return names;
  }
  if (!Array.isArray(cases)) return names;
  const publicHex = Buffer.from(publicTestKey()).toString('hex');
  for (const c of cases as CaseEntry[]) {
    if (typeof c !== 'object' || c === null || typeof c.replay?.capsule !== 'string') continue;
    // A saved capsule is sealed under the documented public key; an entry naming another key is not one.
    if (c.replay.key === undefined || (typeof c.replay.key === 'string' && c.replay.key.toLowerCase() === publicHex)) names.add(c.replay.capsule);
  }
  return names;
}
