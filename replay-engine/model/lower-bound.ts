// The project's one binary search. `below(i)` must hold for a prefix of [lo, hi) and not after
// it (an ascending array asked `a[i] < x`, or `a[i] <= x` for the first entry after x); the
// answer is where that prefix ends: the first i for which `below(i)` is false, hi when none.
// Every other search (last at or before, exact match, a record's line) is one call to this.
export function lowerBound(lo: number, hi: number, below: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
