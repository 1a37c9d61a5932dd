// Every value a variable took, as `frozen-run history --json` and the MCP server's
// variable_history answer it, for a recording already opened: each at the op the status bar shows
// when it is set (step-words.ts); at source level one function's variable (statement-histories.ts:
// `gather.lo`, or `lo` with the function named), each value with the statement that stored it; a
// bare name several functions bind is refused with the choices, never mixed.
import { RecordingError, UsageError, type EngineWarning } from './errors';
import { readyStatements, type Recording } from './recording';
import { ownerOfEntry, pickVariable, splitAsked, variablesNamed, type StatementVariable } from './statement-histories';
import { placeOf, programLines, type StatementPlace } from './statement-text';
import { stepAtPosition } from './step-words';

export interface HistoryJson {
  file: string;
  /** As asked (`lo`, `gather.lo`). */
  variable: string;
  /** The variable answered at source level: `gather.lo` (one function's; a bare name several functions bind is refused, not mixed). */
  key?: string;
  goroutine: string | null;
  /** The function whose variable this is (--function, `fn.var`, or the only one of that name; null: record level). */
  function: string | null;
  /** Why the entries carry no statement (the statements are not known), when they do not. */
  statementsWhy?: string;
  /** `op`: the position (ops done) the value is placed at; `at`: that moment in the status bar's words (`op 6`, `start`). */
  entries: Array<{ op: number; at: string; goroutine: string; value: string; statement?: StatementPlace | null; thisReplayOnly?: true }>;
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
  const asked = splitAsked(variable, rec.histories);
  const name = asked.name;
  if (!histories.names.includes(name) || histories.count(name) === 0) {
    const known = histories.names.filter((n) => histories.count(n) > 0).join(', ') || 'none';
    throw new RecordingError('malformed', `${file}: no values of \`${name}\` (machin printed values of: ${known}; slices, maps, structs and channels are never probed, and a name never assigned has none)`, { file });
  }
  const s = readyStatements(rec);
  const why = s ? undefined : rec.sourceLevel?.state === 'unavailable' ? rec.sourceLevel.reason : 'machin did not replay the program against its instrumented copy';
  const wanted = fn ?? asked.fn ?? undefined;
  if (fn !== undefined && asked.fn !== null && fn !== asked.fn) throw new UsageError(`--function ${fn} and ${variable} name two functions`);
  if (wanted !== undefined && !s) throw new RecordingError('toolchain-failed', `${file}: ${fn !== undefined ? '--function' : `\`${variable}\``} needs the program's statements, and they are not known: ${why}`, { file });
  if (wanted !== undefined && s!.localsOf(wanted) === null) {
    throw new RecordingError('malformed', `${file}: the program has no function \`${wanted}\` (a function literal is named as machin names it: \`main.func1\`)`, { file });
  }
  const lines = s ? programLines(rec) : null;
  const place = (thread: number, event: number): StatementPlace | null => (event < 0 ? null : placeOf(rec, s!.location(thread, s!.storedBy(thread, event)), lines));
  const unit = tl.units.steps.replace(/s$/, '');
  const split = s ? variablesNamed(histories, s, name) : null;
  if (!split) {
    // Record level: the name's values as machin printed them, in its order.
    const entries = histories
      .entries(name)
      .filter((e) => only < 0 || e.thread === only)
      .map((e) => ({ op: e.position, at: stepAtPosition(e.position, unit), goroutine: tl.threads[e.thread].id, value: e.value, ...(e.thisReplayOnly ? { thisReplayOnly: true as const } : {}) }));
    return { file: tl.file, variable, goroutine: goroutine ?? null, function: null, ...(why ? { statementsWhy: why } : {}), entries };
  }
  const picked = pickVariable(split, wanted !== undefined ? `${wanted}.${name}` : name);
  if ('ambiguous' in picked) {
    throw new RecordingError('malformed', `${file}: \`${name}\` is a variable of ${picked.ambiguous.length} functions; name one: ${choices(picked.ambiguous)} (\`history FILE ${picked.ambiguous[0].key}\`, or --function ${picked.ambiguous[0].function})`, { file });
  }
  if ('none' in picked) {
    throw new RecordingError('malformed', `${file}: \`${wanted}\` stores no \`${name}\`${picked.none.length ? `; the variables of that name: ${choices(picked.none)}` : ''}`, { file });
  }
  const v = picked.variable;
  // In machin's true order (as at record level), the entries of that function's variable.
  const entries = histories
    .entries(name)
    .filter((e) => (only < 0 || e.thread === only) && (ownerOfEntry(e, s!, name) ?? null) === v.function)
    .map((e) => ({ op: e.position, at: stepAtPosition(e.position, unit), goroutine: tl.threads[e.thread].id, value: e.value, ...(e.event !== undefined ? { statement: place(e.thread, Math.min(e.event, s!.eventsOf(e.thread) - 1)) } : {}), ...(e.thisReplayOnly ? { thisReplayOnly: true as const } : {}) }));
  return { file: tl.file, variable, key: v.key, goroutine: goroutine ?? null, function: v.function, entries };
}

/** `gather.lo (5 values), put.lo (5 values)`. */
function choices(vars: readonly StatementVariable[]): string {
  return vars.map((v) => `${v.key} (${v.stores.length} value${v.stores.length === 1 ? '' : 's'})`).join(', ');
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
