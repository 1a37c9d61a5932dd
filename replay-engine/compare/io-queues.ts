// machin's I/O lines form one queue per goroutine, consumed in order: the k-th read of goroutine
// G is the same read in both runs as long as G's code took the same path. So besides the record
// alignment, each goroutine's queue is compared read by read; the first read that differs (a
// select that took another case, a clock, a socket) is often the clearest answer to "why".
import type { Recording } from '../model/recording';

export interface QueueRead {
  /** Record index of the read, its op (steps before it) and line. */
  record: number;
  op: number;
  line: number;
  value: string;
}

export interface IoQueueDifference {
  thread: string;
  threadLabel: string;
  /** Reads of this goroutine in each run. */
  reads: { a: number; b: number };
  /** 0-based index of the first read that differs (or that only one run made). */
  read: number;
  a: QueueRead | null;
  b: QueueRead | null;
}

/** Per goroutine whose queue differs, its first differing read; ordered by where it happens in A. */
export function ioQueueDifferences(a: Recording, b: Recording, valueText: { a: (r: number) => string; b: (r: number) => string }): IoQueueDifference[] {
  // Only a format with reads beside its steps (a trace's `I` lines) has I/O queues.
  if (a.timeline.traits.otherRecord === null || b.timeline.traits.otherRecord === null) return [];
  const qa = queues(a);
  const qb = queues(b);
  const out: IoQueueDifference[] = [];
  for (const id of new Set([...qa.keys(), ...qb.keys()])) {
    const ra = qa.get(id) ?? [];
    const rb = qb.get(id) ?? [];
    const n = Math.max(ra.length, rb.length);
    let k = 0;
    while (k < n && k < ra.length && k < rb.length && samePayload(a, ra[k], b, rb[k])) k++;
    if (k === n) continue;
    const t = a.timeline.threadIndex(id);
    out.push({
      thread: id,
      threadLabel: t >= 0 ? a.timeline.threads[t].label : (b.timeline.threads[b.timeline.threadIndex(id)]?.label ?? ''),
      reads: { a: ra.length, b: rb.length },
      read: k,
      a: k < ra.length ? readAt(a, ra[k], valueText.a) : null,
      b: k < rb.length ? readAt(b, rb[k], valueText.b) : null,
    });
  }
  const at = (d: IoQueueDifference) => d.a?.record ?? Infinity;
  return out.sort((x, y) => at(x) - at(y) || (x.b?.record ?? Infinity) - (y.b?.record ?? Infinity));
}

/** The non-step records (I/O lines) of each goroutine, in order. */
function queues(rec: Recording): Map<string, number[]> {
  const tl = rec.timeline;
  const byThread: number[][] = tl.threads.map(() => []);
  const thread = tl.thread;
  for (let r = 0; r < tl.recordCount; r++) if (!tl.isStep(r)) byThread[thread[r]].push(r);
  return new Map(tl.threads.map((t, i) => [t.id, byThread[i]]));
}

function samePayload(a: Recording, x: number, b: Recording, y: number): boolean {
  const pa = a.timeline.payload(x);
  const pb = b.timeline.payload(y);
  if (pa.length !== pb.length) return false;
  for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return false;
  return true;
}

function readAt(rec: Recording, r: number, valueText: (r: number) => string): QueueRead {
  const tl = rec.timeline;
  return { record: r, op: tl.stepsBefore(r), line: tl.lineOf(r), value: valueText(r) };
}
