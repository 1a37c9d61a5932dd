// The scan's warm-up body is a valid body (else the warm-up would only run the error path), and
// the warm-up never throws.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseBody } from '../../replay-engine/tcap/body';
import { madeUpBody, warmUpScan } from '../../replay-engine/tcap/scan-warm-up';

it('the warm-up body parses: 3000 clock reads and task switches on 3 tasks', () => {
  const parsed = parseBody(madeUpBody(), 'warm-up', 0);
  assert.equal(parsed.effects.count, 3000);
  assert.deepEqual(parsed.kinds, ['sched.resume@1', 'tide.now@1']);
  assert.deepEqual(parsed.threads.map((t) => t.id), ['0', '1', '2']);
  assert.equal(parsed.counts.byKind[0], 750);
  warmUpScan();
  warmUpScan();
});
