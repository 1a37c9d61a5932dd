// How the editor's agents start Frozen Run's MCP server: the extension's own CLI bundle with the
// `mcp` command, under the extension host's Node (Electron as Node where VS Code is Electron).
// No vscode import here, so it can be tested as it is. No key is ever passed: a capsule key would
// land in the editor's MCP configuration; the server reads TIN_REPLAY_KEY from its environment.
import type { MachinCores } from '../replay-engine/machin/replay-cores';

export interface McpLaunchInput {
  /** The extension host's executable (process.execPath). */
  execPath: string;
  /** Absolute path of dist/cli.js in the installed extension. */
  cliPath: string;
  /** Workspace trust: only a trusted workspace lets the server run machin. */
  trusted: boolean;
  machinPath?: string;
  /** Workspace folders and frozenRun.programRoots: with --toolchain, programs elsewhere never run. */
  programRoots: string[];
  timeLimitMs: number;
  /** frozenRun.capsuleSizeLimitMB, handed to the server as FROZEN_RUN_CAPSULE_LIMIT_MB. */
  capsuleSizeLimitMB?: number;
  /** frozenRun.machinReplayCores, handed to the server as FROZEN_RUN_MACHIN_CORES. */
  machinReplayCores?: MachinCores;
}

export interface McpLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function mcpLaunch(input: McpLaunchInput): McpLaunch {
  const args = [input.cliPath, 'mcp'];
  if (input.trusted) {
    args.push('--toolchain', '--time-limit', String(Math.max(1, Math.round(input.timeLimitMs / 1000))));
    if (input.machinPath) args.push('--machin', input.machinPath);
    for (const root of input.programRoots) args.push('--program-root', root);
  }
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  if (input.capsuleSizeLimitMB !== undefined) env.FROZEN_RUN_CAPSULE_LIMIT_MB = String(input.capsuleSizeLimitMB);
  if (input.machinReplayCores !== undefined) env.FROZEN_RUN_MACHIN_CORES = input.machinReplayCores;
  return { command: input.execPath, args, env };
}
