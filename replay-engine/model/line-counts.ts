// How often each line of the program ran (issue 30, point 2), as every view shows it: the editor's
// counts beside each line, `frozen-run hits`, the MCP `line_hits` tool. Built from the statement
// index's one-pass count (SourceStatements.lineHitCounts); lines where a statement starts that no
// goroutine reached are listed apart ("not reached in this run").
import type { SourceStatements } from './source-level';
import { threadListingOrder } from './thread-order';
import type { Timeline } from './timeline';

export interface LineCount {
  line: number;
  /** Arrivals at the line over all goroutines. */
  hits: number;
  /** Of those, arrivals of this replay only (machin may not print them in another replay). */
  thisReplayOnly: number;
  /** Goroutine id to its arrivals (only goroutines that reached the line). */
  byGoroutine: Record<string, number>;
  /** The functions with a statement on the line (several for one-line functions). */
  functions: string[];
  /** Function name to its arrivals at the line (only functions that arrived; several for one-line functions). */
  byFunction: Record<string, number>;
}

export interface LineCounts {
  /** The program the lines are in. */
  file: string;
  /** Lines that ran, ascending. */
  lines: LineCount[];
  /** Lines where a statement starts that no goroutine reached, ascending. */
  notReached: number[];
}

/** Answers already built, per statement index (the counts never change for an index). */
const built = new WeakMap<SourceStatements, LineCounts>();

export function lineCounts(statements: SourceStatements, tl: Timeline): LineCounts {
  const known = built.get(statements);
  if (known) return known;
  const answer = countLines(statements, tl);
  built.set(statements, answer);
  return answer;
}

function countLines(statements: SourceStatements, tl: Timeline): LineCounts {
  const c = statements.lineHitCounts();
  const lines: LineCount[] = [];
  const notReached: number[] = [];
  const order = threadListingOrder(tl.threads).filter((t) => t < c.byThread.length);
  c.lines.forEach((line, k) => {
    let hits = 0;
    let unsure = 0;
    const byGoroutine: Record<string, number> = {};
    // Goroutines in listing order (0, 0.1, 0.1.1, 0.2), the same on every launch.
    order.forEach((t) => {
      const counts = c.byThread[t];
      const n = counts[k] ?? 0;
      if (n === 0) return;
      hits += n;
      unsure += c.thisReplayOnly[t].get(k) ?? 0;
      byGoroutine[tl.threads[t]?.id ?? String(t)] = n;
    });
    if (hits === 0) notReached.push(line);
    else lines.push({ line, hits, thisReplayOnly: unsure, byGoroutine, functions: [...c.functions[k]], byFunction: Object.fromEntries(c.byFunction[k]) });
  });
  return { file: statements.file, lines, notReached };
}
