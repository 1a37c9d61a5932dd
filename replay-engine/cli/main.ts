// `frozen-run`: the engine as a command-line tool for CI and agents. Exit 0 when the recording was
// read, 1 when it cannot be (one line on stderr, never a stack trace), 2 for a usage error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RecordingError } from '../model/errors';
import { killAllProcessesNow, stopAllProcesses } from '../toolchain/run-process';
import { USAGE } from './args';
import { UsageError } from '../model/errors';
import { runCompareCommand } from './compare-command';
import { runHistory } from './history-command';
import { runInspect } from './inspect-command';
import { runHits, runOrigin } from './questions-command';
import { runSpool, SPOOL_USAGE } from './spool-command';
import { runTcapCommand, TCAP_USAGE } from './tcap-commands';
import { writeText } from './printable';
import { runWhere } from './where-command';

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  inspect: runInspect,
  history: runHistory,
  where: runWhere,
  hits: runHits,
  origin: runOrigin,
  compare: runCompareCommand,
  spool: runSpool,
  secret: (argv) => runTcapCommand('secret', argv),
  against: (argv) => runTcapCommand('against', argv),
  mcp: (argv) => loadMcpServer().runMcpCommand(argv),
};

/**
 * The MCP server is its own bundle beside this one (dist/mcp-server.js), loaded only for `mcp`, so
 * the protocol SDK is not in every CLI start. From the sources (tsx) it is mcp-server/main.ts.
 */
function loadMcpServer(): { runMcpCommand(argv: string[]): Promise<number> } {
  const bundle = join(__dirname, 'mcp-server.js');
  // Only when this file itself runs from the sources (tsx), never beside a bundle.
  const source = __filename.endsWith('.ts') ? join(__dirname, '..', '..', 'mcp-server', 'main.ts') : bundle;
  const path = existsSync(bundle) ? bundle : source;
  if (!existsSync(path)) throw new RecordingError('io', `${bundle} is missing: this installation has no MCP server bundle; run \`npm run build\``);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as { runMcpCommand(argv: string[]): Promise<number> };
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(USAGE + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command \`${name}\``);
  if (name !== 'mcp' && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write((name === 'secret' || name === 'against' ? TCAP_USAGE : name === 'spool' ? SPOOL_USAGE : USAGE) + '\n');
    return 0;
  }
  return command(rest);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The signal that is stopping the CLI, once one came. */
let stoppedBy: NodeJS.Signals | undefined;

/**
 * Ctrl-C, SIGTERM or a closed terminal: stop every toolchain child's process group and wait for
 * it, let the command's cleanup (the temporary trace copy) run, then say so and exit as killed by
 * that signal. A second signal, or a cleanup that takes more than a few seconds, kills the groups at once.
 */
function exitOnSignals(done: Promise<unknown>): void {
  const codes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const [signal, code] of Object.entries(codes) as Array<[NodeJS.Signals, number]>) {
    process.on(signal, () => {
      if (stoppedBy) {
        killAllProcessesNow();
        process.exit(code);
      }
      stoppedBy = signal;
      const late = setTimeout(() => {
        killAllProcessesNow();
        process.exit(code);
      }, 5_000);
      void stopAllProcesses()
        .then(() => done)
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(late);
          process.stderr.write(`frozen-run: stopped by ${signal}: every toolchain process it started was stopped, and its temporary trace copies removed\n`);
          process.exit(code);
        });
    });
  }
}

/**
 * A reader that goes away (`frozen-run spool DIR | head`) is not an error of the recording: the
 * output ends there, quietly, whichever command was writing (an unhandled EPIPE would print a
 * stack trace). Once stdout is gone, writes to it are dropped.
 */
function endQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    writeText(process.stderr, `frozen-run: cannot write the output: ${oneLine(e.message)}\n`);
    process.exit(1);
  });
}

endQuietlyOnClosedStdout();
const done = main(process.argv.slice(2));
exitOnSignals(done);
done.then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (stoppedBy) return; // the signal handler says what happened
    if (err instanceof UsageError) {
      writeText(process.stderr, `frozen-run: ${oneLine(err.message)}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (err instanceof RecordingError) {
      writeText(process.stderr, `frozen-run: ${oneLine(err.message)}\n`);
      process.exitCode = 1;
    } else {
      const message = err instanceof Error ? err.message : String(err);
      writeText(process.stderr, `frozen-run: internal error: ${oneLine(message)} (please report it)\n`);
      if (process.env.FROZEN_RUN_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exitCode = 1;
    }
  },
);
