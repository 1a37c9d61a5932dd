// Value histories from named entries, for any format: every value of every variable, and the
// value on one thread as of a cursor position (its last entry placed at or before p on that
// thread; names are per thread). machin's `replay --print` probes (machin/merge-replay.ts, and
// the values' replay at source level as it is read: machin/source/statement-replay.ts; positions
// from probe-position.ts, never machin's `@op` as printed) and a capsule's effects
// (tcap/histories.ts) are made into these.
//
// A 1M-op replay prints millions of values, so they are kept in columns, never an object each
// (an object per value was about 90 bytes; a value here is 13): grouped by name and thread (one
// range a pair, in the thread's order), per value its position, statement event, marks and value,
// the value a small integer where its text is one (most of them) and else an index into the
// distinct texts (each text kept once). A name's entries across threads, by position, are merged
// from its threads' ranges when asked for; HistoryEntry objects are made when asked for.
import type { HistoryEntry, ValueHistories } from './recording';
import { ChunkedColumn, CHUNK_BITS } from './chunked-column';
import { lowerBound } from './lower-bound';

export interface NamedHistoryEntry extends HistoryEntry {
  name: string;
}

/** No statement event (HistoryEntry.event undefined); -1 is an event (before the first statement). */
const NO_EVENT = -2;
const THIS_REPLAY_ONLY = 1;
const TEXT = 2;
/** Bits of an entry's key column that hold its flags (the rest: its pair of name and thread). */
const FLAG_BITS = 2;
/** A canonical decimal integer that fits 32 bits whatever its digits (String(Number(t)) === t, so never "-0"): kept as a number. */
export const SMALL_INT = /^(?:0|-?[1-9]\d{0,8})$/;

/**
 * Entries added one at a time (in chunks: no doubling's slack, no copy while they grow), then
 * made into histories: `finish(true)` orders a name's entries by position (then thread, then as
 * added: each goroutine's own order is kept), `finish(false)` keeps the order they were added in.
 */
export class ProbeHistoriesBuilder {
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  /** Per pair of name and thread (a key, numbered as first added): its name id and thread. */
  private readonly keyName: number[] = [];
  private readonly keyThread: number[] = [];
  /** Per name id: thread -> key. */
  private readonly keysOf: Array<Map<number, number>> = [];
  private lastName = -1;
  private lastThread = -1;
  private lastKey = -1;
  /** Per entry: its key << FLAG_BITS | its flags; its position, event and value. */
  private readonly keyAndFlags = new ChunkedColumn();
  private readonly position = new ChunkedColumn(true);
  private readonly event = new ChunkedColumn(true);
  private readonly value = new ChunkedColumn(true);
  private readonly texts: string[] = [];
  private readonly textIds = new Map<string, number>();

  constructor(watched: Iterable<string> = []) {
    for (const name of watched) this.nameId(name);
  }

  get length(): number {
    return this.position.length;
  }

  add(name: string, thread: number, position: number, value: string, event: number | undefined, thisReplayOnly: boolean): void {
    this.addText(this.nameId(name), thread, position, value, event, thisReplayOnly);
  }

  /** A value printed as a small integer (SMALL_INT), already read as that number: the entry add(String(n)) makes. */
  addNumber(name: string, thread: number, position: number, value: number, event: number | undefined, thisReplayOnly: boolean): void {
    this.addEntry(this.nameId(name), thread, position, value, event, thisReplayOnly ? THIS_REPLAY_ONLY : 0);
  }

  /** add, with the name as its nameId (no lookup of the name per value). */
  addText(name: number, thread: number, position: number, value: string, event: number | undefined, thisReplayOnly: boolean): void {
    if (value.length <= 10 && SMALL_INT.test(value)) return this.addEntry(name, thread, position, Number(value), event, thisReplayOnly ? THIS_REPLAY_ONLY : 0);
    let id = this.textIds.get(value);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push(value);
      this.textIds.set(value, id);
    }
    this.addEntry(name, thread, position, id, event, (thisReplayOnly ? THIS_REPLAY_ONLY : 0) | TEXT);
  }

  /** addNumber, with the name as its nameId. */
  addInt(name: number, thread: number, position: number, value: number, event: number | undefined, thisReplayOnly: boolean): void {
    this.addEntry(name, thread, position, value, event, thisReplayOnly ? THIS_REPLAY_ONLY : 0);
  }

  private addEntry(name: number, thread: number, position: number, value: number, event: number | undefined, flags: number): void {
    this.keyAndFlags.push((this.keyOf(name, thread) << FLAG_BITS) | flags);
    this.position.push(position);
    this.event.push(event === undefined ? NO_EVENT : event);
    this.value.push(value);
  }

  private keyOf(name: number, thread: number): number {
    if (name === this.lastName && thread === this.lastThread) return this.lastKey;
    const keys = this.keysOf[name];
    let key = keys.get(thread);
    if (key === undefined) {
      key = this.keyName.length;
      this.keyName.push(name);
      this.keyThread.push(thread);
      keys.set(thread, key);
    }
    this.lastName = name;
    this.lastThread = thread;
    this.lastKey = key;
    return key;
  }

  nameOf(id: number): string {
    return this.names[id];
  }

  nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
      this.keysOf.push(new Map());
    }
    return id;
  }

  /**
   * The histories. The entries are put in place in their own chunks, grouped by key (one column
   * at a time through one array of places: no second copy of the entries, at 2.7M values 35 MB
   * less at the peak than a copy).
   */
  finish(byPosition: boolean): ProbeHistories {
    const n = this.length;
    const keyCount = this.keyName.length;
    const c: Columns = {
      keyAndFlags: this.keyAndFlags.takeChunks(),
      position: this.position.takeChunks() as Int32Array[],
      event: this.event.takeChunks() as Int32Array[],
      value: this.value.takeChunks() as Int32Array[],
      texts: this.texts,
    };
    // Each key's range: counted, then each entry's place in it, in the order added.
    const start = new Uint32Array(keyCount + 1);
    for (const chunk of c.keyAndFlags) for (let i = 0; i < chunk.length; i++) start[(chunk[i] >>> FLAG_BITS) + 1]++;
    for (let k = 0; k < keyCount; k++) start[k + 1] += start[k];
    // Without byPosition the order added is kept for a name whose order added is not by (position,
    // thread) (ProbeHistories.of with entries out of that order): that name's order is its own list.
    const kept = byPosition ? null : this.namesAddedOutOfOrder(c);
    const keptFilled = new Uint32Array(this.names.length);
    const next = start.slice(0, keyCount);
    const to = new Uint32Array(n);
    for (let ch = 0, j = 0; ch < c.keyAndFlags.length; ch++) {
      const kf = c.keyAndFlags[ch];
      for (let i = 0; i < kf.length; i++, j++) {
        const key = kf[i] >>> FLAG_BITS;
        to[j] = next[key]++;
        const name = this.keyName[key];
        const list = kept?.[name];
        if (list) list[keptFilled[name]++] = to[j];
      }
    }
    permute(c, to);
    // A thread's entries by position, as added among equal ones (machin's @op never goes back within
    // a goroutine, so this is the order added but for a value placed by a floor).
    for (let k = 0; k < keyCount; k++) if (kept?.[this.keyName[k]] === undefined) sortRange(c, start[k], start[k + 1]);
    const perName: NameRanges[] = this.names.map((_, id) => {
      const keys = [...this.keysOf[id].values()];
      return {
        threads: Int32Array.from(keys, (k) => this.keyThread[k]),
        from: Uint32Array.from(keys, (k) => start[k]),
        to: Uint32Array.from(keys, (k) => start[k + 1]),
        order: kept?.[id] ?? null,
        byThread: this.keysOf[id].size > 8 ? new Map(keys.map((k, i) => [this.keyThread[k], i])) : null,
      };
    });
    return new ProbeHistories(this.names, c, perName);
  }

  /** Per name id: an order list for a name whose entries were not added by (position, thread), else undefined. */
  private namesAddedOutOfOrder(c: Columns): Array<Uint32Array | undefined> {
    const lastPosition = new Float64Array(this.names.length).fill(-Infinity);
    const lastThread = new Float64Array(this.names.length).fill(-Infinity);
    const count = new Uint32Array(this.names.length);
    const out = new Array<boolean>(this.names.length).fill(false);
    for (let ch = 0; ch < c.keyAndFlags.length; ch++) {
      const kf = c.keyAndFlags[ch];
      const positions = c.position[ch];
      for (let i = 0; i < kf.length; i++) {
        const key = kf[i] >>> FLAG_BITS;
        const name = this.keyName[key];
        const thread = this.keyThread[key];
        const position = positions[i];
        count[name]++;
        if (position < lastPosition[name] || (position === lastPosition[name] && thread < lastThread[name])) out[name] = true;
        lastPosition[name] = position;
        lastThread[name] = thread;
      }
    }
    return out.map((o, name) => (o ? new Uint32Array(count[name]) : undefined));
  }
}

const MASK = (1 << CHUNK_BITS) - 1;

/** Moves entry j of every column to to[j], in the column's own chunks. */
function permute(c: Columns, to: Uint32Array): void {
  // Column by column: each entry written to its place in one array (read in order, written by
  // place), then copied back into the column's chunks in order. One loop per column keeps each
  // loop on one kind of array, and no entry is read by place (an in-place cycle walk read four
  // columns by place: 180 ns an entry at 2.7M entries, against about 30 here).
  const moved = new Int32Array(to.length);
  for (const column of [c.keyAndFlags, c.position, c.event, c.value]) {
    for (let ch = 0, j = 0; ch < column.length; ch++) {
      const chunk = column[ch];
      for (let i = 0; i < chunk.length; i++, j++) moved[to[j]] = chunk[i];
    }
    for (let ch = 0, j = 0; ch < column.length; ch++) {
      const chunk = column[ch];
      chunk.set(moved.subarray(j, j + chunk.length));
      j += chunk.length;
    }
  }
}

/** Entry k of a chunked column. */
function at(column: ArrayLike<number>[], k: number): number {
  return column[k >>> CHUNK_BITS][k & MASK];
}

/** Sorts the entries [from, to) by position, stably (they are almost always in order already: then nothing moves). */
function sortRange(c: Columns, from: number, to: number): void {
  let sorted = true;
  for (let i = from + 1; i < to && sorted; i++) sorted = at(c.position, i - 1) <= at(c.position, i);
  if (sorted) return;
  const order = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => at(c.position, a) - at(c.position, b) || a - b);
  for (const column of [c.keyAndFlags, c.position, c.event, c.value]) {
    const moved = order.map((k) => at(column, k));
    moved.forEach((v, i) => (column[(from + i) >>> CHUNK_BITS][(from + i) & MASK] = v));
  }
}

/** The entries, grouped by key, in chunks of 2^CHUNK_BITS: entry k is chunk k >>> CHUNK_BITS, place k & MASK. */
interface Columns {
  /** key << FLAG_BITS | flags */
  keyAndFlags: Array<Uint16Array | Int32Array>;
  position: Int32Array[];
  event: Int32Array[];
  value: Int32Array[];
  texts: string[];
}

/** One name's entries: per thread it took a value on (in the order first added), the range [from, to) of its entries. */
interface NameRanges {
  threads: Int32Array;
  from: Uint32Array;
  to: Uint32Array;
  /** The name's entries in the order they were added, when that is not by position (finish(false)); else null: merged from the ranges. */
  order: Uint32Array | null;
  /** thread -> its place in `threads`, for a name on many threads (else a scan). */
  byThread: Map<number, number> | null;
}

export class ProbeHistories implements ValueHistories {
  private readonly ids: Map<string, number>;

  /**
   * Made by ProbeHistoriesBuilder.finish (or ProbeHistories.of).
   * @param names every name, a watched one too when it took no value (machin prints nothing for a
   *   variable never assigned before the run ended, or not probed)
   */
  constructor(
    readonly names: string[],
    private readonly c: Columns,
    private readonly perName: NameRanges[],
  ) {
    this.ids = new Map(names.map((name, i) => [name, i]));
  }

  /**
   * @param entries by position; each goroutine's own entries in the order it stored them
   * @param watched the names that were asked for: each is listed even when it took no value
   */
  static of(entries: Iterable<NamedHistoryEntry>, watched: Iterable<string> = []): ProbeHistories {
    const b = new ProbeHistoriesBuilder(watched);
    for (const e of entries) b.add(e.name, e.thread, e.position, e.value, e.event, e.thisReplayOnly === true);
    return b.finish(false);
  }

  entries(name: string): HistoryEntry[] {
    const id = this.ids.get(name);
    if (id === undefined) return [];
    const r = this.perName[id];
    if (r.order) {
      const threadAt = this.threadOfEntry(r);
      return Array.from(r.order, (k) => this.entry(k, threadAt(k)));
    }
    const out: HistoryEntry[] = [];
    this.merged(r, (k, thread) => out.push(this.entry(k, thread)));
    return out;
  }

  count(name: string): number {
    const id = this.ids.get(name);
    if (id === undefined) return 0;
    const r = this.perName[id];
    let n = 0;
    for (let i = 0; i < r.threads.length; i++) n += r.to[i] - r.from[i];
    return n;
  }

  /** The threads `name` took a value on. */
  threadsOf(name: string): number[] {
    const id = this.ids.get(name);
    return id === undefined ? [] : Array.from(this.perName[id].threads);
  }

  valueAt(name: string, thread: number, p: number): string | undefined {
    const k = this.lastAtOrBefore(name, thread, p);
    return k < 0 ? undefined : this.valueOf(k);
  }

  entryAt(name: string, thread: number, p: number): HistoryEntry | undefined {
    const k = this.lastAtOrBefore(name, thread, p);
    return k < 0 ? undefined : this.entry(k, thread);
  }

  valueAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): string | undefined {
    const k = this.indexAtEvent(name, thread, event, anchor, p, accept);
    return k < 0 ? undefined : this.valueOf(k);
  }

  entryAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): HistoryEntry | undefined {
    const k = this.indexAtEvent(name, thread, event, anchor, p, accept);
    return k < 0 ? undefined : this.entry(k, thread);
  }

  /** The range of the name's entries on the thread (this.range, valid until the next call), or null when it has none. */
  private own(name: string, thread: number): { from: number; to: number } | null {
    const id = this.ids.get(name);
    if (id === undefined) return null;
    const r = this.perName[id];
    const i = r.byThread ? r.byThread.get(thread) ?? -1 : r.threads.indexOf(thread);
    if (i < 0) return null;
    this.range.from = r.from[i];
    this.range.to = r.to[i];
    return this.range;
  }

  private readonly range = { from: 0, to: 0 };

  /** The name's last entry on the thread placed at or before p (positions never decrease in a range), -1 when none. */
  private lastAtOrBefore(name: string, thread: number, p: number): number {
    const own = this.own(name, thread);
    if (!own) return -1;
    const position = this.c.position;
    const after = lowerBound(own.from, own.to, (i) => at(position, i) <= p);
    return after === own.from ? -1 : after - 1;
  }

  private indexAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): number {
    const own = this.own(name, thread);
    if (!own) return -1;
    const { from, to } = own;
    const { event: events, position } = this.c;
    if (from === to || at(events, from) === NO_EVENT) return -1;
    // Entries in the thread's order, so their events never decrease: what this event stored after
    // its op completed, once the cursor is past that op...
    const before = lowerBound(from, to, (i) => at(events, i) < event);
    const completed = (i: number) => at(position, i) > anchor && at(position, i) <= p;
    let last = before - 1;
    for (let i = before; i < to && at(events, i) === event; i++) if (completed(i)) last = i;
    // ...else the last stored before this event (by a statement `accept` takes: one of this frame's).
    for (let i = last; i >= from; i--) {
      if (i >= before && !completed(i)) continue;
      if (!accept || accept(at(events, i))) return i;
    }
    return -1;
  }

  /**
   * The name's entries by position, then thread (then as added, which each thread's range keeps):
   * its threads' ranges merged, `visit` called for each in that order.
   */
  private merged(r: NameRanges, visit: (k: number, thread: number) => void): void {
    const position = this.c.position;
    const m = r.threads.length;
    if (m === 1) {
      for (let k = r.from[0]; k < r.to[0]; k++) visit(k, r.threads[0]);
      return;
    }
    // A binary heap of the ranges still open, by (their next entry's position, thread).
    const next = Uint32Array.from(r.from);
    const heap: number[] = [];
    const less = (a: number, b: number) => {
      const pa = at(position, next[a]);
      const pb = at(position, next[b]);
      return pa < pb || (pa === pb && r.threads[a] < r.threads[b]);
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) return;
        const s = l + 1 < heap.length && less(heap[l + 1], heap[l]) ? l + 1 : l;
        if (!less(heap[s], heap[i])) return;
        [heap[s], heap[i]] = [heap[i], heap[s]];
        i = s;
      }
    };
    for (let i = 0; i < m; i++) if (next[i] < r.to[i]) heap.push(i);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    while (heap.length > 0) {
      const top = heap[0];
      visit(next[top]++, r.threads[top]);
      if (next[top] === r.to[top]) {
        heap[0] = heap[heap.length - 1];
        heap.pop();
      }
      down(0);
    }
  }

  /** For a name kept in its order added: entry -> thread (its range's). */
  private threadOfEntry(r: NameRanges): (k: number) => number {
    return (k) => {
      for (let i = 0; i < r.threads.length; i++) if (k >= r.from[i] && k < r.to[i]) return r.threads[i];
      return -1;
    };
  }

  private valueOf(k: number): string {
    const c = this.c;
    const value = at(c.value, k);
    return at(c.keyAndFlags, k) & TEXT ? c.texts[value] : String(value);
  }

  private entry(k: number, thread: number): HistoryEntry {
    const c = this.c;
    const event = at(c.event, k);
    const position = at(c.position, k);
    const e: HistoryEntry = event === NO_EVENT ? { thread, position, value: this.valueOf(k) } : { thread, position, value: this.valueOf(k), event };
    if (at(c.keyAndFlags, k) & THIS_REPLAY_ONLY) e.thisReplayOnly = true;
    return e;
  }

  /** Bytes of the columns (the distinct texts not counted), for the benchmark. */
  byteLength(): number {
    const c = this.c;
    let n = 0;
    for (const column of [c.keyAndFlags, c.position, c.event, c.value]) for (const chunk of column) n += chunk.byteLength;
    for (const r of this.perName) n += r.threads.byteLength + r.from.byteLength + r.to.byteLength + (r.order?.byteLength ?? 0);
    return n;
  }
}
