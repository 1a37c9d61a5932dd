// A thread's stack as Frozen Run shows it: frame 1 is the thread's current record in the
// recording (or, before the thread started, its first one, marked "not started yet"), frame 2
// where that record runs in the program when machin's bridge can place it. Frame ids encode the
// thread: t * 2 + 1 and t * 2 + 2. Lines are 1-based (the session converts for its client).
import type { ReplayRuntime } from './runtime';

export interface Frame {
  id: number;
  name: string;
  /** `recording`: the served recording document; `program`: a program source file. */
  where: { type: 'recording' } | { type: 'program'; path: string } | null;
  line: number;
  subtle: boolean;
}

export function threadFrames(rt: ReplayRuntime, t: number): Frame[] {
  let r = rt.currentRecordOf(t);
  const notStarted = r < 0;
  if (notStarted) r = rt.threads.firstRecord(t);
  if (r < 0) {
    // A goroutine that did no channel op or I/O (machin named it: it panicked or stored values).
    const p = rt.recording.panic;
    const panicked = p !== null && p.thread === t && rt.position >= p.position;
    const frames: Frame[] = [{ id: t * 2 + 1, name: panicked ? `panic: ${p.message}` : 'no records in this recording', where: null, line: 0, subtle: true }];
    const loc = rt.recording.threadLocation?.(t);
    if (loc) frames.push({ id: t * 2 + 2, name: loc.name, where: { type: 'program', path: loc.path }, line: loc.line, subtle: false });
    return frames;
  }
  const view = rt.recording.describe(r);
  const frames: Frame[] = [
    { id: t * 2 + 1, name: notStarted ? `not started yet · next: ${view.summary}` : view.summary, where: { type: 'recording' }, line: view.line, subtle: notStarted },
  ];
  const loc = rt.recording.sourceLocation?.(r);
  if (loc) frames.push({ id: t * 2 + 2, name: loc.name, where: { type: 'program', path: loc.path }, line: loc.line, subtle: false });
  return frames;
}

/** The thread a frame id names; the last stop's thread for none or a stale one. */
export function threadOfFrame(rt: ReplayRuntime | undefined, frameId: number | undefined): number {
  const n = rt?.timeline.threads.length ?? 0;
  const t = frameId !== undefined && Number.isInteger(frameId) && frameId > 0 ? (frameId - 1) >> 1 : -1;
  return t >= 0 && t < n ? t : rt?.lastStop.thread ?? 0;
}
