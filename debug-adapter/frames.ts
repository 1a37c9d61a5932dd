// A thread's stack as Frozen Run shows it. At source level (the recording knows its statements,
// docs/source-level.md) the frames are the program's: the goroutine's current `.mfl` statement on
// top, each caller at the statement that made the call below it (recursion: one frame per call),
// and the thread's current record last, so the trace stays in sight. Without statements, frame 1
// is the thread's current record in the recording (or, before the thread started, its first one,
// marked "not started yet"), frame 2 where that record runs in the program when machin's bridge
// can place it. A frame id encodes its thread and its place: t * FRAMES_PER_THREAD + i + 1. Lines
// and columns are 1-based (the session converts for its client).
import type { ReplayRuntime } from './runtime';
import { blockedTop } from './statement-place';

/** Frames shown per thread at most (a deeper recursion shows its innermost frames and a note). */
export const FRAMES_PER_THREAD = 2048;

export interface Frame {
  id: number;
  name: string;
  /** `recording`: the served recording document; `program`: a program source file. */
  where: { type: 'recording' } | { type: 'program'; path: string } | null;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  subtle: boolean;
}

export function threadFrames(rt: ReplayRuntime, t: number): Frame[] {
  const frames = statementFrames(rt, t);
  const id = (i: number) => t * FRAMES_PER_THREAD + i + 1;
  let r = rt.currentRecordOf(t);
  const notStarted = r < 0;
  if (notStarted) r = rt.threads.firstRecord(t);
  if (r < 0) {
    // A goroutine that did no channel op or I/O (machin named it: it panicked or stored values).
    const p = rt.recording.panic;
    const panicked = p !== null && p.thread === t && rt.position >= p.position;
    if (frames.length > 0) return frames.map((f, i) => ({ ...f, id: id(i) }));
    const out: Frame[] = [{ id: id(0), name: panicked ? `panic: ${p.message}` : 'no records in this recording', where: null, line: 0, column: 0, subtle: true }];
    const loc = rt.recording.threadLocation?.(t);
    if (loc) out.push({ id: id(1), name: loc.name, where: { type: 'program', path: loc.path }, line: loc.line, column: 1, subtle: false });
    return out;
  }
  const view = rt.recording.describe(r);
  const record: Frame = { id: 0, name: notStarted ? `not started yet · next: ${view.summary}` : view.summary, where: { type: 'recording' }, line: view.line, column: 1, subtle: notStarted || frames.length > 0 };
  if (frames.length > 0) return [...frames, record].map((f, i) => ({ ...f, id: id(i) }));
  const out: Frame[] = [{ ...record, id: id(0) }];
  const loc = rt.recording.sourceLocation?.(r);
  if (loc) out.push({ id: id(1), name: loc.name, where: { type: 'program', path: loc.path }, line: loc.line, column: 1, subtle: false });
  return out;
}

/** The program's frames of thread t at the cursor, innermost first (none without statements). */
function statementFrames(rt: ReplayRuntime, t: number): Frame[] {
  const s = rt.statements;
  const e = s ? rt.statementOf(t) : -1;
  if (!s || e < 0) return [];
  const stack = s.stack(t, e);
  const shown = stack.slice(0, FRAMES_PER_THREAD - 2);
  // A statement machin ran in this replay but may not in another: said in the frame's name.
  const frames: Frame[] = shown.map((f) => ({
    id: 0,
    name: s.isSure(t, f.event) ? f.function : `${f.function} · this replay only`,
    where: { type: 'program', path: f.file },
    line: f.line,
    column: f.column,
    endLine: f.endLine,
    endColumn: f.endColumn,
    subtle: false,
  }));
  if (stack.length > shown.length) frames.push({ id: 0, name: `… ${stack.length - shown.length} more frames (the outermost are not shown)`, where: null, line: 0, column: 0, subtle: true });
  // Blocked at the end: the top frame where it waits, marked as `where` and MCP mark it (statement-place.ts blockedTop).
  const blocked = blockedTop(rt, t);
  if (blocked && frames.length > 0) {
    frames[0] = { ...frames[0], name: `${blocked.function} · ${blocked.waiting}${blocked.thisReplayOnly ? ' · this replay only' : ''}`, line: blocked.line, column: blocked.column, endLine: blocked.endLine, endColumn: blocked.endColumn };
  }
  return frames;
}

/** The thread a frame id names; the last stop's thread for none or a stale one. */
export function threadOfFrame(rt: ReplayRuntime | undefined, frameId: number | undefined): number {
  const n = rt?.timeline.threads.length ?? 0;
  const t = frameId !== undefined && Number.isInteger(frameId) && frameId > 0 ? Math.floor((frameId - 1) / FRAMES_PER_THREAD) : -1;
  return t >= 0 && t < n ? t : rt?.lastStop.thread ?? 0;
}

/** The place of a frame in its thread's stack (0: the innermost), from its id; 0 for none. */
export function frameIndexOf(frameId: number | undefined): number {
  return frameId !== undefined && Number.isInteger(frameId) && frameId > 0 ? (frameId - 1) % FRAMES_PER_THREAD : 0;
}
