// Code lens targets of a trace: every record of a small trace, run starts of a large one.
import type { CodeLens } from 'vscode-languageserver';
import { MAX_RECORD_LENSES, recordingLenses } from './code-lenses';
import type { RunFactsStore } from './run-facts';
import type { TraceIndex } from './trace-index';
import { LineKind } from './trace-line';
import { lowerBound } from '../replay-engine/model/lower-bound';

export function traceLenses(uri: string, index: TraceIndex, facts: RunFactsStore): CodeLens[] {
  const d = index.derived;
  // Nothing to replay in an empty or unreadable trace.
  if (d.opTotal + d.ioTotal === 0 || index.table.kind(0) !== LineKind.Magic) return [];
  const kinds = index.table.kindArray;
  const threads = index.table.threadArray;
  const title = (line: number) =>
    kinds[line] === LineKind.Sched ? `op ${d.ordinal[line]} · ${index.threadIds[threads[line]]}` : `I/O before op ${d.opsBefore[line]} · ${index.threadIds[threads[line]]}`;
  let lines: ArrayLike<number>;
  if (d.opTotal + d.ioTotal <= MAX_RECORD_LENSES) {
    const every: number[] = [];
    for (let line = 0; line < d.lines; line++) {
      if ((kinds[line] === LineKind.Sched || kinds[line] === LineKind.Io) && line !== d.cutLine) every.push(line);
    }
    lines = every;
  } else {
    const runs = index.runs();
    const starts = new Int32Array(runs.length / 3);
    for (let i = 0; i < starts.length; i++) starts[i] = runs[3 * i];
    lines = starts;
  }
  const panic = facts.panic(uri);
  let panicLine = -1;
  if (panic && panic.position > 0 && panic.position <= d.opTotal) panicLine = lineOfOp(index, panic.position - 1);
  const panicTitle = panic ? `goroutine ${panic.thread}, op ${panic.position}/${d.opTotal}` : '';
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
