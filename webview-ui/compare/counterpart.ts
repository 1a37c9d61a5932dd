// Record ↔ counterpart over the alignment arrays, in the webview (a mirror of Alignment.counterpart
// in replay-engine/compare/alignment.ts, which the webview may not import; a test checks both agree).
import type { AlignmentMsg, CompareSide } from './protocol';
import { lowerBound } from '../../replay-engine/model/lower-bound';

export interface CounterpartResult {
  /** Record on the other side, or -1 when that side is empty. */
  record: number;
  /** False when the record has no counterpart and `record` is the nearest aligned neighbour. */
  exact: boolean;
}

export function counterpartOf(al: AlignmentMsg, lengthA: number, lengthB: number, side: CompareSide, r: number): CounterpartResult {
  const from = side === 'a' ? 0 : 2;
  const to = 2 - from;
  const otherLength = side === 'a' ? lengthB : lengthA;
  if (otherLength === 0) return { record: -1, exact: false };
  const h = hunkAtOrBefore(al, from, r);
  if (h < 0) return { record: Math.min(r, otherLength - 1), exact: true };
  const end = al.hunks[h * 4 + from + 1];
  const otherStart = al.hunks[h * 4 + to];
  const otherEnd = al.hunks[h * 4 + to + 1];
  if (r >= end) return { record: Math.min(otherEnd + (r - end), otherLength - 1), exact: true };
  const mine = side === 'a' ? al.pairA : al.pairB;
  const theirs = side === 'a' ? al.pairB : al.pairA;
  for (let i = al.pairStart[h]; i < al.pairStart[h + 1]; i++) if (mine[i] === r) return { record: theirs[i], exact: true };
  return { record: otherStart > 0 ? otherStart - 1 : Math.min(otherStart, otherLength - 1), exact: false };
}

/** Last hunk whose start on this side (offset 0: A, 2: B) is <= r, or -1. */
export function hunkAtOrBefore(al: AlignmentMsg, from: number, r: number): number {
  return lowerBound(0, al.hunks.length / 4, (i) => al.hunks[i * 4 + from] <= r) - 1;
}

/** Fractional record coordinate x on one side mapped to the other (for keeping views aligned). */
export function mapCoordinate(al: AlignmentMsg, lengthA: number, lengthB: number, side: CompareSide, x: number): number {
  const whole = Math.floor(x);
  const c = counterpartOf(al, lengthA, lengthB, side, Math.max(0, whole));
  if (c.record < 0) return 0;
  return c.record + (c.exact ? x - whole : 0);
}
