// The variable history webview's model for one variable: every value it took, with the position
// and thread of each, in true order; at source level (the recording's statements are known) one
// variable of one function (`collector.base`), each row a store by a statement, in run order. No
// vscode import: the host (extension/history-panel.ts) and the webview tests build it the same way.
import { basename } from 'node:path';
import { readyStatements, type Recording, type ValueHistories } from '../../replay-engine/model/recording';
import { statementVariables, type StatementVariable } from '../../replay-engine/model/statement-histories';
import type { HistoryModel } from '../../webview-ui/protocol';

/** What the panel's picker lists: at source level one entry per function's variable, else the names. */
export interface HistoryVariables {
  names: string[];
  /** Source level: the variables by key (null: record level, the names are the histories'). */
  byKey: Map<string, StatementVariable> | null;
}

export function historyVariables(recording: Recording, histories: ValueHistories): HistoryVariables {
  const statements = readyStatements(recording);
  const split = statements ? statementVariables(histories, statements) : null;
  if (!split) return { names: [...histories.names].sort(), byKey: null };
  return { names: split.map((v) => v.key), byKey: new Map(split.map((v) => [v.key, v])) };
}

/**
 * The function a Variables view scope is a frame of, from its name (debug-adapter/variables.ts):
 * `Program (goroutine 0.2 collector · place)` is place's, `Program (goroutine 0.2 collector)` the
 * goroutine's own function; null when the name does not say.
 */
export function scopeFunction(scopeName: unknown): string | null {
  if (typeof scopeName !== 'string') return null;
  const m = /^Program \(goroutine \S+(?: ([\w.]+))?(?: · ([\w.]+))?\)$/.exec(scopeName);
  return m ? m[2] ?? m[1] ?? null : null;
}

/** The variable the panel opens on when none was asked for: the first that took a value. */
export function firstShown(variables: HistoryVariables, histories: ValueHistories): string | undefined {
  const count = (n: string) => (variables.byKey ? variables.byKey.get(n)?.stores.length ?? 0 : histories.count(n));
  return variables.names.find((n) => count(n) > 0) ?? variables.names[0];
}

export function historyModel(recording: Recording, histories: ValueHistories, name: string, variables?: HistoryVariables): HistoryModel {
  const threads = recording.timeline.threads.map((t) => ({ id: t.id, label: t.label }));
  const v = variables?.byKey?.get(name);
  if (!v || v.function === null) {
    const entries = v ? v.stores : histories.entries(name);
    return {
      name,
      threads,
      position: Uint32Array.from(entries, (e) => e.position),
      thread: Uint32Array.from(entries, (e) => e.thread),
      values: entries.map((e) => e.value),
      thisReplayOnly: Uint8Array.from(entries, (e) => (e.thisReplayOnly ? 1 : 0)),
    };
  }
  const s = v.stores;
  const statements = readyStatements(recording);
  return {
    name,
    threads,
    position: Uint32Array.from(s, (e) => e.position),
    thread: Uint32Array.from(s, (e) => e.thread),
    values: s.map((e) => e.value),
    thisReplayOnly: Uint8Array.from(s, (e) => (e.thisReplayOnly ? 1 : 0)),
    stores: {
      function: v.function,
      file: statements ? basename(statements.file) : '',
      seq: Uint32Array.from(s, (e) => e.seq),
      event: Int32Array.from(s, (e) => e.event),
      line: Uint32Array.from(s, (e) => e.line),
      column: Uint32Array.from(s, (e) => e.column),
      depth: Uint32Array.from(s, (e) => e.depth),
      statementCount: statements?.eventCount ?? 0,
    },
  };
}
