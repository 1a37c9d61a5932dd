// The outline of trace text: one symbol per goroutine with its records as children, and folding
// ranges for runs of records by one goroutine. A 10M-record trace is capped (see the limits).
import { SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import type { RunFactsStore } from './run-facts';
import type { TraceIndex } from './trace-index';
import { LineKind } from './trace-line';
import { plural } from './trace-records';
import { ioPlace } from '../replay-engine/model/step-words';

/** Children listed per goroutine, and in all: an outline of millions of rows helps nobody. */
export const MAX_CHILDREN_PER_THREAD = 1000;
export const MAX_CHILDREN_TOTAL = 20000;
/** Goroutines listed (in order of first appearance); a trace with more says so on the last one. */
export const MAX_THREAD_SYMBOLS = 5000;

export function traceSymbols(uri: string, index: TraceIndex, facts: RunFactsStore): DocumentSymbol[] {
  const d = index.derived;
  const kinds = index.table.kindArray;
  const threads = index.table.threadArray;
  const out: DocumentSymbol[] = [];
  const first = firstRecordLine(index);
  const headerEnd = (first ?? d.lines) - 1;
  if (headerEnd >= 0 && kinds[0] === LineKind.Magic) {
    out.push({
      name: 'header',
      detail: d.header.lineOf.has(LineKind.Program) ? '' : 'no program line: replay impossible',
      kind: SymbolKind.Namespace,
      range: lineRange(0, headerEnd),
      selectionRange: lineRange(0, 0),
    });
  }
  const all: number[] = [];
  for (let t = 0; t < index.threadIds.length; t++) if (d.threadFirst[t] >= 0) all.push(t);
  const live = all.slice(0, MAX_THREAD_SYMBOLS);
  const perThread = childrenPerThread(live.length);
  const children = new Map<number, DocumentSymbol[]>(live.map((t) => [t, []]));
  for (let line = 0; line < d.lines; line++) {
    const kind = kinds[line];
    if ((kind !== LineKind.Sched && kind !== LineKind.Io) || line === d.cutLine) continue;
    const list = children.get(threads[line]);
    if (!list || list.length >= perThread) continue;
    list.push({
      name: kind === LineKind.Sched ? `op ${d.ordinal[line]}` : `I/O ${d.ordinal[line] + 1}`,
      detail: kind === LineKind.Sched ? '' : ioPlace(d.opsBefore[line], d.opTotal, 'op'),
      kind: kind === LineKind.Sched ? SymbolKind.Event : SymbolKind.Field,
      range: lineRange(line, line),
      selectionRange: lineRange(line, line),
    });
  }
  for (const t of live) {
    const id = index.threadIds[t];
    const label = facts.label(uri, id, 'trace');
    const records = d.threadOps[t] + d.threadIos[t];
    const listed = children.get(t)!;
    out.push({
      name: `goroutine ${id}${label ? ` ${label}` : ''}`,
      detail: `${plural(d.threadOps[t], 'op')}, ${plural(d.threadIos[t], 'I/O record')}${listed.length < records ? ` (first ${listed.length} listed)` : ''}${t === live[live.length - 1] && all.length > live.length ? ` · ${all.length - live.length} more goroutines not listed` : ''}`,
      kind: SymbolKind.Class,
      range: lineRange(d.threadFirst[t], d.threadLast[t]),
      selectionRange: lineRange(d.threadFirst[t], d.threadFirst[t]),
      children: listed,
    });
  }
  return out;
}

/** Children per thread so the whole outline stays under MAX_CHILDREN_TOTAL. */
export function childrenPerThread(threads: number): number {
  return Math.max(1, Math.min(MAX_CHILDREN_PER_THREAD, Math.floor(MAX_CHILDREN_TOTAL / Math.max(1, threads))));
}

function firstRecordLine(index: TraceIndex): number | undefined {
  const d = index.derived;
  let first: number | undefined;
  for (let t = 0; t < index.threadIds.length; t++) if (d.threadFirst[t] >= 0 && (first === undefined || d.threadFirst[t] < first)) first = d.threadFirst[t];
  return first;
}

function lineRange(start: number, end: number) {
  return { start: { line: start, character: 0 }, end: { line: end, character: 0x7fffffff } };
}

/**
 * Folding: the header, and each run of two or more consecutive records by one goroutine. When a
 * client limits the count, the longest runs are kept.
 */
export function traceFoldingRanges(index: TraceIndex, limit: number): FoldingRange[] {
  const out: FoldingRange[] = [];
  const first = firstRecordLine(index);
  if (first !== undefined && first > 1) out.push({ startLine: 0, endLine: first - 1, kind: 'imports' });
  const runs = index.runs();
  for (const range of foldRuns(runs, limit - out.length, (i) => `goroutine ${index.threadIds[runs[i + 2]]}: ${runs[i + 1] - runs[i] + 1} records`)) out.push(range); // no spread: the client sets the limit
  return out;
}

/**
 * Folding ranges for the runs ([start, end, thread] triples) of two or more lines, at most
 * `limit`, the longest kept, in document order. Linear: a length histogram finds the cut, and
 * ranges are made only for the runs kept (a random 10M-op trace has millions of runs).
 */
export function foldRuns(runs: ArrayLike<number>, limit: number, collapsedText: (i: number) => string): FoldingRange[] {
  if (limit <= 0) return [];
  const CAP = 1 << 16;
  const histogram = new Uint32Array(CAP + 1);
  let total = 0;
  for (let i = 0; i < runs.length; i += 3) {
    const length = runs[i + 1] - runs[i];
    if (length > 0) {
      histogram[Math.min(length, CAP)]++;
      total++;
    }
  }
  // Keep every run longer than `cut`, and the first `atCut` runs of length `cut`.
  let cut = 1;
  let atCut = Infinity;
  if (total > limit) {
    let kept = 0;
    for (cut = CAP; cut > 1 && kept + histogram[cut] <= limit; cut--) kept += histogram[cut];
    atCut = limit - kept;
  }
  const out: FoldingRange[] = [];
  for (let i = 0; i < runs.length; i += 3) {
    const length = Math.min(runs[i + 1] - runs[i], CAP);
    if (length < cut || length <= 0) continue;
    if (length === cut) {
      if (atCut <= 0) continue;
      atCut--;
    }
    out.push({ startLine: runs[i], endLine: runs[i + 1], collapsedText: collapsedText(i) });
  }
  return out;
}
