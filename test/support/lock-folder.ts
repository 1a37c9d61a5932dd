// Work that one test process at a time may do (building machin, building dist/): a lock folder,
// since mkdir is atomic. `npm test` runs two test files at once, and a hand-started second run
// may do the same work: the others wait for the first.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import * as path from 'node:path';

/** Runs `work` holding the lock folder `lock`, after waiting at most `waitMs` for it. */
export function withLockFolder<T>(lock: string, waitMs: number, work: () => T): T {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > waitMs) throw new Error(`${lock}: held for ${Math.round(waitMs / 60_000)} minutes; remove it if no build is running`);
      spawnSync('sleep', ['0.2']);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}
