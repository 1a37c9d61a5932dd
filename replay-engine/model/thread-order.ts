// The order threads are listed in (timeline lanes, the Call Stack): the main goroutine or the
// request task (`0`) first, then by id, numerically part by part (`0.2` before `0.10`). Thread
// indices stay in order of first appearance; this is only how views list them.
import type { ThreadInfo } from './timeline';

function compareIds(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (i >= pa.length) return -1;
    if (i >= pb.length) return 1;
    const na = Number(pa[i]);
    const nb = Number(pb[i]);
    const d = Number.isFinite(na) && Number.isFinite(nb) ? na - nb : pa[i] < pb[i] ? -1 : pa[i] > pb[i] ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

/** Thread indices in listing order. */
export function threadListingOrder(threads: readonly ThreadInfo[]): number[] {
  return sortForListing(threads, threads.map((_, t) => t));
}

/** Some thread indices (a list cut to a thousand, say), sorted in listing order in place. */
export function sortForListing(threads: readonly ThreadInfo[], indices: number[]): number[] {
  return indices.sort((x, y) => compareIds(threads[x].id, threads[y].id) || x - y);
}
