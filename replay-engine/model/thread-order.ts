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
  // Every id a path of plain numbers (machin's ids, Tin's tasks): each id is read into numbers
  // once, and the sort compares numbers, instead of splitting both ids in every comparison
  // (750,000 goroutines: about 15 M comparisons, 20 s that way).
  const paths = numericPaths(threads);
  if (!paths) return sortForListing(threads, threads.map((_, t) => t));
  const { start, parts } = paths;
  const order = new Uint32Array(threads.length);
  for (let t = 0; t < order.length; t++) order[t] = t;
  order.sort((x, y) => {
    let a = start[x];
    let b = start[y];
    const aEnd = start[x + 1];
    const bEnd = start[y + 1];
    for (;;) {
      if (a === aEnd) return b === bEnd ? x - y : -1;
      if (b === bEnd) return 1;
      const d = parts[a] - parts[b];
      if (d !== 0) return d;
      a++;
      b++;
    }
  });
  return Array.from(order);
}

/**
 * The ids' parts as numbers, back to back (thread t's are parts[start[t] .. start[t + 1])); null
 * when some id is not such a path (a part empty, not digits, with a leading zero, or over 15
 * digits, where Number would not be exact): compareIds decides those.
 */
function numericPaths(threads: readonly ThreadInfo[]): { start: Uint32Array; parts: Float64Array } | null {
  const n = threads.length;
  const start = new Uint32Array(n + 1);
  let total = 0;
  for (let t = 0; t < n; t++) {
    const id = threads[t].id;
    let count = 1;
    for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) === DOT) count++;
    total += count;
    start[t + 1] = total;
  }
  const parts = new Float64Array(total);
  let o = 0;
  for (let t = 0; t < n; t++) {
    const id = threads[t].id;
    let value = 0;
    let digits = 0;
    let leadingZero = false;
    for (let i = 0; i <= id.length; i++) {
      const c = i < id.length ? id.charCodeAt(i) : DOT;
      if (c === DOT) {
        if (digits === 0 || digits > 15 || (leadingZero && digits > 1)) return null;
        parts[o++] = value;
        value = 0;
        digits = 0;
      } else {
        const d = c - ZERO;
        if (d < 0 || d > 9) return null;
        if (digits === 0) leadingZero = d === 0;
        value = value * 10 + d;
        digits++;
      }
    }
  }
  return { start, parts };
}

const DOT = 0x2e;
const ZERO = 0x30;

/** Some thread indices (a list cut to a thousand, say), sorted in listing order in place. */
export function sortForListing(threads: readonly ThreadInfo[], indices: number[]): number[] {
  return indices.sort((x, y) => compareIds(threads[x].id, threads[y].id) || x - y);
}
