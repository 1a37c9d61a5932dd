// `frozen-run history FILE VAR [--goroutine G] [--function F] [--json]`: every value VAR took, from
// machin's `replay --print` (through the machin bridge), each with the statement that stored it
// when the program's statements are known (the replay against the instrumented program,
// docs/source-level.md); `--function F` keeps the stores of F's statements. Needs machin; says so
// when it is missing.
import { RecordingError, type EngineWarning } from '../model/errors';
import { readyStatements, type Recording } from '../model/recording';
import { placeOf, programLines, type StatementPlace } from '../model/statement-text';
import { openRecording } from '../open';
import { capsuleLimitMB, OPEN_OPTIONS, parse, timeLimitMs, UsageError } from './args';
import { writeText } from './printable';

export interface HistoryJson {
  file: string;
  variable: string;
  goroutine: string | null;
  /** Only the stores of this function's statements (null: all). */
  function: string | null;
  /** Why the entries carry no statement (the statements are not known), when they do not. */
  statementsWhy?: string;
  entries: Array<{ op: number; goroutine: string; value: string; statement?: StatementPlace | null; thisReplayOnly?: true }>;
}

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
    const lines = entries.map((e) => `  op ${String(e.op).padStart(6)}  goroutine ${e.goroutine.padEnd(8)}  ${variable} = ${e.value}${e.thisReplayOnly ? '  (this replay only)' : ''}${where(e.statement)}`);
    const scope = `${goroutine ? ` on goroutine ${goroutine}` : ''}${doc.function ? ` stored in ${doc.function}` : ''}`;
    const note = doc.statementsWhy ? `(no statements: ${doc.statementsWhy})\n` : '';
    writeText(process.stdout, `${variable}: ${entries.length} value${entries.length === 1 ? '' : 's'}${scope}\n${note}${lines.join('\n')}${lines.length ? '\n' : ''}`);
  }
  return 0;
}

/**
 * The answer of `history --json` for a recording already opened (the MCP server asks the same
 * question through this function). Throws the RecordingError the CLI prints.
 */
export function historyAnswer(rec: Recording, file: string, variable: string, goroutine?: string, fn?: string): HistoryJson {
  const tl = rec.timeline;
  if (!rec.histories) throw noHistories(file, rec.warnings);
  let only = -1;
  if (goroutine !== undefined) {
    only = tl.threadIndex(goroutine);
    if (only < 0) throw new RecordingError('malformed', `${file}: no goroutine ${goroutine} in this recording (it has ${tl.threads.map((t) => t.id).slice(0, 10).join(', ')}${tl.threads.length > 10 ? ', …' : ''})`, { file });
  }
  const histories = rec.histories;
  if (!histories.names.includes(variable) || histories.count(variable) === 0) {
    const known = histories.names.filter((n) => histories.count(n) > 0).join(', ') || 'none';
    throw new RecordingError('malformed', `${file}: no values of \`${variable}\` (machin printed values of: ${known}; slices, maps, structs and select-bound variables are never probed)`, { file });
  }
  const s = readyStatements(rec);
  const why = s ? undefined : rec.sourceLevel?.state === 'unavailable' ? rec.sourceLevel.reason : 'machin did not replay the program against its instrumented copy';
  if (fn !== undefined && !s) throw new RecordingError('toolchain-failed', `${file}: --function needs the program's statements, and they are not known: ${why}`, { file });
  if (fn !== undefined && s!.localsOf(fn) === null) {
    throw new RecordingError('malformed', `${file}: the program has no function \`${fn}\` (a function literal is named as machin names it: \`main.func1\`)`, { file });
  }
  const lines = s ? programLines(rec) : null;
  // The statement that stored a value: the event's own, or the caller's call when the event ends a call.
  const statementOf = (thread: number, event: number | undefined): StatementPlace | null | undefined => {
    if (!s || event === undefined) return undefined;
    return event < 0 ? null : placeOf(rec, s.location(thread, s.storedBy(thread, event)), lines);
  };
  const entries = histories
    .entries(variable)
    .filter((e) => only < 0 || e.thread === only)
    .map((e) => ({ op: e.position, goroutine: tl.threads[e.thread].id, value: e.value, ...(s && e.event !== undefined ? { statement: statementOf(e.thread, e.event) ?? null } : {}), ...(e.thisReplayOnly ? { thisReplayOnly: true as const } : {}) }))
    .filter((e) => fn === undefined || e.statement?.function === fn);
  return { file: tl.file, variable, goroutine: goroutine ?? null, function: fn ?? null, ...(why ? { statementsWhy: why } : {}), entries };
}

/** Why there are no values, from what the bridge warned: the first cause that stopped machin's run. */
function noHistories(file: string, warnings: EngineWarning[]): RecordingError {
  const has = (code: string) => warnings.find((w) => w.code === code);
  const missing = has('program-missing');
  if (missing) {
    return new RecordingError('program-missing', `${file}: no value histories: machin replays the recorded program to print them, and the program is missing: ${missing.message} (--program PATH names it)`, { file });
  }
  const machin = has('toolchain-missing');
  if (machin) {
    return new RecordingError('toolchain-missing', `${file}: no value histories: they come from \`machin replay --print\`, so machin is needed (--machin PATH, or the MACHIN environment variable, or machin on PATH): ${machin.message}`, { file });
  }
  const stopped = ['toolchain-timeout', 'program-not-confirmed', 'toolchain-failed', 'replay-deadlock', 'program-unreadable'].map(has).find(Boolean);
  const code = stopped?.code === 'toolchain-timeout' ? 'toolchain-timeout' : 'toolchain-failed';
  return new RecordingError(code, `${file}: no value histories: machin replay --print gave none${stopped ? `: ${stopped.message}` : ''}`, { file });
}
