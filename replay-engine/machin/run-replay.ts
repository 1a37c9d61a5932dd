// One `machin replay` run: an argument array, the time limit (a cut or diverging trace can make
// machin wait forever), cancellation, output echoed to the caller as it arrives.
import { runProcess } from '../toolchain/run-process';
import type { ToolchainOptions } from '../open-options';
import type { MachinTool } from './find-machin';
import { parseReplayOutput, type ReplayOutput } from './machin-output';

export const DEFAULT_TIME_LIMIT_MS = 60_000;

export interface ReplayRun {
  /** The flags after `replay TRACE`, e.g. ['--json'] or ['--print', 'a,b']. */
  flags: string[];
  exitCode: number;
  /** The program's own output. */
  stdout: string;
  stderr: string;
  output: ReplayOutput;
}

/** Throws RecordingError 'toolchain-timeout', 'cancelled', 'toolchain-missing' or 'toolchain-failed'. */
export async function runMachinReplay(machin: MachinTool, trace: string, flags: string[], options: ToolchainOptions): Promise<ReplayRun> {
  const args = ['replay', trace, ...flags];
  options.onOutput?.(`$ ${machin.path} ${args.join(' ')}\n`);
  const result = await runProcess(machin.path, args, {
    timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    signal: options.signal,
    onOutput: options.onOutput ? (_stream, text) => options.onOutput!(text) : undefined,
  });
  options.onOutput?.(`[exit ${result.exitCode}]\n`);
  return { flags, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, output: parseReplayOutput(result.stderr) };
}
