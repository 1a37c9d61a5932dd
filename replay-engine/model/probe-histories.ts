// Value histories from named entries in position order, for any format: every value of every
// variable, and the value on one thread as of a cursor position (its last entry placed at or
// before p on that thread; names are per thread). machin's `replay --print` probes
// (machin/merge-replay.ts: positions from probe-position.ts, never machin's `@op` as printed)
// and a capsule's effects (tcap/histories.ts) are made into these.
import type { HistoryEntry, ValueHistories } from './recording';
import { lowerBound } from './lower-bound';

export interface NamedHistoryEntry extends HistoryEntry {
  name: string;
}

export class ProbeHistories implements ValueHistories {
  readonly names: string[] = [];
  private readonly byName = new Map<string, HistoryEntry[]>();
  /** name -> thread -> entries of that thread, in true order (positions never decrease). */
  private readonly byThread = new Map<string, Map<number, HistoryEntry[]>>();

  /**
   * @param entries by position; each goroutine's own entries in the order it stored them
   * @param watched the names that were asked for: each is listed even when it took no value
   *   (machin prints nothing for a variable never assigned before the run ended, or not probed)
   */
  constructor(entries: Iterable<NamedHistoryEntry>, watched: Iterable<string> = []) {
    for (const name of watched) this.listOf(name);
    for (const { name, thread, position, value, event, thisReplayOnly } of entries) {
      const entry: HistoryEntry = event === undefined ? { thread, position, value } : { thread, position, value, event };
      if (thisReplayOnly) entry.thisReplayOnly = true;
      this.add(name, entry);
    }
  }

  /**
   * The histories of entries already made (a replay's million values are not made twice): entry
   * order[k] is named names[order[k]]; `order` lists them by position as the constructor's are.
   */
  static ofEntries(names: readonly string[], entries: readonly HistoryEntry[], order: Uint32Array, watched: Iterable<string> = []): ProbeHistories {
    const h = new ProbeHistories([], watched);
    for (let k = 0; k < order.length; k++) h.add(names[order[k]], entries[order[k]]);
    return h;
  }

  private add(name: string, entry: HistoryEntry): void {
    this.listOf(name).push(entry);
    const threads = this.byThread.get(name)!;
    let own = threads.get(entry.thread);
    if (!own) threads.set(entry.thread, (own = []));
    own.push(entry);
  }

  private listOf(name: string): HistoryEntry[] {
    let list = this.byName.get(name);
    if (!list) {
      list = [];
      this.byName.set(name, list);
      this.byThread.set(name, new Map());
      this.names.push(name);
    }
    return list;
  }

  entries(name: string): HistoryEntry[] {
    return this.byName.get(name) ?? [];
  }

  valueAt(name: string, thread: number, p: number): string | undefined {
    return this.entryAt(name, thread, p)?.value;
  }

  entryAt(name: string, thread: number, p: number): HistoryEntry | undefined {
    const own = this.byThread.get(name)?.get(thread);
    if (!own) return undefined;
    // Last entry with position <= p (binary search; positions are non-decreasing).
    const after = lowerBound(0, own.length, (i) => own[i].position <= p);
    return after === 0 ? undefined : own[after - 1];
  }

  valueAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): string | undefined {
    return this.entryAtEvent(name, thread, event, anchor, p, accept)?.value;
  }

  entryAtEvent(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): HistoryEntry | undefined {
    const own = this.byThread.get(name)?.get(thread);
    if (!own || own.length === 0 || own[0].event === undefined) return undefined;
    // Entries in the thread's order, so their events never decrease: what this event stored after
    // its op completed, once the cursor is past that op...
    const before = lowerBound(0, own.length, (i) => (own[i].event ?? -1) < event);
    const completed = (i: number) => own[i].position > anchor && own[i].position <= p;
    let last = before - 1;
    for (let i = before; i < own.length && own[i].event === event; i++) if (completed(i)) last = i;
    // ...else the last stored before this event (by a statement `accept` takes: one of this frame's).
    for (let i = last; i >= 0; i--) {
      if (i >= before && !completed(i)) continue;
      if (!accept || accept(own[i].event!)) return own[i];
    }
    return undefined;
  }
}
