// The one binary search every view and the engine use: against a linear scan on random sorted
// arrays, for the three questions asked of it (first >= x, first > x, an exact match).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lowerBound } from '../../replay-engine/model/lower-bound';

const sorted = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 40 }).map((a) => Uint32Array.from(a.sort((x, y) => x - y)));

test('lowerBound finds where the prefix ends, as a linear scan does, within any sub-range', () => {
  fc.assert(
    fc.property(sorted, fc.integer({ min: -1, max: 52 }), fc.nat(), fc.nat(), (a, x, p, q) => {
      const lo = Math.min(p, q) % (a.length + 1);
      const hi = Math.max(lo, Math.max(p, q) % (a.length + 1));
      const scan = (below: (i: number) => boolean) => {
        let i = lo;
        while (i < hi && below(i)) i++;
        return i;
      };
      assert.equal(lowerBound(lo, hi, (i) => a[i] < x), scan((i) => a[i] < x));
      assert.equal(lowerBound(lo, hi, (i) => a[i] <= x), scan((i) => a[i] <= x));
    }),
    { numRuns: 500 },
  );
});

test('an empty or inverted range gives its start', () => {
  assert.equal(lowerBound(3, 3, () => true), 3);
  assert.equal(lowerBound(0, -1, () => true), 0);
});
