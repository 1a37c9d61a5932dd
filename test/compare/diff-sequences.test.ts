// The linear-space diff against a textbook quadratic LCS on small random sequences: the unchanged
// elements must pair up equal and in order, and (when minimal) be a longest common subsequence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { diffSequences } from '../../replay-engine/compare/diff-sequences';
import { lcsLength } from './support/traces';


/** The kept elements of each side, in order; they must be the same sequence. */
function kept(seq: number[], changed: Uint8Array): number[] {
  return seq.filter((_, i) => changed[i] === 0);
}

const seq = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 60 });

test('unchanged elements form a longest common subsequence', () => {
  fc.assert(
    fc.property(seq, seq, (a, b) => {
      const d = diffSequences(a.length, b.length, (x, y) => a[x] === b[y]);
      const ka = kept(a, d.changedA);
      assert.deepEqual(ka, kept(b, d.changedB));
      assert.equal(ka.length, lcsLength(a, b));
      assert.equal(d.minimal, true);
    }),
    { numRuns: 400 },
  );
});

test('with a tiny cost bound the result is still a valid alignment', () => {
  fc.assert(
    fc.property(seq, seq, (a, b) => {
      const d = diffSequences(a.length, b.length, (x, y) => a[x] === b[y], { tooExpensive: 1 });
      assert.deepEqual(kept(a, d.changedA), kept(b, d.changedB));
      assert.ok(kept(a, d.changedA).length <= lcsLength(a, b));
    }),
    { numRuns: 400 },
  );
});

test('insertions, deletions and substitutions in a long sequence are found exactly', () => {
  const a = Array.from({ length: 20000 }, (_, i) => (i * 7919) % 101);
  const b = a.slice();
  b.splice(15000, 0, 500, 501); // insertion
  b.splice(9000, 3); // deletion
  b[100] = 999; // substitution
  const d = diffSequences(a.length, b.length, (x, y) => a[x] === b[y]);
  assert.deepEqual([...d.changedA.keys()].filter((i) => d.changedA[i]), [100, 9000, 9001, 9002]);
  assert.deepEqual([...d.changedB.keys()].filter((i) => d.changedB[i]), [100, 14997, 14998]);
});

test('empty sides', () => {
  assert.deepEqual([...diffSequences(0, 3, () => false).changedB], [1, 1, 1]);
  assert.deepEqual([...diffSequences(2, 0, () => false).changedA], [1, 1]);
  assert.equal(diffSequences(0, 0, () => false).changedA.length, 0);
});
