// Threads are listed main first, then by id part by part (`0.2` before `0.10`). The listing order
// of a whole timeline is sorted by precomputed keys; it must be the order the comparator gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sortForListing, threadListingOrder } from '../../replay-engine/model/thread-order';

describe('thread listing order', () => {
  it('the numeric sort gives the comparator order, for numeric paths and any other ids', () => {
    const part = fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.integer({ min: 0, max: 2 ** 40 }).map(String), fc.constantFrom('01', 'x', ''));
    const id = fc.array(part, { minLength: 1, maxLength: 5 }).map((ps) => ps.join('.'));
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 60 }), (ids) => {
        const threads = ids.map((i) => ({ id: i, label: '' }));
        assert.deepEqual(threadListingOrder(threads), sortForListing(threads, threads.map((_, t) => t)));
      }),
      { numRuns: 2000 },
    );
  });

  it('lists 0 first, parents before children, numbers by value', () => {
    const ids = ['0.10', '0.2.1', '0', '0.2', '0.1', '0.9.3', '0.1.10', '0.1.9'];
    const order = threadListingOrder(ids.map((id) => ({ id, label: '' })));
    assert.deepEqual(order.map((t) => ids[t]), ['0', '0.1', '0.1.9', '0.1.10', '0.2', '0.2.1', '0.9.3', '0.10']);
  });
});
