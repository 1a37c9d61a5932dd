// The timeline's lanes in listing order (main first, then by id): the webview draws lane L for
// thread index L, so the host sends the threads reordered and each record's thread as its lane.
import type { Timeline } from '../replay-engine/model/timeline';
import { threadListingOrder } from '../replay-engine/model/thread-order';
import type { ThreadMsg } from '../webview-ui/protocol';

export interface Lanes {
  threads: ThreadMsg[];
  /** Lane of each thread index. */
  laneOf: number[];
  /** Lane of each record (the timeline's own column when the order is already the listing order). */
  recordLane: Timeline['thread'];
}

export function laneOrder(tl: Timeline): Lanes {
  const order = threadListingOrder(tl.threads);
  const laneOf: number[] = new Array(order.length);
  order.forEach((t, lane) => (laneOf[t] = lane));
  const threads = order.map((t) => ({ id: tl.threads[t].id, label: tl.threads[t].label }));
  if (order.every((t, lane) => t === lane)) return { threads, laneOf, recordLane: tl.thread };
  const src = tl.thread;
  const recordLane = new (src.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor)(src.length);
  const map = Uint32Array.from(laneOf);
  for (let r = 0; r < src.length; r++) recordLane[r] = map[src[r]];
  return { threads, laneOf, recordLane };
}
