// The total order of a statement index's events (statement-index.ts): by placed position, then
// thread rank (parents before children), then the thread's own order. A global id (base[t] + i)
// names event i of thread t; a seq is an event's place in the order.
//
// Two ways to hold it, one answer:
// - merged (the usual case: at most 16 threads with events, each placed in its own order, since
//   its own ops done never go back): nothing per event. Each thread's events are sorted by
//   position already, so where an event falls is a binary search in each thread, and a walk in
//   order is a merge of the threads. At the launch's end this saves writing an array of 4 bytes an
//   event (8 MB, ~30 ms on this kind of host for a 600k-op trace: memory first written costs ~3
//   ms a MB) and the merge that fills it. Asked for the event at a seq many times over (a log
//   point's every arrival), it makes that list then, once;
// - listed (many threads, or a thread whose own-op count went back): the ids by seq, made by a
//   counting sort by position.
import { lowerBound } from '../../model/lower-bound';

/** What the order reads of a thread's events. */
export interface OrderedThread {
  /** How many of the thread's own ops had completed before each event. */
  ownOps: Uint32Array;
  /** Step numbers of the thread's own ops, ascending. */
  ownOpIndices: Uint32Array;
  /** No event is placed before this position. */
  floor: number;
}

/** The thread whose events hold global id `id` (base[t] <= id < base[t + 1]). */
export function threadOfId(base: Uint32Array, id: number): number {
  return lowerBound(0, base.length - 1, (t) => base[t + 1] <= id);
}

/** The position event i is placed at: right after the thread's ownOps[i]-th own op (its floor before its first). */
export function anchorOf(g: OrderedThread, i: number): number {
  const k = g.ownOps[i];
  const own = k === 0 ? 0 : g.ownOpIndices[k - 1] + 1;
  return own > g.floor ? own : g.floor;
}

export interface EventOrder {
  /** The global id at seq. */
  idAt(seq: number): number;
  /** The seq of event `event` of thread t (its global id `id`, placed at `a`). */
  seqOf(t: number, event: number, id: number, a: number): number;
  /** How many events are placed before `position`. */
  countBefore(position: number): number;
  /** Every event in order, in runs: ids from, from + 1, ..., to - 1 have seqs seq, seq + 1, ... */
  forEachRun(visit: (from: number, to: number, seq: number) => void): void;
  /** Bytes it holds (the benchmark's bytes a statement event). */
  readonly byteLength: number;
}

/** At most this many threads with events are merged; more are listed (a scan of them all per step of a walk). */
const MERGED_THREADS = 16;

/**
 * The order of `threads` (by thread index; undefined: no events), `base` their first global ids,
 * `byRank` the thread indexes in rank order and `rank` each one's place there, `positions` the
 * trace's step count (no event is placed after it). `listed`: the list whatever the threads (tests
 * hold the merged order to it).
 */
export function eventOrder(threads: ReadonlyArray<OrderedThread | undefined>, base: Uint32Array, byRank: readonly number[], rank: Uint32Array, positions: number, listed = false): EventOrder {
  const ranked = byRank.filter((t) => (threads[t]?.ownOps.length ?? 0) > 0);
  if (!listed && ranked.length <= MERGED_THREADS && ranked.every((t) => ownOrderHolds(threads[t]!))) return new MergedOrder(threads, base, ranked, rank, positions);
  return new ListedOrder(threads, base, byRank, rank, positions);
}

/** Whether a thread's own-op counts never go back (so its events are sorted by position already). */
function ownOrderHolds(g: OrderedThread): boolean {
  const own = g.ownOps;
  for (let i = 1; i < own.length; i++) if (own[i] < own[i - 1]) return false;
  return true;
}

/** idAt answers this many times by search, then from a list made then (a scan of every arrival of a line, a log point's). */
const SEARCHES_BEFORE_LIST = 1024;

class MergedOrder implements EventOrder {
  private readonly total: number;
  /** The ids by seq, once idAt has been asked many times (SEARCHES_BEFORE_LIST). */
  private list: Uint32Array | null = null;
  private searches = 0;

  get byteLength(): number {
    return this.list?.byteLength ?? 0;
  }

  constructor(
    private readonly threads: ReadonlyArray<OrderedThread | undefined>,
    private readonly base: Uint32Array,
    /** The threads with events, in rank order. */
    private readonly ranked: number[],
    private readonly rank: Uint32Array,
    private readonly positions: number,
  ) {
    this.total = ranked.reduce((n, t) => n + threads[t]!.ownOps.length, 0);
  }

  /** Events of thread t placed before `position`. */
  private below(t: number, position: number): number {
    const g = this.threads[t]!;
    return lowerBound(0, g.ownOps.length, (i) => anchorOf(g, i) < position);
  }

  countBefore(position: number): number {
    let n = 0;
    for (const t of this.ranked) n += this.below(t, position);
    return n;
  }

  seqOf(t: number, event: number, _id: number, a: number): number {
    // its own earlier events, and of each other thread those placed before a (at a too, when it ranks first)
    let n = event;
    for (const u of this.ranked) {
      if (u !== t) n += this.below(u, this.rank[u] < this.rank[t] ? a + 1 : a);
    }
    return n;
  }

  idAt(seq: number): number {
    if (!(seq >= 0 && seq < this.total)) throw new RangeError(`no statement event ${seq} (there are ${this.total})`);
    if (this.list === null && ++this.searches > SEARCHES_BEFORE_LIST) {
      const list = new Uint32Array(this.total);
      this.forEachRun((from, to, q) => {
        for (let id = from; id < to; id++) list[q++] = id;
      });
      this.list = list;
    }
    if (this.list !== null) return this.list[seq];
    // the position it is placed at: the first whose events and those before it are more than seq
    const a = lowerBound(0, this.positions + 1, (p) => this.countBefore(p + 1) <= seq);
    let r = seq - this.countBefore(a);
    for (const t of this.ranked) {
      const from = this.below(t, a);
      const at = this.below(t, a + 1) - from;
      if (r < at) return this.base[t] + from + r;
      r -= at;
    }
    throw new Error(`statement event ${seq}: the threads' counts do not add up`); // (never: countBefore is their sum)
  }

  forEachRun(visit: (from: number, to: number, seq: number) => void): void {
    const n = this.ranked.length;
    const next = new Int32Array(n); // each thread's next event
    const anchor = new Float64Array(n); // the position its next event is placed at (Infinity: none left)
    for (let j = 0; j < n; j++) anchor[j] = anchorOf(this.threads[this.ranked[j]]!, 0);
    let seq = 0;
    for (;;) {
      // the earliest position; among equals the first in rank order
      let best = -1;
      let a = Infinity;
      for (let j = 0; j < n; j++) {
        if (anchor[j] < a) {
          a = anchor[j];
          best = j;
        }
      }
      if (best < 0) return;
      // that thread's events placed there, all of them (a run of the same own ops shares its place)
      const g = this.threads[this.ranked[best]]!;
      const ownOps = g.ownOps;
      const len = ownOps.length;
      const from = next[best];
      let i = from;
      let at = a;
      while (at === a) {
        const k = ownOps[i];
        while (i < len && ownOps[i] === k) i++;
        at = i < len ? anchorOf(g, i) : Infinity;
      }
      const base = this.base[this.ranked[best]];
      visit(base + from, base + i, seq);
      seq += i - from;
      next[best] = i;
      anchor[best] = at;
    }
  }
}

class ListedOrder implements EventOrder {
  /** Global ids by seq. */
  private readonly ids: Uint32Array;

  constructor(
    private readonly threads: ReadonlyArray<OrderedThread | undefined>,
    private readonly base: Uint32Array,
    byRank: readonly number[],
    private readonly rank: Uint32Array,
    positions: number,
  ) {
    this.ids = countedOrder(threads, base, byRank, positions);
  }

  get byteLength(): number {
    return this.ids.byteLength;
  }

  idAt(seq: number): number {
    if (!(seq >= 0 && seq < this.ids.length)) throw new RangeError(`no statement event ${seq} (there are ${this.ids.length})`);
    return this.ids[seq];
  }

  seqOf(t: number, _event: number, id: number, a: number): number {
    return lowerBound(0, this.ids.length, (q) => this.before(this.ids[q], a, id, t));
  }

  countBefore(position: number): number {
    return lowerBound(0, this.ids.length, (q) => this.anchorOfId(this.ids[q]) < position);
  }

  forEachRun(visit: (from: number, to: number, seq: number) => void): void {
    const ids = this.ids;
    for (let q = 0; q < ids.length; ) {
      const from = ids[q];
      let k = q + 1;
      while (k < ids.length && ids[k] === from + (k - q)) k++;
      visit(from, from + (k - q), q);
      q = k;
    }
  }

  /** Whether global id x comes before event `id` of thread t, placed at a: by position, then (at the same one) by thread rank, then in the thread's own order. */
  private before(x: number, a: number, id: number, t: number): boolean {
    const tx = this.threadOfId(x);
    const ax = anchorOf(this.threads[tx]!, x - this.base[tx]);
    return ax < a || (ax === a && (tx === t ? x < id : this.rank[tx] < this.rank[t]));
  }

  private anchorOfId(id: number): number {
    const t = this.threadOfId(id);
    return anchorOf(this.threads[t]!, id - this.base[t]);
  }

  private threadOfId(id: number): number {
    return threadOfId(this.base, id);
  }
}

/** Counting sort by placed position; threads in rank order and each thread's events in order keep ties stable. */
function countedOrder(threads: ReadonlyArray<OrderedThread | undefined>, base: Uint32Array, byRank: readonly number[], positions: number): Uint32Array {
  const starts = new Uint32Array(positions + 2);
  // (a thread's events come in runs with the same own ops done, so the same anchor: found once a run)
  for (const g of threads) {
    if (!g) continue;
    const ownOps = g.ownOps;
    const len = ownOps.length;
    for (let i = 0; i < len; ) {
      const k = ownOps[i];
      let j = i + 1;
      while (j < len && ownOps[j] === k) j++;
      starts[anchorOf(g, i) + 1] += j - i;
      i = j;
    }
  }
  for (let p = 1; p < starts.length; p++) starts[p] += starts[p - 1];
  const order = new Uint32Array(base[threads.length]);
  for (const t of byRank) {
    const g = threads[t];
    if (!g) continue;
    const b = base[t];
    const ownOps = g.ownOps;
    const len = ownOps.length;
    for (let i = 0; i < len; ) {
      const a = anchorOf(g, i);
      const k = ownOps[i];
      let at = starts[a];
      for (; i < len && ownOps[i] === k; i++) order[at++] = b + i;
      starts[a] = at;
    }
  }
  return order;
}
