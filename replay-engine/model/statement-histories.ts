// Variable histories at source level (issue 29): every value is a store by a statement, and a
// variable is a function's (`collector.base` and `place.base` are two variables, as they are in
// the program). machin's `--print base` names no function and prints every goroutine's `base`,
// and the instrumented replay adds each parameter copy; the statement that stored a value
// (HistoryEntry.event, then SourceStatements.storedBy) says which function's variable it was.
// Record-level histories (no events) are not split: the name alone, as before.
import type { HistoryEntry, ValueHistories } from './recording';
import type { SourceStatements } from './source-level';

/** One store: a value, the statement that stored it, and where in the run that was. */
export interface StatementStore {
  thread: number;
  value: string;
  /** The timeline position the value is placed at (docs/value-positions.md). */
  position: number;
  /** The thread's event after which machin printed the value (HistoryEntry.event; -1: before its first). */
  event: number;
  /** Its place in the run's one order of statements (the chart's x): seqOf(event). */
  seq: number;
  /** The statement that stored it (a value a call returned: the caller's statement, storedBy). */
  line: number;
  column: number;
  /** Frames below the storing one (a recursive function's stores differ by it). */
  depth: number;
  /** Printed by this replay but maybe not another (HistoryEntry.thisReplayOnly). */
  thisReplayOnly?: true;
}

/** One variable of one function (or a global, or a name whose stores carry no statement). */
export interface StatementVariable {
  /** What the picker shows: `collector.base`; a global or an unsplit name: `base`. */
  key: string;
  name: string;
  /** The function that binds it; '' for a global; null when the values carry no statements. */
  function: string | null;
  /** In run order. */
  stores: StatementStore[];
}

/**
 * The histories split by the function each value belongs to, keys sorted; a watched name with no
 * value at all is kept once (the panel says it never took a value). Null when the histories carry
 * no statements (record level): the names are then the variables.
 */
export function statementVariables(histories: ValueHistories, statements: SourceStatements): StatementVariable[] | null {
  const byKey = new Map<string, StatementVariable>();
  let anyEvent = false;
  for (const name of histories.names) {
    const entries = histories.entries(name);
    if (entries.length === 0) {
      byKey.set(name, { key: name, name, function: null, stores: [] });
      continue;
    }
    for (const entry of entries) {
      const store = storeOf(entry, statements);
      anyEvent ||= store !== null;
      const fn = store ? statements.ownerOf(entry.thread, name, store.stored) : null;
      const key = fn ? `${fn}.${name}` : name;
      let v = byKey.get(key);
      if (!v) byKey.set(key, (v = { key, name, function: fn, stores: [] }));
      const row = store?.row ?? { thread: entry.thread, value: entry.value, position: entry.position, event: -1, seq: 0, line: 0, column: 0, depth: 0 };
      if (entry.thisReplayOnly) row.thisReplayOnly = true;
      v.stores.push(row);
    }
  }
  if (!anyEvent) return null;
  const out = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const v of out) if (v.function !== null) v.stores.sort((a, b) => a.seq - b.seq);
  return out;
}

function storeOf(entry: HistoryEntry, s: SourceStatements): { row: StatementStore; stored: number } | null {
  const t = entry.thread;
  if (entry.event === undefined || s.eventsOf(t) === 0) return null;
  const event = Math.min(entry.event, s.eventsOf(t) - 1);
  const stored = event < 0 ? -1 : s.storedBy(t, event);
  const at = Math.max(0, stored);
  const loc = s.location(t, at);
  return {
    stored,
    row: { thread: t, value: entry.value, position: entry.position, event, seq: s.seqOf(t, Math.max(0, event)), line: loc.line, column: loc.column, depth: s.depth(t, at) },
  };
}

/** The variable a plain name means in a frame of function `fn` (the Variables view's `base` in collector): its key, else the first of that name. */
export function keyFor(variables: readonly StatementVariable[], name: string, fn?: string | null): string | undefined {
  const exact = variables.find((v) => v.key === name);
  if (exact && !fn) return exact.key;
  return variables.find((v) => v.name === name && (!fn || v.function === fn || v.function === ''))?.key ?? exact?.key ?? variables.find((v) => v.name === name)?.key;
}
