// `frozen-run`: the engine as a command-line tool for CI and agents. Exit 0 when the recording was
// read, 1 when it cannot be (one line on stderr, never a stack trace), 2 for a usage error.
import { RecordingError } from '../model/errors';
import { USAGE, UsageError } from './args';
import { runCompareCommand } from './compare-command';
import { runHistory } from './history-command';
import { runInspect } from './inspect-command';
import { runSpool, SPOOL_USAGE } from './spool-command';
import { runTcapCommand, TCAP_USAGE } from './tcap-commands';

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  inspect: runInspect,
  history: runHistory,
  compare: runCompareCommand,
  spool: runSpool,
  secret: (argv) => runTcapCommand('secret', argv),
  against: (argv) => runTcapCommand('against', argv),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(USAGE + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command \`${name}\``);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write((name === 'secret' || name === 'against' ? TCAP_USAGE : name === 'spool' ? SPOOL_USAGE : USAGE) + '\n');
    return 0;
  }
  return command(rest);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`frozen-run: ${oneLine(err.message)}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (err instanceof RecordingError) {
      process.stderr.write(`frozen-run: ${oneLine(err.message)}\n`);
      process.exitCode = 1;
    } else {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`frozen-run: internal error: ${oneLine(message)} (please report it)\n`);
      if (process.env.FROZEN_RUN_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exitCode = 1;
    }
  },
);
