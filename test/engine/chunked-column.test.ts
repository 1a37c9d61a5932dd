// The parse's columns (model/chunked-column.ts) and the value histories' order by position
// (probe-histories.ts): what goes in comes out, in the order the views read it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkedColumn, CHUNK_BITS } from '../../replay-engine/model/chunked-column';
import { ProbeHistoriesBuilder } from '../../replay-engine/model/probe-histories';

test('a chunked column gives back every value, across chunks, two bytes each until one does not fit', () => {
  const n = (1 << CHUNK_BITS) * 2 + 1234;
  const c = new ChunkedColumn();
  for (let i = 0; i < n; i++) c.push(i % 60_000);
  assert.equal(c.length, n);
  assert.equal(c.chunkCount, 3);
  assert.ok(c.chunk(0) instanceof Uint16Array, 'small values: two bytes each');
  assert.equal(c.chunk(2).length, 1234);
  // A value that does not fit two bytes widens the whole column, the values kept.
  c.push(70_000);
  c.push(-1);
  assert.ok(c.chunk(0) instanceof Int32Array);
  for (const i of [0, 1, 59_999, 60_000, (1 << CHUNK_BITS) - 1, 1 << CHUNK_BITS, n - 1]) assert.equal(c.get(i), i % 60_000, `entry ${i}`);
  assert.equal(c.get(n), 70_000);
  assert.equal(c.get(n + 1), -1);
  // The chunks, read in step, are the values in order.
  let k = 0;
  for (let j = 0; j < c.chunkCount; j++) for (const v of c.chunk(j)) assert.equal(v, c.get(k++));
  assert.equal(k, c.length);
  c.release();
  assert.equal(c.length, 0);
  assert.equal(c.chunkCount, 0);
});

test('histories ordered by position, then thread, then as added (as a comparison sort orders them)', () => {
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  const b = new ProbeHistoriesBuilder(['x', 'y']);
  const added: Array<{ name: string; thread: number; position: number; value: string }> = [];
  for (let i = 0; i < 5000; i++) {
    const e = { name: random(2) ? 'x' : 'y', thread: random(5), position: random(300), value: String(random(1000)) };
    added.push(e);
    b.add(e.name, e.thread, e.position, e.value, undefined, false);
  }
  const h = b.finish(true);
  for (const name of ['x', 'y']) {
    const want = added
      .map((e, k) => ({ ...e, k }))
      .filter((e) => e.name === name)
      .sort((p, q) => p.position - q.position || p.thread - q.thread || p.k - q.k)
      .map((e) => `${e.position}/${e.thread}=${e.value}`);
    assert.deepEqual(h.entries(name).map((e) => `${e.position}/${e.thread}=${e.value}`), want);
    // As of a position, a thread's value is its last one placed at or before it.
    const t = 3;
    const last = added.filter((e) => e.name === name && e.thread === t && e.position <= 150).sort((p, q) => p.position - q.position).pop();
    const lastOfAll = added.filter((e) => e.name === name && e.thread === t && e.position === last?.position).pop();
    assert.equal(h.valueAt(name, t, 150), lastOfAll?.value);
  }
});
