// One browser at a time across the test files of a run. `npm test` runs two files at once (the
// machine has two cores), but a VS Code in Chromium, or the webview tests' Chromium, next to a
// second one makes both slow enough to miss their waits. A file that drives a browser takes its
// turn here first; the other test files run beside it.
//
// The turn is a lock file holding the holder's pid, created with O_EXCL. A holder that died
// without letting go (killed test run) is noticed by its pid and its lock taken over.
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

// One lock per checkout, so a second clone's run (CI beside a hand run) is not held up.
const LOCK = join(tmpdir(), `frozen-run-browser-turn-${Buffer.from(REPO_ROOT).toString('hex').slice(-24)}.lock`);
let held = 0;

/** The pid in the lock file: null while it is being written or just let go. */
function holder(): number | null {
  try {
    const text = readFileSync(LOCK, 'utf8');
    return text === '' ? null : Number(text);
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function release(): void {
  held = Math.max(0, held - 1);
  if (held === 0) {
    try {
      unlinkSync(LOCK);
    } catch {
      // already gone
    }
  }
}

process.on('exit', () => {
  if (held > 0) {
    held = 1;
    release();
  }
});

/** Waits for this process's turn with a browser; returns the function that ends it. */
export async function browserTurn(): Promise<() => void> {
  if (held > 0) {
    held++;
    return once(release);
  }
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held = 1;
      return once(release);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = holder();
    if (pid !== null && !alive(pid)) {
      // Taken over only if the dead holder's pid is still the one there (not a new holder's).
      if (holder() === pid) {
        try {
          unlinkSync(LOCK);
        } catch {
          // another waiter took it over first
        }
      }
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      f();
    }
  };
}
