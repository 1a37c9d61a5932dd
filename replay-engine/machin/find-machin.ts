// Finds the machin executable: the `frozenRun.machinPath` setting (options.machinPath), then the
// MACHIN environment variable, then PATH. Nothing is run to find it; its version is read apart.
import * as path from 'node:path';
import type { ToolchainOptions } from '../open-options';
import { RecordingError } from '../model/errors';
import { isExecutable, searchPath } from '../toolchain/find-executable';
import { runProcess } from '../toolchain/run-process';

export interface MachinTool {
  /** Absolute path of the executable. */
  path: string;
  /** Where it came from, for messages: `setting`, `MACHIN`, `PATH`. */
  from: 'setting' | 'MACHIN' | 'PATH';
}

const INSTALL_HINT =
  'install machin (open source, javimosch/machin: `go build` in a clone, needs Go and a C compiler) ' +
  'and put it on PATH, or set `frozenRun.machinPath` (CLI: --machin PATH) or the MACHIN environment variable to its path';

/** Locate machin, or throw RecordingError('toolchain-missing') saying how to get it. */
export function findMachin(options: ToolchainOptions, env: NodeJS.ProcessEnv = process.env): MachinTool {
  if (options.machinPath) {
    // A bare name (`machin-0.137`) is looked up on PATH, like a shell would.
    const bare = !/[\\/]/.test(options.machinPath);
    const p = (bare && searchPath(options.machinPath, env)) || path.resolve(options.machinPath);
    if (!isExecutable(p)) {
      throw new RecordingError('toolchain-missing', `machin not found at ${p} (setting frozenRun.machinPath / --machin): fix the path, or clear it to use MACHIN or PATH`);
    }
    return { path: p, from: 'setting' };
  }
  const fromEnv = env.MACHIN;
  if (fromEnv) {
    const p = path.resolve(fromEnv);
    if (!isExecutable(p)) {
      throw new RecordingError('toolchain-missing', `machin not found at ${p} (environment variable MACHIN): fix it, or unset it to search PATH`);
    }
    return { path: p, from: 'MACHIN' };
  }
  const onPath = searchPath('machin', env);
  if (onPath) return { path: onPath, from: 'PATH' };
  throw new RecordingError('toolchain-missing', `machin not found on PATH: ${INSTALL_HINT}. Without it the trace is shown as recorded (no panic message, verify verdict or variable values).`);
}

/**
 * machin's version. machin has no `--version` (it answers `unknown command`); `machin guide`
 * prints its catalog as JSON whose `version` is the toolchain version (guide.go machinVersion).
 * Undefined when it cannot be read; never throws except on cancel.
 */
export async function readMachinVersion(tool: MachinTool, options: ToolchainOptions): Promise<string | undefined> {
  try {
    const { stdout, exitCode } = await runProcess(tool.path, ['guide', '--json'], {
      timeLimitMs: Math.min(options.timeLimitMs ?? 60_000, 15_000),
      signal: options.signal,
    });
    if (exitCode !== 0) return undefined;
    const version = (JSON.parse(stdout) as { version?: unknown }).version;
    return typeof version === 'string' && /^\d+\.\d+\.\d+/.test(version) ? version : undefined;
  } catch (err) {
    if (err instanceof RecordingError && err.code === 'cancelled') throw err;
    return undefined;
  }
}
