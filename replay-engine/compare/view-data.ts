// What a side-by-side view needs from a comparison besides the two timelines: the alignment's
// arrays, the records where the runs part, and the words above the view. Plain data, so the
// extension host can post it to the compare webview (webview-ui/compare/protocol.ts CompareModel).
import type { Alignment } from './alignment';
import type { Comparison } from './compare-recordings';
import { detailLines, divergenceSentence } from './format-comparison';

export interface CompareViewData {
  alignment: { hunks: Uint32Array; pairA: Uint32Array; pairB: Uint32Array; pairStart: Uint32Array };
  divergence: { a: number | null; b: number | null } | null;
  headline: string;
  details: string[];
}

export function compareViewData(comparison: Comparison, alignment: Alignment): CompareViewData {
  const d = comparison.firstDivergence;
  return {
    alignment: { hunks: alignment.hunks, pairA: alignment.pairA, pairB: alignment.pairB, pairStart: alignment.pairStart },
    divergence: d ? { a: d.a.record, b: d.b.record } : null,
    headline: divergenceSentence(comparison),
    details: detailLines(comparison),
  };
}
