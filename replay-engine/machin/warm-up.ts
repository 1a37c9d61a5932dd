// What every source-level launch needs before its replays start and that does not depend on the
// trace: the stderr buffer library (a C compiler run, about 0.1 s), the replay command's prefix
// (chrt and taskset tried) and the thread that reads the instrumented replay's stderr. Made once a process, started as soon as a machin trace is being
// opened, so the replays start without waiting for them; a launch that comes before they are
// done waits for the same answers, never builds them twice.
import { warmUpReplayPrefix } from './replay-cores';
import { sharedStderrBuffer } from './source/stderr-buffer';
import { warmUpFifoReader } from '../toolchain/fifo-stderr';

let started = false;

export function warmUpMachinReplays(env: NodeJS.ProcessEnv = process.env): void {
  if (started) return;
  started = true;
  void sharedStderrBuffer();
  void warmUpReplayPrefix(env).catch(() => undefined);
  warmUpFifoReader();
}
