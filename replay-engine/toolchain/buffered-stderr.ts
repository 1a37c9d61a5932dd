// A replay that prints millions of probe lines (`machin replay --print`) spends most of its time
// in write(2): the compiled program writes each line to an unbuffered C stderr. Run under
// coreutils' `stdbuf -e SIZE`, the program's stderr is a buffered stdio stream instead (stdbuf
// sets LD_PRELOAD for libstdbuf, inherited by the program machin starts), so the same lines
// leave in 64 KiB writes: the same bytes in the same order, measured 2.5 to 3x faster on a
// 600k-op instrumented replay.
// NOT for machin replays (run-replay.ts does not ask for it): machin exits through exit() while
// other goroutines may still be printing, and glibc's exit flushes stdio buffers without taking
// the stream's lock, racing with their fprintf: with the real machin 0.137.0 (main panicking while
// three goroutines loop with probes) about 1 replay in 8 printed a 55 KB block of earlier lines a
// second time (values and statements twice, the panic twice), tore lines (`= 1373 @op0`) or
// ended in half a line. An unbuffered stderr writes each line in one write(2) and never did.
// Where there is no stdbuf (macOS, Windows), the command runs as it is.
import { searchPath } from './find-executable';

/** Buffer size of the child's stderr: big enough to batch, small enough to stream often. */
export const STDERR_BUFFER_BYTES = 65_536;

/** The command and arguments that run `command args` with a buffered C stderr, when stdbuf can. */
export function withBufferedStderr(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } {
  if (process.platform !== 'linux' || env.FROZEN_RUN_UNBUFFERED_STDERR) return { command, args };
  const stdbuf = searchPath('stdbuf', env);
  return stdbuf ? { command: stdbuf, args: ['-e', String(STDERR_BUFFER_BYTES), command, ...args] } : { command, args };
}
