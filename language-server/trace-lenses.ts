// Code lens targets of a trace: the first record of each goroutine block (run), and the panic's.
import type { CodeLens } from 'vscode-languageserver';
import { recordingLenses } from './code-lenses';
import type { RunFactsStore } from './run-facts';
import type { TraceIndex } from './trace-index';
import { LineKind } from './trace-line';
import { lowerBound } from '../replay-engine/model/lower-bound';
import { afterPosition, ioPlace } from '../replay-engine/model/step-words';

export function traceLenses(uri: string, index: TraceIndex, facts: RunFactsStore): CodeLens[] {
  const d = index.derived;
  // Nothing to replay in an empty or unreadable trace.
  if (d.opTotal + d.ioTotal === 0 || index.table.kind(0) !== LineKind.Magic) return [];
  const kinds = index.table.kindArray;
  const threads = index.table.threadArray;
  const title = (line: number) =>
    kinds[line] === LineKind.Sched ? `op ${d.ordinal[line]} · ${index.threadIds[threads[line]]}` : `I/O ${ioPlace(d.opsBefore[line], d.opTotal, 'op')} · ${index.threadIds[threads[line]]}`;
  // One lens per block of a goroutine's records (where the schedule switches), not one per line.
  const runs = index.runs();
  const lines = new Int32Array(runs.length / 3);
  for (let i = 0; i < lines.length; i++) lines[i] = runs[3 * i];
  const panic = facts.panic(uri);
  let panicLine = -1;
  if (panic && panic.position > 0 && panic.position <= d.opTotal) panicLine = lineOfOp(index, panic.position - 1);
  // The op it panicked after, numbered as every other view numbers ops (from 0).
  const panicTitle = panic ? `goroutine ${panic.thread}, ${afterPosition(panic.position, d.opTotal, 'op')}` : '';
  return recordingLenses(uri, panicTitle, lines, title, panicLine);
}

/** The line of schedule op k (binary search: op numbers grow with the line). */
export function lineOfOp(index: TraceIndex, k: number): number {
  const d = index.derived;
  const kinds = index.table.kindArray;
  const from = lowerBound(0, d.lines - 1, (i) => d.opsBefore[i] < k);
  for (let line = from; line < d.lines; line++) if (kinds[line] === LineKind.Sched && line !== d.cutLine && d.ordinal[line] === k) return line;
  return -1;
}
