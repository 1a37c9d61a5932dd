// Where a goroutine is in the program, as data for clients that are not VS Code (the MCP server,
// the CLI's `where`): its current statement with the statement's text, and its program stack
// (innermost first, each caller at the statement making the call), from the runtime's cursor.
// The same statements and frames the DAP session shows (frames.ts reads the same stack).
import type { Recording } from '../replay-engine/model/recording';
import { lowerBound } from '../replay-engine/model/lower-bound';
import { placeOf, programLines, type StatementPlace } from '../replay-engine/model/statement-text';
import type { ReplayRuntime } from './runtime';

export { placeOf, programLines, type StatementPlace };

/** Frames listed at most per stack (a deep recursion: the innermost ones, and `framesTotal`). */
export const FRAMES_LISTED = 64;

/** Thread t's statement where the runtime stands (null: no statements, or it has run none yet). */
export function statementPlace(rt: ReplayRuntime, t: number): StatementPlace | null {
  const s = rt.statements;
  const e = s ? rt.statementOf(t) : -1;
  return s && e >= 0 ? marked(placeOf(rt.recording, s.location(t, e)), s.isSure(t, e)) : null;
}

/** A place of a statement machin ran in this replay but may not in another: said as a field (docs/source-level.md, "What is sure"). */
function marked(place: StatementPlace, sure: boolean): StatementPlace {
  return sure ? place : { ...place, thisReplayOnly: true };
}

/** Thread t's program stack (as statementPlace's), innermost first, at most `limit` frames, and how many there are. A goroutine blocked at the end has its top frame where it waits (blockedTop). */
export function programStack(rt: ReplayRuntime, t: number, limit = FRAMES_LISTED): { frames: StatementPlace[]; total: number } {
  const s = rt.statements;
  const e = s ? rt.statementOf(t) : -1;
  if (!s || e < 0) return { frames: [], total: 0 };
  const stack = s.stack(t, e);
  const lines = programLines(rt.recording);
  const frames = stack.slice(0, limit).map((f) => marked(placeOf(rt.recording, f, lines), s.isSure(t, f.event)));
  const blocked = blockedTop(rt, t);
  if (blocked && frames.length > 0) frames[0] = blocked;
  return { frames, total: stack.length };
}

/** The words for the op a goroutine waits in at the end: the Call Stack's frame name and `where` say them alike. */
export const WAITING = { receive: 'blocked in receive', send: 'blocked in send', select: 'blocked in select', print: 'waiting to print' } as const;

/**
 * Where thread t waits at the end (runtime.blockedIn), as its top frame: the statement of the op,
 * with `waiting`. It is sure only when machin surely ran that statement (its last event, sure: a
 * deadlock, where every goroutine is blocked and every probe printed). Otherwise it is marked this
 * replay only, whether machin printed the statement in this replay (main's `println(str(<-fin))`,
 * printed before the receive that never completes, racing with the panic) or the runtime inferred
 * it from the statement before (nothing between them touches another goroutine): another replay
 * may end with the goroutine before it, never past it. So the mark does not depend on which of the
 * two this replay printed, and `where`, MCP and the Call Stack say it alike.
 */
export function blockedTop(rt: ReplayRuntime, t: number): StatementPlace | null {
  const s = rt.statements;
  const blocked = rt.blockedIn(t);
  if (!s || !blocked) return null;
  const place = { ...placeOf(rt.recording, blocked.location), waiting: WAITING[blocked.op] };
  const last = s.lastEvent(t);
  const l = s.location(t, last);
  const printed = l.line === blocked.location.line && l.column === blocked.location.column;
  return marked(place, printed && s.isSure(t, last));
}

/** The statement that panicked (the panicking goroutine's last) and the stack there, innermost first; null when no panic or no statements. */
export function panicStatement(rt: ReplayRuntime, limit = FRAMES_LISTED): { statement: StatementPlace; frames: StatementPlace[]; total: number } | null {
  const s = rt.statements;
  const p = rt.recording.panic;
  if (!s || !p) return null;
  const e = s.lastEvent(p.thread);
  if (e < 0) return null;
  const lines = programLines(rt.recording);
  const stack = s.stack(p.thread, e);
  return { statement: placeOf(rt.recording, s.location(p.thread, e), lines), frames: stack.slice(0, limit).map((f) => marked(placeOf(rt.recording, f, lines), s.isSure(p.thread, f.event))), total: stack.length };
}

/** Why there is no statement to show, in a few words (null when the statements are known). */
export function noStatementsWhy(rec: Recording): string | null {
  const status = rec.sourceLevel;
  if (status?.state === 'ready' && rec.statements) return null;
  if (rec.timeline.traits.statements !== true) return rec.timeline.traits.statements;
  if (!status) return 'machin did not replay the program (no toolchain): records only';
  if (status.state === 'pending') return 'machin is still replaying the program';
  return status.state === 'unavailable' ? status.reason : 'not known';
}

export interface SourceLine {
  line: number;
  text: string;
  /** How many times the run arrived at this line (statement arrivals, all goroutines); 0: it never ran. */
  ran: number;
  /** Of those, how many came before the place asked about (the cursor, or a position). */
  ranBefore: number;
  /** The line of the location asked about. */
  here?: true;
}

/**
 * The program's lines `around` lines either side of `line`, each with how often the run arrived
 * there in all and before `passed` statement events had run (a line where no statement starts, a
 * brace or a comment, has `code: false` and ran 0).
 */
export function sourceAround(rt: ReplayRuntime, line: number, around: number, passed: number): { path: string; lines: Array<SourceLine & { code: boolean }>; lineCount: number } | null {
  const s = rt.statements;
  const lines = programLines(rt.recording);
  if (!s || !lines) return null;
  const breakable = new Set(s.breakableLines());
  const from = Math.max(1, line - around);
  const to = Math.min(lines.length, line + around);
  const out: Array<SourceLine & { code: boolean }> = [];
  for (let n = from; n <= to; n++) {
    const code = breakable.has(n);
    const hits = code ? s.lineHits(n) : new Uint32Array(0);
    const before = lowerBound(0, hits.length, (k) => hits[k] < passed);
    out.push({ line: n, text: lines[n - 1], code, ran: hits.length, ranBefore: before, ...(n === line ? { here: true as const } : {}) });
  }
  return { path: s.file, lines: out, lineCount: lines.length };
}

/** The watched names frame `frame` of thread t shows: its function's own (and the globals) at source level, else every watched name. */
export function frameNames(rt: ReplayRuntime, t: number, frame: number): readonly string[] {
  const h = rt.recording.histories;
  if (!h) return [];
  const fn = rt.values.frameFunction(t, frame);
  const own = fn !== null ? rt.statements?.localsOf(fn) : null;
  if (!own) return h.names;
  const watched = new Set(h.names);
  return own.filter((n) => watched.has(n));
}

export interface FrameLocals {
  /** The values frame `frame` of thread t holds at the cursor, in its function's order of names. */
  locals: Record<string, string>;
  /**
   * The names among them whose value machin printed in this replay but is not known to print in
   * another (docs/value-positions.md, rule 3; as `thisReplayOnly` of mcp-server/values-at.ts); absent when none.
   */
  localsThisReplayOnly?: string[];
}

/** The values frame `frame` of thread t holds at the cursor, and which of them are this replay's only. */
export function frameLocals(rt: ReplayRuntime, t: number, frame: number): FrameLocals {
  const entries = rt.values.entriesInFrame(t, frame, frameNames(rt, t, frame));
  const locals: Record<string, string> = {};
  const marked: string[] = [];
  for (const [name, e] of entries) {
    locals[name] = e.value;
    if (e.thisReplayOnly) marked.push(name);
  }
  return marked.length > 0 ? { locals, localsThisReplayOnly: marked } : { locals };
}
