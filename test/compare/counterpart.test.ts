// The webview's counterpart mapping (webview-ui/compare/counterpart.ts) must agree with the
// engine's Alignment on every record of random alignments, and be an involution on aligned records.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { alignRecords } from '../../replay-engine/compare/alignment';
import { RecordIdentity } from '../../replay-engine/compare/record-identity';
import { counterpartOf } from '../../webview-ui/compare/counterpart';
import { timelineOf } from './support/timelines';

const record = fc.oneof(
  fc.constantFrom('S 0', 'S 0.1', 'S 0.2'),
  fc.tuple(fc.constantFrom('0', '0.1'), fc.constantFrom('x', 'y')).map(([g, v]) => `I ${g} ${v}`),
);

test('engine and webview counterparts agree; aligned records map back', () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 40 }), fc.array(record, { maxLength: 40 }), (la, lb) => {
      const ta = timelineOf(la);
      const tb = timelineOf(lb);
      const bytes = (t: typeof ta) => ({ pool: t.bytes, ...t.payloadBounds() });
      const identity = new RecordIdentity({ timeline: ta, bytes: bytes(ta) }, { timeline: tb, bytes: bytes(tb) }, true);
      const al = alignRecords(identity, la.length, lb.length);
      for (const [side, n] of [
        ['a', la.length],
        ['b', lb.length],
      ] as const) {
        for (let r = 0; r < n; r++) {
          const engine = al.counterpart(side, r);
          const view = counterpartOf(al, la.length, lb.length, side, r);
          assert.deepEqual(view, engine);
          if (engine.exact) {
            const back = al.counterpart(side === 'a' ? 'b' : 'a', engine.record);
            assert.equal(back.record, r);
            // Aligned records share kind and goroutine.
            const [x, y] = side === 'a' ? [r, engine.record] : [engine.record, r];
            assert.equal(la[x].split(' ').slice(0, 2).join(' '), lb[y].split(' ').slice(0, 2).join(' '));
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});
