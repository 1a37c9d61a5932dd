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
  const out: StatementVariable[] = [];
  let anyEvent = false;
  for (const name of histories.names) {
    const split = variablesNamed(histories, statements, name);
    anyEvent ||= split !== null;
    out.push(...(split ?? [{ key: name, name, function: null, stores: histories.entries(name).map((e) => plainStore(e)) }]));
  }
  if (!anyEvent) return null;
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The variables one printed name stands for, one per function, keys sorted, stores in run order
 * (a watch's or the CLI's `history(lo)` splits only that name). Null when its values carry no
 * statements (record level) or it has none.
 */
export function variablesNamed(histories: ValueHistories, statements: SourceStatements, name: string): StatementVariable[] | null {
  const byKey = new Map<string, StatementVariable>();
  let anyEvent = false;
  for (const entry of histories.entries(name)) {
    const store = storeOf(entry, statements);
    anyEvent ||= store !== null;
    const fn = store ? statements.ownerOf(entry.thread, name, store.stored) : null;
    const key = fn ? `${fn}.${name}` : name;
    let v = byKey.get(key);
    if (!v) byKey.set(key, (v = { key, name, function: fn, stores: [] }));
    const row = store?.row ?? plainStore(entry);
    if (entry.thisReplayOnly) row.thisReplayOnly = true;
    v.stores.push(row);
  }
  if (!anyEvent) return null;
  const out = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const v of out) if (v.function !== null) v.stores.sort((a, b) => a.seq - b.seq);
  return out;
}

function plainStore(entry: HistoryEntry): StatementStore {
  return { thread: entry.thread, value: entry.value, position: entry.position, event: -1, seq: 0, line: 0, column: 0, depth: 0, ...(entry.thisReplayOnly ? { thisReplayOnly: true as const } : {}) };
}

/** What `fn.name` or a bare name picks among a name's variables. */
export type PickedVariable =
  | { variable: StatementVariable }
  /** A bare name several functions bind, asked with no frame to choose: the choices, by key. */
  | { ambiguous: StatementVariable[] }
  /** `fn.name` (or the frame's function) names none of them: the ones there are. */
  | { none: StatementVariable[] };

/**
 * `gather.lo` and `main.func1.x` name a function; a bare program name never has a dot. A name the
 * histories have as it is (a capsule's `request.method`, `redis GET a.b`) is that name: pass
 * `histories` so such names are never split.
 */
export function splitAsked(asked: string, histories?: ValueHistories): { name: string; fn: string | null } {
  if (histories && histories.names.includes(asked)) return { name: asked, fn: null };
  const dot = asked.lastIndexOf('.');
  return dot > 0 ? { name: asked.slice(dot + 1), fn: asked.slice(0, dot) } : { name: asked, fn: null };
}

/**
 * The variable `asked` means: `fn.name` exactly; a bare name in a frame of `frameFn` that
 * function's (or the global of that name); a bare name with no frame the one variable of that
 * name, else ambiguous (never the stores of several functions mixed).
 */
export function pickVariable(variables: readonly StatementVariable[], asked: string, frameFn?: string | null): PickedVariable {
  const { name, fn } = splitAsked(asked);
  const named = variables.filter((v) => v.name === name);
  if (fn !== null) {
    const v = named.find((x) => x.function === fn);
    return v ? { variable: v } : { none: named };
  }
  if (frameFn) {
    const v = named.find((x) => x.function === frameFn) ?? named.find((x) => x.function === '');
    return v ? { variable: v } : { none: named };
  }
  if (named.length === 1) return { variable: named[0] };
  return named.length ? { ambiguous: named } : { none: [] };
}

/** The function whose variable an entry of `name` stored (null: it carries no statement). */
export function ownerOfEntry(entry: HistoryEntry, s: SourceStatements, name: string): string | null {
  const store = storeOf(entry, s);
  return store ? s.ownerOf(entry.thread, name, store.stored) : null;
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
