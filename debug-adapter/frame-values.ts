// The values a thread's frame sees at the cursor: watched variables as of the cursor's position,
// or, at source level (docs/source-level.md), as of the statement each frame of the goroutine's
// stack stands at, from that frame's own stores. The runtime owns one (`rt.values`); the
// Variables view, evaluate, the cursor event's inline values, the MCP server and the run
// questions ask it.
import type { HistoryEntry } from '../replay-engine/model/recording';
import type { ReplayRuntime } from './runtime';

export class FrameValues {
  constructor(private readonly rt: ReplayRuntime) {}

  /**
   * The value of watched variable `name` on thread t at the cursor: at source level, as of the
   * statement of frame `frame` of its stack (0: the innermost; a caller's is the call it is
   * making), from that frame's own stores (a recursive call's locals of the same name are not its
   * caller's); else as of the cursor's position.
   */
  valueOf(name: string, t: number, frame = 0): string | undefined {
    return this.valuesInFrame(t, frame, [name]).get(name);
  }

  /** valueOf for several names of one frame: the frame's statement is looked up once. */
  valuesInFrame(t: number, frame: number, names: Iterable<string>): Map<string, string> {
    const out = new Map<string, string>();
    for (const [name, e] of this.entriesInFrame(t, frame, names)) out.set(name, e.value);
    return out;
  }

  /** The history entries behind valuesInFrame: each value with the statement that stored it and whether it is this replay's only. */
  entriesInFrame(t: number, frame: number, names: Iterable<string>): Map<string, HistoryEntry> {
    const out = new Map<string, HistoryEntry>();
    const h = this.rt.recording.histories;
    if (!h) return out;
    // A frame below the program's (the trace record's) sees what the innermost one does.
    let f = frame;
    let at = this.frameEvent(t, f);
    if (at === null && f > 0) at = this.frameEvent(t, (f = 0));
    for (const name of names) {
      const e = at === null ? (h.entryAt ? h.entryAt(name, t, this.rt.position) : plainEntry(h.valueAt(name, t, this.rt.position), t, this.rt.position)) : this.entryInFrame(name, t, at, f);
      if (e) out.set(name, e);
    }
    return out;
  }

  /** Whether thread t's current statement (frame `frame`'s) ran in this replay only (it may not in another). */
  statementThisReplayOnly(t: number, frame = 0): boolean {
    const s = this.rt.statements;
    const at = s ? this.frameEvent(t, frame) : null;
    return at !== null && !s!.isSure(t, at);
  }

  /** The statement event frame `frame` of thread t stands at (null: no statements here, or no such frame). */
  frameEvent(t: number, frame = 0): number | null {
    const s = this.rt.statements;
    const e = s && this.rt.recording.histories?.entryAtEvent ? this.rt.statementOf(t) : -1;
    if (!s || e < 0) return null;
    if (frame === 0) return e;
    return s.stack(t, e)[frame]?.event ?? null;
  }

  /** The function frame `frame` of thread t is in, at source level (null: not known). */
  frameFunction(t: number, frame = 0): string | null {
    const at = this.frameEvent(t, frame);
    return at === null ? null : this.rt.statements!.location(t, at).function;
  }

  /**
   * At source level: the values of `names` each frame of thread t's stack sees at the cursor, with
   * the 0-based line of the statement that stored each (a name in several frames: the innermost's),
   * for inline values beside the program; null when the statements are not known.
   */
  valuesOnStack(t: number, names: readonly string[]): { values: Record<string, string>; assignedLines: Record<string, number>; thisReplayOnly: string[] } | null {
    const e = this.frameEvent(t);
    if (e === null) return null;
    const s = this.rt.statements!;
    const stack = s.stack(t, e);
    const wanted = new Set(names);
    const values: Record<string, string> = {};
    const assignedLines: Record<string, number> = {};
    const marked = new Set<string>();
    for (let f = stack.length - 1; f >= 0; f--) {
      for (const name of s.localsOf(stack[f].function) ?? names) {
        if (!wanted.has(name)) continue;
        const entry = this.entryInFrame(name, t, stack[f].event, f);
        if (!entry) continue;
        values[name] = entry.value;
        if (entry.thisReplayOnly) marked.add(name);
        else marked.delete(name);
        if (entry.event !== undefined && entry.event >= 0) assignedLines[name] = s.location(t, s.storedBy(t, entry.event)).line - 1;
        else delete assignedLines[name];
      }
    }
    return { values, assignedLines, thisReplayOnly: [...marked] };
  }

  /** The entry of `name` frame `frame` of thread t sees at its statement `at`: only the innermost frame sees its op's completion. */
  private entryInFrame(name: string, t: number, at: number, frame: number) {
    const s = this.rt.statements!;
    const anchor = s.positionOf(t, at);
    return this.rt.recording.histories!.entryAtEvent!(name, t, at, anchor, frame === 0 ? this.rt.position : anchor, (stored) => s.sameFrame(t, name, stored, at));
  }
}

/** A value without an entry behind it (histories that keep none): sure, at the cursor. */
function plainEntry(value: string | undefined, thread: number, position: number): HistoryEntry | undefined {
  return value === undefined ? undefined : { thread, position, value };
}
