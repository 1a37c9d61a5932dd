// The runtime standing where a tool's question is asked: the held one (the agent's cursor) when
// no position or record is named, else a second runtime per recording moved there, so that a
// question about another moment (get_state, get_source, evaluate at a position) answers as the
// debugger would standing there, and the agent's cursor and breakpoints never move.
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
  rt.goto({ record: m });
  return rt;
}

