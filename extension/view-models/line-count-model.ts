// What the editor shows beside each line of the program when hit counts are on (issue 30, point
// 2), without vscode: the count after each line that ran (`× 10`, marked when some arrivals ran in
// this replay only), a hover per goroutine (and per function when a line holds several), and the
// lines no goroutine reached, dimmed "not reached in this run".
import type { LineCount, LineCounts } from '../../replay-engine/model/line-counts';

export interface LineCountMark {
  /** 0-based line of the editor. */
  line: number;
  text: string;
  hover: string;
}

export interface LineCountModel {
  marks: LineCountMark[];
  /** 0-based lines to dim. */
  notReached: number[];
}

export const NOT_REACHED = 'not reached in this run';

export function lineCountModel(c: LineCounts): LineCountModel {
  const marks = c.lines.map((l): LineCountMark => {
    const per = Object.entries(l.byGoroutine).map(([g, n]) => `- goroutine ${g}: ${n}`);
    const fns = l.functions.length > 1 ? `\n\n${functionsPart(l)}` : '';
    const unsure = l.thisReplayOnly ? `\n\n${l.thisReplayOnly} of them this replay only (machin may not run them before the end in another replay)` : '';
    return {
      line: l.line - 1,
      text: ` × ${l.hits}${l.thisReplayOnly ? '*' : ''}`,
      hover: `**Line ${l.line} ran ${l.hits} time${l.hits === 1 ? '' : 's'}** in this run\n\nper goroutine:\n\n${per.join('\n')}${fns}${unsure}`,
    };
  });
  return { marks, notReached: c.notReached.map((l) => l - 1) };
}

/** Per function counts of a line holding several functions (a one-line function and its caller). */
function functionsPart(l: LineCount): string {
  return `per function:\n\n${l.functions.map((f) => `- ${f}: ${l.byFunction[f] ?? 0}`).join('\n')}`;
}
