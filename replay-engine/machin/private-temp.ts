// Private temporary folders for trace copies: `frozen-run-machin-PID-XXXXXX` under the system temp
// folder, mode 0700 (and `frozen-run-lib-PID-XXXXXX`, one a process keeps for its life). A copy is removed in a `finally`, which a process that exits on a signal
// (the standalone adapter, the MCP server) never reaches: the folders still here are kept in a
// set and removed at once by removeAllPrivateDirsNow, also on the process's `exit`. A SIGKILLed
// process removes nothing, so the first copy a process makes also removes the folders of this
// user's processes that are gone.
import { promises as fs, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const DIR_PREFIX = 'frozen-run-machin-';
/** A folder kept for the process's life (the stderr buffer library: stderr-buffer.ts sharedStderrBuffer). */
export const PROCESS_DIR_PREFIX = 'frozen-run-lib-';
let swept = false;
/** The folders made and not yet removed. */
const live = new Set<string>();
let exitHook = false;

export async function makePrivateDir(prefix: typeof DIR_PREFIX | typeof PROCESS_DIR_PREFIX = DIR_PREFIX): Promise<string> {
  await sweepOrphans();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}${process.pid}-`));
  live.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', removeAllPrivateDirsNow);
  }
  await fs.chmod(dir, 0o700);
  return dir;
}

/** Removes a folder makePrivateDir made, with everything in it. */
export async function removePrivateDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
  live.delete(dir);
}

/**
 * Removes every folder still here, synchronously: for a process about to exit (after its
 * toolchain children are stopped, so that nothing still reads or writes in them).
 */
export function removeAllPrivateDirsNow(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // the exit goes on; the next process's sweep removes it
    }
    live.delete(dir);
  }
}

async function sweepOrphans(): Promise<void> {
  if (swept) return;
  swept = true;
  const tmp = os.tmpdir();
  let names: string[];
  try {
    names = await fs.readdir(tmp);
  } catch {
    return;
  }
  for (const name of names) {
    const prefix = [DIR_PREFIX, PROCESS_DIR_PREFIX].find((p) => name.startsWith(p));
    const m = prefix ? /^(\d+)-/.exec(name.slice(prefix.length)) : null;
    if (!m || Number(m[1]) === process.pid || isRunning(Number(m[1]))) continue;
    try {
      const st = await fs.lstat(path.join(tmp, name));
      if (st.isDirectory() && st.uid === process.getuid?.()) await fs.rm(path.join(tmp, name), { recursive: true, force: true });
    } catch {
      // gone already, or not ours
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** For tests: sweep again on the next folder made. */
export function resetOrphanSweep(): void {
  swept = false;
}
