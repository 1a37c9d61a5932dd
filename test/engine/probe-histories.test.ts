// The value histories' columns (model/probe-histories.ts): entries grouped by name and thread in
// their own chunks, put in place by one swap each. What goes in comes out, in the order the views
// read it, across chunk boundaries, against a plain reading of the same entries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_BITS } from '../../replay-engine/model/chunked-column';
import { ProbeHistories, ProbeHistoriesBuilder, type NamedHistoryEntry } from '../../replay-engine/model/probe-histories';

function random(seed: number) {
  return (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
}

test('over several chunks, three names on many threads: each as a plain sort gives, every value text kept', () => {
  const r = random(11);
  const n = (1 << CHUNK_BITS) * 2 + 777;
  const b = new ProbeHistoriesBuilder(['never']);
  const added: Array<NamedHistoryEntry & { k: number }> = [];
  // Each thread's own positions never go back, as machin prints them; threads interleave.
  const clock = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const thread = r(20) === 0 ? 100 + r(30) : r(4);
    const position = (clock.get(thread) ?? 0) + r(3);
    clock.set(thread, position);
    const name = ['x', 'y', 'z'][r(3)];
    const value = r(10) === 0 ? `text ${r(50)}` : String(r(100_000) - 50_000);
    const event = thread >= 100 ? undefined : k; // (events never go back within a thread; none for a thread placed by its ops)
    const thisReplayOnly = r(7) === 0 ? true : undefined;
    added.push({ name, thread, position, value, event, thisReplayOnly, k });
    b.add(name, thread, position, value, event, thisReplayOnly === true);
  }
  const h = b.finish(true);
  assert.deepEqual(h.names, ['never', ...new Set(added.map((e) => e.name))]);
  assert.equal(h.count('never'), 0);
  const show = (e: { thread: number; position: number; value: string; event?: number; thisReplayOnly?: boolean }) =>
    `${e.position}/${e.thread}=${e.value}${e.event === undefined ? '' : ` #${e.event}`}${e.thisReplayOnly ? ' only' : ''}`;
  for (const name of ['x', 'y', 'z']) {
    const mine = added.filter((e) => e.name === name);
    const want = [...mine].sort((p, q) => p.position - q.position || p.thread - q.thread || p.k - q.k);
    assert.equal(h.count(name), mine.length);
    assert.deepEqual(h.entries(name).map(show), want.map(show), name);
    // the threads in the order each first took a value of the name
    assert.deepEqual(h.threadsOf(name), [...new Set(mine.map((e) => e.thread))]);
    for (const thread of [0, 3, 100, 129]) {
      const own = mine.filter((e) => e.thread === thread);
      for (const p of [0, 5_000, 40_000, 1e9]) {
        const last = own.filter((e) => e.position <= p).pop();
        assert.equal(h.valueAt(name, thread, p), last?.value, `${name} on ${thread} at ${p}`);
        assert.equal(h.entryAt(name, thread, p)?.thisReplayOnly, last?.thisReplayOnly);
      }
      // At an event: what the thread's earlier statements stored (the cursor at the event's own position).
      const withEvents = own.filter((e) => e.event !== undefined);
      if (own.length > 0 && own[0].event !== undefined && withEvents.length > 10) {
        const e = withEvents[Math.floor(withEvents.length / 2)];
        const before = own.filter((x) => x.event !== undefined && x.event < e.event!).pop();
        assert.equal(h.valueAtEvent(name, thread, e.event!, e.position, e.position), before?.value, `${name} on ${thread} before event ${e.event}`);
      }
    }
  }
});

test('entries added out of position order and built as added (a capsule\'s, ProbeHistories.of) keep the order added', () => {
  const entries: NamedHistoryEntry[] = [
    { name: 'a', thread: 1, position: 5, value: 'one' },
    { name: 'b', thread: 0, position: 1, value: '1' },
    { name: 'a', thread: 0, position: 2, value: 'two' },
    { name: 'b', thread: 1, position: 3, value: '2' },
    { name: 'a', thread: 1, position: 7, value: 'three' },
  ];
  const h = ProbeHistories.of(entries, ['a', 'b', 'c']);
  assert.deepEqual(h.entries('a').map((e) => `${e.thread}:${e.position}:${e.value}`), ['1:5:one', '0:2:two', '1:7:three']);
  assert.deepEqual(h.entries('b').map((e) => `${e.thread}:${e.position}:${e.value}`), ['0:1:1', '1:3:2']);
  assert.deepEqual(h.names, ['a', 'b', 'c']);
  assert.equal(h.valueAt('a', 1, 6), 'one');
  assert.equal(h.valueAt('a', 0, 1), undefined);
});
