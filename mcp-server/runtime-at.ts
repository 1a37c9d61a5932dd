// The runtime standing where a tool's question is asked: the held one (the agent's cursor) when
// no position or record is named, else a second runtime per recording moved there, so that a
// question about another moment (get_state, get_source, evaluate at a position) answers as the
// debugger would standing there, and the agent's cursor and breakpoints never move.
//
// A position or record is a record state (goto's), which stands before the statements placed at
// its position; but the panic's own position or record (open_recording's `panicAt`) names the
// panic, so there the runtime stands where `move to_panic` does: on the statement that panicked.
import { ReplayRuntime } from '../debug-adapter/runtime';
import type { Recording } from '../replay-engine/model/recording';
import type { HeldRecording } from './held-recordings';
import { stateRecord } from './state';

/** The second runtime of each recording. */
const scratch = new WeakMap<Recording, ReplayRuntime>();

/** The runtime standing where a query names (position / record), or the held one for the cursor. */
export function runtimeAt(held: HeldRecording, q: { position?: number; record?: number }): ReplayRuntime {
  if (q.position === undefined && q.record === undefined) return held.runtime;
  const m = stateRecord(held, q);
  let rt = scratch.get(held.recording);
  if (!rt) scratch.set(held.recording, (rt = new ReplayRuntime(held.recording, { log: () => undefined })));
  if (m === panicRecord(held.recording) && panicSeq(rt) !== null) rt.toPanic();
  else rt.goto({ record: m });
  return rt;
}

/** The record state the panic's position names (`panicAt.record`), or null without a panic. */
export function panicRecord(rec: Recording): number | null {
  return rec.panic ? rec.timeline.frontier(rec.panic.position) - 1 : null;
}

/** The seq (in the one order of statements) of the statement that panicked: its goroutine's last; null without statements or panic. */
function panicSeq(rt: ReplayRuntime): number | null {
  const s = rt.statements;
  const p = rt.recording.panic;
  if (!s || !p) return null;
  const e = s.lastEvent(p.thread);
  return e < 0 ? null : s.seqOf(p.thread, e);
}

/**
 * Whether the run has panicked where `rt` stands (null: no panic known). At source level the
 * statement decides: the panic has happened once the statement that panicked has been reached;
 * else the record state m is at or past the panic's record.
 */
export function panickedAt(rt: ReplayRuntime, m: number): boolean | null {
  const p = rt.recording.panic;
  if (!p) return null;
  const q = panicSeq(rt);
  if (q !== null) return (rt.statementCursor() ?? -1) >= q;
  const tl = rt.timeline;
  return rt.positionAt(m) >= p.position && m >= tl.frontier(p.position) - 1;
}
