// Comparing Tin capsules: effects are aligned by kind and key, results are compared apart.
// Capsules are written here with the TIN helper's plain sealing implementation (test/tcap/support).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { compareRecordings } from '../../replay-engine/compare/compare-recordings';
import { RecordingError } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';
import { buildBody, seal, word, FIXTURE_KEY, type EffectSpec } from '../tcap/support/seal';
import { FLAKY_RUNS, TempTraces } from './support/traces';

const temp = new TempTraces();
after(() => temp.dispose());

function capsule(name: string, effects: EffectSpec[], program = '/srv/app/bin/orders'): string {
  const file = join(temp.dir, name);
  writeFileSync(file, seal(buildBody({ program, effects }), FIXTURE_KEY));
  return file;
}

const open = (file: string) => readRecording(file, { keyHex: FIXTURE_KEY });
const redis = (...words: string[]) => words.map((w) => `${Buffer.byteLength(w)}:${w}`).join(' ') + '\n';
const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

// One request's effects: clock, two Redis reads, a task switch, an HTTP call, a file read.
function effects(opts: { now: bigint; cart: string; extraRead?: boolean; skipStat?: boolean }): EffectSpec[] {
  const list: EffectSpec[] = [
    { kind: 'tide.now@1', data: word(opts.now) },
    { kind: 'redis@1', key: redis('GET', 'cart:7'), data: bulk(opts.cart) },
    { kind: 'sched.resume@1', data: word(1) },
    { kind: 'redis@1', key: redis('GET', 'price:sku-1'), data: bulk('12.50') },
    { kind: 'quarry.stat@1', key: 'exists /etc/orders.conf', data: word(1) },
    { kind: 'sched.resume@1', data: word(0) },
    { kind: 'quarry.read@1', key: '/etc/orders.conf', data: 'limit=3\n' },
    { kind: 'redis@1', key: redis('SET', 'last', '7'), data: '+OK\r\n' },
  ];
  if (opts.skipStat) list.splice(4, 1);
  if (opts.extraRead) list.splice(6, 0, { kind: 'quarry.read@1', key: '/etc/orders.local', data: 'limit=9\n' });
  return list;
}

test('capsules: effects align by kind and key; a different result is a value difference, not a divergence', async () => {
  const a = capsule('a.tcap', effects({ now: 1000n, cart: 'sku-1' }));
  const b = capsule('b.tcap', effects({ now: 2000n, cart: 'sku-1,sku-2' }));
  const { comparison: c } = compareRecordings(await open(a), await open(b));
  assert.equal(c.format, 'tcap');
  assert.equal(c.firstDivergence, null);
  assert.equal(c.identical, false);
  assert.equal(c.alignment.hunks, 0);
  assert.equal(c.valueDifferences.total, 2); // the clock and the cart
  const [clock, cart] = c.valueDifferences.shown;
  assert.equal(clock.kind, 'tide.now@1');
  assert.equal(clock.a.op, 0);
  assert.equal(cart.kind, 'redis@1');
  assert.equal(cart.a.op, 1);
  assert.match(cart.a.value, /sku-1/);
  assert.match(cart.b.value, /sku-1,sku-2/);
  assert.equal(c.firstValueDifference?.kind, 'tide.now@1');
});

test('capsules: an effect missing and one added are found, the rest stays aligned', async () => {
  const a = capsule('c.tcap', effects({ now: 1000n, cart: 'sku-1' }));
  const b = capsule('d.tcap', effects({ now: 1000n, cart: 'sku-1', skipStat: true, extraRead: true }));
  const ra = await open(a);
  const rb = await open(b);
  const { comparison: c, alignment } = compareRecordings(ra, rb);
  // Effect 4 (the stat) is missing in B: that is where they part.
  assert.equal(c.firstDivergence?.cause, 'effect');
  assert.equal(c.firstDivergence?.a.op, 4);
  assert.equal(c.firstDivergence?.a.kind, 'quarry.stat@1');
  assert.equal(c.firstDivergence?.b.op, 4);
  assert.equal(c.firstDivergence?.b.kind, 'sched.resume@1');
  assert.equal(c.firstDivergence?.a.line, ra.timeline.lineOf(4));
  assert.equal(c.commonPrefix.records, 4);
  assert.equal(c.commonPrefix.ops, 4);
  assert.equal(c.alignment.unmatched.a, 1);
  assert.equal(c.alignment.unmatched.b, 1);
  // After the gap everything lines up again: the final SET is effect 7 in both.
  assert.deepEqual(alignment.counterpart('a', 7), { record: 7, exact: true });
  assert.deepEqual(alignment.counterpart('a', 5), { record: 4, exact: true });
  assert.equal(alignment.counterpart('b', 6).exact, false); // the added read
  assert.deepEqual(alignment.counterpart('b', 5), { record: 6, exact: true });
  assert.equal(c.valueDifferences.total, 0);
  // Tasks: effects per task in each (task 1 ran the price read and, in A, the stat).
  const task1 = c.threads.find((t) => t.id === '1');
  assert.deepEqual([task1?.a, task1?.b], [3, 2]);
});

test('capsules of different programs, and a capsule against a trace, are refused', async () => {
  const a = capsule('orders.tcap', effects({ now: 1n, cart: 'x' }), '/srv/app/bin/orders');
  const moved = capsule('orders-elsewhere.tcap', effects({ now: 1n, cart: 'x' }), '/opt/deploy/orders');
  const other = capsule('billing.tcap', effects({ now: 1n, cart: 'x' }), '/srv/app/bin/billing');
  assert.equal(compareRecordings(await open(a), await open(moved)).comparison.identical, true);
  await assert.rejects(
    async () => compareRecordings(await open(a), await open(other)),
    (e: unknown) => e instanceof RecordingError && e.code === 'not-comparable' && /orders/.test(e.message) && /billing/.test(e.message),
  );
  await assert.rejects(
    async () => compareRecordings(await open(a), await readRecording(join(FLAKY_RUNS, 'r1.mflrr'))),
    (e: unknown) => e instanceof RecordingError && e.code === 'not-comparable' && /Tin capsule/.test(e.message) && /machin trace/.test(e.message),
  );
});
