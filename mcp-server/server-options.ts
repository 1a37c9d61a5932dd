// `frozen-run mcp [--toolchain] [--key-file PATH] [--machin PATH] [--time-limit S]
// [--capsule-limit-mb N]`: what the MCP server may do. No toolchain runs unless --toolchain is
// given (an agent may be pointed at a recording from a folder nobody trusted), and a capsule key
// comes only from TIN_REPLAY_KEY or a key file: a key given as a tool argument or on the command
// line would land in a transcript or a process list.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../replay-engine/model/errors';
import { capsuleLimitMB, timeLimitMs } from '../replay-engine/option-values';
import type { OpenOptions } from '../replay-engine/open-options';
import { DEFAULT_PAGE_BYTES } from './fit-answer';

export const MCP_USAGE = `usage: frozen-run mcp [--toolchain] [--key-file PATH] [--machin PATH] [--program-root DIR]... [--root DIR]... [--time-limit S] [--capsule-limit-mb N] [--page-bytes N]
  a Model Context Protocol server over stdio (docs/mcp.md): agents open recordings and step through them
  --toolchain      let it run machin (panic, causal chain, verify, value histories); off by default
  --program-root DIR  with --toolchain, run only programs in these folders (default: the trace's own folder)
  --root DIR       open only recordings in these folders (the client's roots narrow it further)
  --capsule-limit-mb N  refuse capsules over N MiB unread (default FROZEN_RUN_CAPSULE_LIMIT_MB, else 1024)
  --page-bytes N   the most JSON one answer holds, in bytes (default 32768; 4096 to 4194304)
  --key-file PATH  capsule key file (64 hex digits, mode 600); else TIN_REPLAY_KEY from the environment`;

export interface ServerOptions {
  toolchain: boolean;
  /** Passed to every openRecording: never a keyHex. */
  open: OpenOptions;
  /** --root: every recording opened must be in one of these (empty: no bound from the server). */
  roots: string[];
  /** --program-root as given (undefined: the trace's own folder). */
  programRoots?: string[];
  /** The most JSON one answer holds. */
  pageBytes: number;
}

export function parseServerOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ServerOptions {
  if (argv.some((a) => a === '--key' || a.startsWith('--key='))) {
    throw new UsageError('the MCP server takes no --key: a key on the command line shows in process lists and agent configs; use --key-file PATH or the TIN_REPLAY_KEY environment variable');
  }
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        toolchain: { type: 'boolean' },
        'no-toolchain': { type: 'boolean' },
        'key-file': { type: 'string' },
        machin: { type: 'string' },
        'time-limit': { type: 'string' },
        'capsule-limit-mb': { type: 'string' },
        'program-root': { type: 'string', multiple: true },
        root: { type: 'string', multiple: true },
        'page-bytes': { type: 'string' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.toolchain && values['no-toolchain']) throw new UsageError('give --toolchain or --no-toolchain, not both');
  const toolchain = values.toolchain === true;
  const roots = ((values['program-root'] as unknown as string[] | undefined) ?? []).map((r) => resolve(r));
  const pageText = values['page-bytes'] as string | undefined;
  const pageBytes = pageText === undefined ? DEFAULT_PAGE_BYTES : Number(pageText);
  if (!Number.isInteger(pageBytes) || pageBytes < 4096 || pageBytes > 4 * 1024 * 1024) {
    throw new UsageError(`--page-bytes ${pageText}: give a whole number of bytes from 4096 to 4194304`);
  }
  return {
    toolchain,
    roots: ((values.root as unknown as string[] | undefined) ?? []).map((r) => resolve(r)),
    programRoots: roots.length ? roots : undefined,
    pageBytes,
    open: {
      noToolchain: !toolchain,
      machinPath: values.machin as string | undefined,
      keyFile: values['key-file'] as string | undefined,
      timeLimitMs: timeLimitMs(values['time-limit'] as string | undefined),
      capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb'] as string | undefined),
      // A program outside the roots (without roots: outside the trace's folder) is never run: no one is there to say yes.
      programRoots: roots.length ? roots : undefined,
      env,
    },
  };
}
