// Value histories from named entries in position order, for any format: every value of every
// variable, and the value on one thread as of a cursor position (its last entry placed at or
// before p on that thread; names are per thread). machin's `replay --print` probes
// (machin/merge-replay.ts: positions from probe-position.ts, never machin's `@op` as printed)
// and a capsule's effects (tcap/histories.ts) are made into these.
//
// A 1M-op replay prints millions of values, so they are kept in columns, never an object each
// (an object per value was about 90 bytes; a value here is about 25): per value its thread,
// position, statement event, marks and value, the value a small integer where its text is one
// (most of them) and else an index into the distinct texts. HistoryEntry objects are made when
// asked for.
import type { HistoryEntry, ValueHistories } from './recording';
import { Column } from './int-column';
import { lowerBound } from './lower-bound';

export interface NamedHistoryEntry extends HistoryEntry {
  name: string;
}

/** No statement event (HistoryEntry.event undefined); -1 is an event (before the first statement). */
const NO_EVENT = -2;
const THIS_REPLAY_ONLY = 1;
const TEXT = 2;
/** A canonical decimal integer that fits 32 bits whatever its digits (String(Number(t)) === t, so never "-0"): kept as a number. */
export const SMALL_INT = /^(?:0|-?[1-9]\d{0,8})$/;

/**
 * Entries added one at a time, then made into histories: `finish(true)` orders them by position
 * (then thread, then as added: each goroutine's own order is kept), `finish(false)` keeps the
 * order they were added in (already by position).
 */
export class ProbeHistoriesBuilder {
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly name: Column;
  private readonly thread: Column;
  private readonly position: Column;
  private readonly event: Column;
  private readonly value: Column;
  private flags: Uint8Array;
  private readonly texts: string[] = [];
  private readonly textIds = new Map<string, number>();

  /**
   * `expected`: how many entries will be added, when known: the columns are made that size, so
   * finish() keeps them as they are (no doubling's slack, no copy: at 3.6M values that is 150 MB
   * less at the peak).
   */
  constructor(watched: Iterable<string> = [], expected = 0) {
    for (const name of watched) this.nameId(name);
    const size = Math.max(64, expected);
    this.name = new Column(size);
    this.thread = new Column(size);
    this.position = new Column(size);
    this.event = new Column(size);
    this.value = new Column(size);
    this.flags = new Uint8Array(Math.max(256, expected));
  }

  get length(): number {
    return this.name.length;
  }

  add(name: string, thread: number, position: number, value: string, event: number | undefined, thisReplayOnly: boolean): void {
    if (value.length <= 10 && SMALL_INT.test(value)) return this.addNumber(name, thread, position, Number(value), event, thisReplayOnly);
    let id = this.textIds.get(value);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push(value);
      this.textIds.set(value, id);
    }
    this.addEntry(name, thread, position, id, event, (thisReplayOnly ? THIS_REPLAY_ONLY : 0) | TEXT);
  }

  /** A value printed as a small integer (SMALL_INT), already read as that number: the entry add(String(n)) makes. */
  addNumber(name: string, thread: number, position: number, value: number, event: number | undefined, thisReplayOnly: boolean): void {
    this.addEntry(name, thread, position, value, event, thisReplayOnly ? THIS_REPLAY_ONLY : 0);
  }

  private addEntry(name: string, thread: number, position: number, value: number, event: number | undefined, flags: number): void {
    const k = this.name.length;
    this.name.push(this.nameId(name));
    this.thread.push(thread);
    this.position.push(position);
    this.event.push(event === undefined ? NO_EVENT : event);
    if (k === this.flags.length) {
      const bigger = new Uint8Array(this.flags.length * 2);
      bigger.set(this.flags);
      this.flags = bigger;
    }
    this.value.push(value);
    this.flags[k] = flags;
  }

  private nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  finish(byPosition: boolean): ProbeHistories {
    const n = this.name.length;
    const columns: Columns = {
      thread: this.thread.int32(),
      position: this.position.int32(),
      event: this.event.int32(),
      value: this.value.int32(),
      flags: this.flags.length === n ? this.flags : this.flags.slice(0, n),
      texts: this.texts,
    };
    const order = byPosition ? positionOrder(columns.position, columns.thread) : null;
    // Per name, then per name and thread: the entries' indices in order (counted, then filled).
    const names = this.names;
    const nameOf = this.name.view();
    const perName = new Uint32Array(names.length);
    for (let k = 0; k < n; k++) perName[nameOf[k]]++;
    const byName = Array.from(perName, (c) => new Uint32Array(c));
    const filled = new Uint32Array(names.length);
    // Per name and thread, counted first so that each list is made its exact size.
    const perThread = names.map(() => new Map<number, number>());
    for (let k = 0; k < n; k++) {
      const counts = perThread[nameOf[k]];
      const t = columns.thread[k];
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const byThread = perThread.map((counts) => new Map([...counts].map(([t, c]) => [t, new Int32Array(c)] as const)));
    const threadFilled = perThread.map((counts) => new Map([...counts.keys()].map((t) => [t, 0])));
    for (let i = 0; i < n; i++) {
      const k = order ? order[i] : i;
      const id = nameOf[k];
      byName[id][filled[id]++] = k;
      const t = columns.thread[k];
      const at = threadFilled[id].get(t)!;
      byThread[id].get(t)![at] = k;
      threadFilled[id].set(t, at + 1);
    }
    return new ProbeHistories(names, columns, byName, byThread);
  }
}

/**
 * The entries' indices by position, then thread, then as added: two stable counting sorts (by
 * thread, then by position), linear and in two index arrays, where a comparison sort of millions
 * of indices took time and a heap array of its own.
 */
function positionOrder(position: Int32Array, thread: Int32Array): Uint32Array {
  const n = position.length;
  const byThread = countingSort(thread, null, n);
  return countingSort(position, byThread, n);
}

/** `from` (default 0..n-1) stably reordered by key[index]; keys are small non-negative integers. */
function countingSort(key: Int32Array, from: Uint32Array | null, n: number): Uint32Array {
  let max = 0;
  for (let k = 0; k < n; k++) if (key[k] > max) max = key[k];
  const start = new Uint32Array(max + 2);
  for (let k = 0; k < n; k++) start[key[k] + 1]++;
  for (let v = 1; v < start.length; v++) start[v] += start[v - 1];
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = from ? from[i] : i;
    out[start[key[k]]++] = k;
  }
  return out;
}

interface Columns {
  thread: Int32Array;
  position: Int32Array;
  event: Int32Array;
  value: Int32Array;
  flags: Uint8Array;
  texts: string[];
}

export class ProbeHistories implements ValueHistories {
  private readonly ids: Map<string, number>;

  /**
   * @param names every name, a watched one too when it took no value (machin prints nothing for a
   *   variable never assigned before the run ended, or not probed)
   */
  /** Made by ProbeHistoriesBuilder.finish (or ProbeHistories.of). */
  constructor(
    readonly names: string[],
    private readonly c: Columns,
    /** Per name: its entries' indices by position. */
    private readonly byName: Uint32Array[],
    /** Per name: thread -> that thread's entries' indices, in true order (positions never decrease). */
    private readonly byThread: Array<Map<number, Int32Array>>,
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
    return id === undefined ? [] : Array.from(this.byName[id], (k) => this.entry(k));
  }

  count(name: string): number {
    const id = this.ids.get(name);
    return id === undefined ? 0 : this.byName[id].length;
  }

  /** The threads `name` took a value on. */
  threadsOf(name: string): number[] {
    const id = this.ids.get(name);
    return id === undefined ? [] : [...this.byThread[id].keys()];
  }

  valueAt(name: string, thread: number, p: number): string | undefined {
    const own = this.own(name, thread);
    if (!own) return undefined;
    const after = this.lastAtOrBefore(own, p);
    return after === 0 ? undefined : this.valueOf(own[after - 1]);
  }

  entryAt(name: string, thread: number, p: number): HistoryEntry | undefined {
    const own = this.own(name, thread);
    if (!own) return undefined;
    const after = this.lastAtOrBefore(own, p);
    return after === 0 ? undefined : this.entry(own[after - 1]);
  }

  valueAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): string | undefined {
    const k = this.indexAtEvent(name, thread, event, anchor, p, accept);
    return k < 0 ? undefined : this.valueOf(k);
  }

  entryAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): HistoryEntry | undefined {
    const k = this.indexAtEvent(name, thread, event, anchor, p, accept);
    return k < 0 ? undefined : this.entry(k);
  }

  private own(name: string, thread: number): Int32Array | undefined {
    const id = this.ids.get(name);
    return id === undefined ? undefined : this.byThread[id].get(thread);
  }

  /** How many of `own`'s entries are placed at or before p (positions never decrease). */
  private lastAtOrBefore(own: Int32Array, p: number): number {
    const position = this.c.position;
    return lowerBound(0, own.length, (i) => position[own[i]] <= p);
  }

  private indexAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): number {
    const own = this.own(name, thread);
    const { event: events, position } = this.c;
    if (!own || own.length === 0 || events[own[0]] === NO_EVENT) return -1;
    // Entries in the thread's order, so their events never decrease: what this event stored after
    // its op completed, once the cursor is past that op...
    const before = lowerBound(0, own.length, (i) => events[own[i]] < event);
    const completed = (i: number) => position[own[i]] > anchor && position[own[i]] <= p;
    let last = before - 1;
    for (let i = before; i < own.length && events[own[i]] === event; i++) if (completed(i)) last = i;
    // ...else the last stored before this event (by a statement `accept` takes: one of this frame's).
    for (let i = last; i >= 0; i--) {
      if (i >= before && !completed(i)) continue;
      if (!accept || accept(events[own[i]])) return own[i];
    }
    return -1;
  }

  private valueOf(k: number): string {
    const c = this.c;
    return c.flags[k] & TEXT ? c.texts[c.value[k]] : String(c.value[k]);
  }

  private entry(k: number): HistoryEntry {
    const c = this.c;
    const e: HistoryEntry = c.event[k] === NO_EVENT ? { thread: c.thread[k], position: c.position[k], value: this.valueOf(k) } : { thread: c.thread[k], position: c.position[k], value: this.valueOf(k), event: c.event[k] };
    if (c.flags[k] & THIS_REPLAY_ONLY) e.thisReplayOnly = true;
    return e;
  }

  /** Bytes of the columns (the distinct texts not counted), for the benchmark. */
  byteLength(): number {
    const c = this.c;
    let n = c.thread.byteLength + c.position.byteLength + c.event.byteLength + c.value.byteLength + c.flags.byteLength;
    for (const l of this.byName) n += l.byteLength;
    for (const m of this.byThread) for (const l of m.values()) n += l.byteLength;
    return n;
  }
}
