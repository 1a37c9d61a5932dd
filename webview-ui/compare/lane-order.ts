// Run B's lanes in run A's goroutine (task) order, so the same goroutine sits at the same height
// in both views; goroutines only B has come last, in B's order. Returns B's model with its
// threads reordered and its per-record thread indices remapped (the records are unchanged).
import type { TimelineModel } from '../protocol';

export function withLanesOf(a: TimelineModel, b: TimelineModel): TimelineModel {
  const rank = new Map(a.threads.map((t, i) => [t.id, i]));
  const order = b.threads
    .map((t, i) => ({ i, key: rank.get(t.id) ?? a.threads.length + i }))
    .sort((x, y) => x.key - y.key)
    .map((x) => x.i);
  if (order.every((old, lane) => old === lane)) return b;
  const laneOf = new Uint32Array(b.threads.length);
  order.forEach((old, lane) => (laneOf[old] = lane));
  const src = b.recordThread;
  const thread = b.threads.length <= 0xffff ? new Uint16Array(src.length) : new Uint32Array(src.length);
  for (let r = 0; r < src.length; r++) thread[r] = laneOf[src[r]];
  return {
    ...b,
    threads: order.map((old) => b.threads[old]),
    recordThread: thread,
    panic: b.panic ? { ...b.panic, thread: laneOf[b.panic.thread] } : null,
  };
}
