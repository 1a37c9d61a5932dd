// `frozen-run history FILE VAR|FN.VAR [--goroutine G] [--function F] [--json]`: every value VAR took,
// from machin's `replay --print` (through the machin bridge), each at the op the status bar shows
// when it is set (step-words.ts). When the program's statements are known (the replay against the
// instrumented program, docs/source-level.md) a variable is one function's (statement-histories.ts:
// `gather.lo`, or `lo --function gather`), each value with the statement that stored it; a bare
// name several functions bind is refused with the choices, never mixed. Needs machin; says so
// when it is missing.
import { UsageError } from '../model/errors';
import { historyAnswer } from '../model/history-answer';
import type { StatementPlace } from '../model/statement-text';
import { openRecording } from '../open';
import { OPEN_OPTIONS, parse } from './args';
import { capsuleLimitMB, timeLimitMs } from '../option-values';
import { writeText } from './printable';

export async function runHistory(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, { ...OPEN_OPTIONS, goroutine: { type: 'string' }, function: { type: 'string' } }, { min: 2, max: 2, names: 'FILE and VAR' });
  const [file, variable] = positionals;
  if (values['no-toolchain']) throw new UsageError('history needs machin; it cannot run with --no-toolchain');
  const rec = await openRecording(file, {
    // the statement of each store: the plain replay and the one against the instrumented program
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    keyHex: values.key as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
    capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb']),
  });
  const doc = historyAnswer(rec, file, variable, values.goroutine as string | undefined, values.function as string | undefined);
  const { entries, goroutine } = doc;
  if (values.json) {
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  } else {
    const where = (s: StatementPlace | null | undefined) => (s ? `  ${s.function} line ${s.line}:${s.column}  ${s.text}` : s === null ? '  (its function\'s parameter, before its first statement)' : '');
    const shown = doc.key ?? variable;
    const width = Math.max(5, ...entries.map((e) => e.at.length));
    const lines = entries.map((e) => `  ${e.at.padEnd(width)}  goroutine ${e.goroutine.padEnd(8)}  ${shown} = ${e.value}${e.thisReplayOnly ? '  (this replay only)' : ''}${where(e.statement)}`);
    const scope = goroutine ? ` on goroutine ${goroutine}` : '';
    const note = doc.statementsWhy ? `(no statements: ${doc.statementsWhy})\n` : '';
    writeText(process.stdout, `${shown}: ${entries.length} value${entries.length === 1 ? '' : 's'}${scope} (each at the op the status bar shows when it is set)\n${note}${lines.join('\n')}${lines.length ? '\n' : ''}`);
  }
  return 0;
}
