// The alignment of two recordings as compact arrays: the "hunks" where they differ (everything
// between two hunks is matched one to one, in order), and inside each hunk the pairs of records
// that took the same slot (same kind and thread) with a different value: an I/O line that read
// something else, an effect with another key. Any record maps to its counterpart on the other
// side, which is what the side-by-side view selects on a click.
import { diffSequences, type DiffOptions } from './diff-sequences';
import type { RecordIdentity } from './record-identity';
import { lowerBound } from '../model/lower-bound';

export type Side = 'a' | 'b';

export interface Counterpart {
  /** Record on the other side, or -1 when the other side has no records. */
  record: number;
  /** True when the records are aligned (matched or paired); false when `record` is only the
   * nearest aligned neighbour of a record the other side does not have. */
  exact: boolean;
}

export class Alignment {
  /** 4 entries per hunk: aStart, aEnd, bStart, bEnd (end exclusive). Ascending, non-overlapping. */
  readonly hunks: Uint32Array;
  /** Pairs inside hunks: pairA[i] ↔ pairB[i]; hunk h owns pairs pairStart[h] .. pairStart[h+1]. */
  readonly pairA: Uint32Array;
  readonly pairB: Uint32Array;
  readonly pairStart: Uint32Array;

  constructor(
    readonly lengthA: number,
    readonly lengthB: number,
    hunks: Uint32Array,
    pairA: Uint32Array,
    pairB: Uint32Array,
    pairStart: Uint32Array,
    /** False when the diff's cost bound made the alignment approximate somewhere. */
    readonly minimal: boolean,
  ) {
    this.hunks = hunks;
    this.pairA = pairA;
    this.pairB = pairB;
    this.pairStart = pairStart;
  }

  get hunkCount(): number {
    return this.hunks.length / 4;
  }

  get identical(): boolean {
    return this.hunks.length === 0;
  }

  /** Records at the start that are the same in both (= where the first hunk starts). */
  get commonPrefix(): number {
    return this.hunks.length === 0 ? this.lengthA : this.hunks[0];
  }

  /** Records at the end that are the same in both. */
  get commonSuffix(): number {
    const n = this.hunks.length;
    return n === 0 ? this.lengthA : this.lengthA - this.hunks[n - 3];
  }

  /** Number of records of each side inside hunks (not matched one to one). */
  unmatched(side: Side): number {
    let total = 0;
    const o = side === 'a' ? 0 : 2;
    for (let i = 0; i < this.hunks.length; i += 4) total += this.hunks[i + o + 1] - this.hunks[i + o];
    return total;
  }

  counterpart(side: Side, r: number): Counterpart {
    const from = side === 'a' ? 0 : 2;
    const to = 2 - from;
    const otherLength = side === 'a' ? this.lengthB : this.lengthA;
    if (otherLength === 0) return { record: -1, exact: false };
    // Last hunk starting at or before r on this side.
    const h = lowerBound(0, this.hunkCount, (i) => this.hunks[i * 4 + from] <= r) - 1;
    if (h < 0) return { record: Math.min(r, otherLength - 1), exact: true };
    const end = this.hunks[h * 4 + from + 1];
    const otherStart = this.hunks[h * 4 + to];
    const otherEnd = this.hunks[h * 4 + to + 1];
    if (r >= end) {
      // In the matched run after hunk h.
      return { record: Math.min(otherEnd + (r - end), otherLength - 1), exact: true };
    }
    const mine = side === 'a' ? this.pairA : this.pairB;
    const theirs = side === 'a' ? this.pairB : this.pairA;
    for (let i = this.pairStart[h]; i < this.pairStart[h + 1]; i++) {
      if (mine[i] === r) return { record: theirs[i], exact: true };
    }
    // Not on the other side: point at the gap (the record just before it, or the one after).
    return { record: otherStart > 0 ? otherStart - 1 : Math.min(otherStart, otherLength - 1), exact: false };
  }

  /** The hunk that holds record r of `side`, or -1 when r is matched. */
  hunkOf(side: Side, r: number): number {
    const from = side === 'a' ? 0 : 2;
    // The first hunk ending after r holds r when it starts at or before it (hunks are in order).
    const h = lowerBound(0, this.hunkCount, (i) => this.hunks[i * 4 + from + 1] <= r);
    return h < this.hunkCount && this.hunks[h * 4 + from] <= r ? h : -1;
  }
}

/** Align A and B by record identity: a diff over the records, then pairs inside each hunk. */
export function alignRecords(identity: RecordIdentity, lengthA: number, lengthB: number, options: DiffOptions = {}): Alignment {
  const diff = diffSequences(lengthA, lengthB, identity.equal, { ...options, codes: { a: identity.codeA, b: identity.codeB } });
  const hunks: number[] = [];
  const { changedA, changedB } = diff;
  let x = 0;
  let y = 0;
  while (x < lengthA || y < lengthB) {
    if (x < lengthA && y < lengthB && changedA[x] === 0 && changedB[y] === 0) {
      x++;
      y++;
      continue;
    }
    const x0 = x;
    const y0 = y;
    while (x < lengthA && changedA[x] !== 0) x++;
    while (y < lengthB && changedB[y] !== 0) y++;
    hunks.push(x0, x, y0, y);
  }

  // Pair records inside each hunk by slot, in order: the k-th record of a slot on A with the
  // k-th of that slot on B (an I/O queue is consumed in order, so this pairs the k-th read).
  const pairA: number[] = [];
  const pairB: number[] = [];
  const pairStart = new Uint32Array(hunks.length / 4 + 1);
  for (let h = 0; h < hunks.length; h += 4) {
    pairStart[h / 4] = pairA.length;
    const a0 = hunks[h];
    const a1 = hunks[h + 1];
    const b0 = hunks[h + 2];
    const b1 = hunks[h + 3];
    if (a0 === a1 || b0 === b1) continue;
    const queues = new Map<number, number[]>();
    for (let b = b0; b < b1; b++) {
      const s = identity.slot('b', b);
      const q = queues.get(s);
      if (q) q.push(b);
      else queues.set(s, [b]);
    }
    const heads = new Map<number, number>();
    for (let a = a0; a < a1; a++) {
      const s = identity.slot('a', a);
      const q = queues.get(s);
      const i = heads.get(s) ?? 0;
      if (!q || i >= q.length) continue;
      heads.set(s, i + 1);
      pairA.push(a);
      pairB.push(q[i]);
    }
  }
  pairStart[hunks.length / 4] = pairA.length;
  return new Alignment(
    lengthA,
    lengthB,
    Uint32Array.from(hunks),
    Uint32Array.from(pairA),
    Uint32Array.from(pairB),
    pairStart,
    diff.minimal,
  );
}
