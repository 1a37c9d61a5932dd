// The keys of a spool folder, found once: the same sources and order as opening one capsule
// (key-source.ts), with cases.json read once and each key derived once for the whole folder.
import { basename, dirname } from 'node:path';
import { RecordingError } from '../../model/errors';
import type { OpenOptions } from '../../open-options';
import { capsuleKeyCandidates, savedTestNames } from '../key-source';
import { deriveKeys } from '../keys';
import type { FolderKeys } from './capsule-summary';
import { keystreamPads } from './lazy-body';

export function folderKeyResolver(options: OpenOptions): (file: string) => FolderKeys {
  const savedByFolder = new Map<string, Set<string>>();
  const bySaved = new Map<boolean, FolderKeys>();
  return (file) => {
    const folder = dirname(file);
    let saved = savedByFolder.get(folder);
    if (!saved) savedByFolder.set(folder, (saved = savedTestNames(folder)));
    const isSaved = saved.has(basename(file));
    let keys = bySaved.get(isSaved);
    if (!keys) {
      try {
        keys = { keys: capsuleKeyCandidates(file, options, isSaved).map((c) => {
          const derived = deriveKeys(c.key);
          return { ...derived, source: c.source, pads: keystreamPads(derived.ke) };
        }) };
      } catch (e) {
        if (!(e instanceof RecordingError && e.code === 'no-key')) throw e;
        keys = { keys: [], missing: (f) => noKey(f, options) };
      }
      bySaved.set(isSaved, keys);
    }
    return keys;
  };
}

/** The engine's own no-key error, naming this capsule. */
function noKey(file: string, options: OpenOptions): RecordingError {
  try {
    capsuleKeyCandidates(file, options, false);
  } catch (e) {
    if (e instanceof RecordingError) return e;
  }
  return new RecordingError('no-key', `${file}: no key was given for this capsule`, { file });
}
