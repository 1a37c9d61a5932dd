// Command-line parsing for `frozen-run`: Node's util.parseArgs, with usage errors (exit 2) kept
// apart from recordings that cannot be read (exit 1).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../model/errors';

export const USAGE = `usage:
  frozen-run inspect FILE [--json] [--machin PATH] [--program PATH] [--no-toolchain] [--key HEX | --key-file PATH]
      the recording's facts, threads with labels and record counts, the panic and causal chain
      when known, the verify verdict and warnings (--json: machine-readable, see docs/cli.md)
      --capsule-limit-mb N: refuse capsules over N MiB unread (default FROZEN_RUN_CAPSULE_LIMIT_MB, else 1024)
  frozen-run history FILE VAR [--goroutine G] [--function F] [--json] [--machin PATH] [--program PATH]
      every value VAR took, with op, goroutine and the statement that stored it (needs machin:
      --machin PATH or MACHIN=PATH); --function F: only the stores of F's statements
  frozen-run where FILE [--json] [--context N] [--machin PATH] [--program PATH]
      where the run panicked: the statement with its source lines, every goroutine's stack at
      the panic and each frame's values (needs machin and the program)
  frozen-run hits TRACE FILE[:LINE] [--expr E] [--goroutine G] [--json]
      every hit of a program line in the run, with E's value at each; FILE alone: how often each line ran
  frozen-run origin TRACE VAR [--at POSITION] [--goroutine G] [--json]
      where VAR's value came from: the storing statement, receive to send across goroutines, to I/O or a parameter's call
  frozen-run compare A B [--json]          two runs of the same program side by side
  frozen-run spool DIR [--json]            a Tin spool's capsules grouped by failure (spool --help)
  frozen-run secret FILE.tcap TEXT ...     is TEXT the secret behind a capsule's handle? (secret --help)
  frozen-run against FILE.tcap BUILD ...   replay a Tin capsule against a build (against --help)
  frozen-run mcp [--toolchain] [--key-file PATH]
      a Model Context Protocol server over stdio for agents (mcp --help, docs/mcp.md)

exit status: 0 read, 1 the recording cannot be read (one line on stderr), 2 usage error`;

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** parseArgs that turns every complaint into a UsageError. */
export function parse(argv: string[], options: Options, positionals: { min: number; max: number; names: string }): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const n = parsed.positionals.length;
  if (n < positionals.min) throw new UsageError(`missing ${positionals.names}`);
  if (n > positionals.max) throw new UsageError(`unexpected argument \`${parsed.positionals[positionals.max]}\``);
  return { positionals: parsed.positionals, values: parsed.values as Parsed['values'] };
}

/** Options every command that opens a recording shares. */
export const OPEN_OPTIONS: Options = {
  json: { type: 'boolean' },
  machin: { type: 'string' },
  program: { type: 'string' },
  'no-toolchain': { type: 'boolean' },
  key: { type: 'string' },
  'key-file': { type: 'string' },
  'time-limit': { type: 'string' },
  'capsule-limit-mb': { type: 'string' },
};

