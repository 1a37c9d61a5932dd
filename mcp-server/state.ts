// get_state's answer: the run as of one moment. For each goroutine or task (paged), the record it
// last did, the values its watched variables hold then, and the I/O it has consumed so far.
import { RuntimeRefusal, type ReplayRuntime } from '../debug-adapter/runtime';
import { frameLocals, noStatementsWhy, programStack, statementPlace, type FrameLocals, type StatementPlace } from '../debug-adapter/statement-place';
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { page } from './paging';
import { panickedAt, runtimeAt } from './runtime-at';
import { recordJson, type RecordJson } from './record-json';
import { valuesAt } from './values-at';

export interface StateQuery {
  position?: number;
  record?: number;
  thread?: string;
  threadsOffset?: number;
  threadsLimit: number;
  ioLimit: number;
  valuesLimit: number;
  /** Only these variables. */
  variables?: string[];
  detail: boolean;
}

/** The record state m (-1 start .. recordCount end) a query names, by the runtime's rule (goto's); the runtime's own when none. */
export function stateRecord(held: HeldRecording, q: { position?: number; record?: number }): number {
  const { runtime } = held;
  if (q.record === undefined && q.position === undefined) return runtime.record;
  try {
    return runtime.targetOf({ record: q.record, position: q.position }, 'goto');
  } catch (err) {
    if (err instanceof RuntimeRefusal) throw new RecordingError('usage', `${runtime.timeline.file}: ${refusalText(err)}`, { file: runtime.timeline.file });
    throw err;
  }
}

/** A runtime refusal's sentence as part of a tool error (`file: position 5 is past the end ...`). */
export function refusalText(err: RuntimeRefusal): string {
  return err.message.replace(/^[A-Z](?=[a-z ])/, (c) => c.toLowerCase());
}

export function threadIndexOf(held: HeldRecording, id: string): number {
  const tl = held.recording.timeline;
  let t = tl.threadIndex(id);
  if (t < 0) t = tl.threads.findIndex((x) => x.label === id && x.label !== '');
  if (t < 0) {
    const what = tl.units.thread;
    const some = tl.threads.slice(0, 12).map((x) => x.id).join(', ');
    throw new RecordingError('usage', `${tl.file}: no ${what} ${id} in this recording (it has ${some}${tl.threads.length > 12 ? ', …' : ''})`, { file: tl.file });
  }
  return t;
}

export function stateJson(held: HeldRecording, q: StateQuery): object {
  const { recording: rec, runtime } = held;
  const tl = rec.timeline;
  const m = stateRecord(held, q);
  const p = runtime.positionAt(m);
  const current = q.position === undefined && q.record === undefined;
  const histories = rec.histories;
  const io = held.io();
  const last = Math.min(m, tl.recordCount - 1);
  // At source level, the runtime standing there: the cursor's own (it may stand at a statement), else
  // one moved to the record state (to the statement that panicked when the record is the panic's).
  const at = current || !runtime.statements ? runtime : runtimeAt(held, { record: m });
  const thread = (t: number) => {
    const r = m < 0 ? -1 : runtime.threads.lastRecordAtOrBefore(t, last);
    const { values, total, thisReplayOnly } = histories ? valuesAt(histories, t, p, q.valuesLimit, q.variables) : { values: {}, total: 0, thisReplayOnly: undefined };
    const consumed = m < 0 ? 0 : io.countUpTo(t, last);
    const shown: RecordJson[] = io.slice(t, Math.max(0, consumed - q.ioLimit), consumed).map((x) => recordJson(rec, x, q.detail));
    return {
      id: tl.threads[t].id,
      label: tl.threads[t].label,
      current: r < 0 ? null : recordJson(rec, r, q.detail),
      ...whereJson(at, t, true),
      values,
      ...(thisReplayOnly ? { thisReplayOnly } : {}),
      ...(total > Object.keys(values).length ? { valuesTotal: total } : {}),
      io: { consumed, last: shown },
    };
  };
  const only = q.thread === undefined ? -1 : threadIndexOf(held, q.thread);
  const threads = only >= 0 ? page(1, 0, 1, () => [thread(only)]) : page(tl.threads.length, q.threadsOffset, q.threadsLimit, (a, b) => range(a, b).map(thread));
  return {
    position: p,
    record: m,
    atStart: m < 0,
    atEnd: m >= tl.recordCount,
    of: { positions: tl.stepCount, records: tl.recordCount },
    ...(current ? { lastStop: stopJson(held) } : {}),
    justDone: m >= 0 && m < tl.recordCount ? recordJson(rec, m, q.detail) : null,
    panicked: panickedAt(at, m),
    ...(runtime.statements ? {} : { statements: noStatementsWhy(rec) }),
    values: histories ? 'as of this position, per thread' : tl.traits.toolchain !== null ? 'none: value histories come from machin (the server started with --toolchain and machin at hand; the summary\'s warnings say why not)' : 'none',
    threads,
  };
}

/** The last stop, with the statement and the program stack of its thread (`description`: the client's own words for it). */
export function stopJson(held: HeldRecording, description?: string): object {
  const s = held.runtime.lastStop;
  const tl = held.recording.timeline;
  return {
    reason: s.reason,
    description: description ?? s.description,
    ...(s.text ? { text: s.text } : {}),
    ...(s.exception ? { exception: s.exception } : {}),
    thread: tl.threads[s.thread]?.id ?? null,
    ...(tl.threads[s.thread] ? whereJson(held.runtime, s.thread) : {}),
  };
}

/**
 * Where thread t is in the program as `rt` stands: its statement (`location`, null before its
 * first or without statements) and its stack, innermost first; `locals`: each frame with the
 * values it holds there (its function's own names and the globals, as the debugger's frame shows).
 */
export function whereJson(rt: ReplayRuntime, t: number, locals = false): { location: StatementPlace | null; frames: Array<StatementPlace & Partial<FrameLocals>>; framesTotal?: number } {
  const location = statementPlace(rt, t);
  const { frames, total } = programStack(rt, t);
  const shown = locals ? frames.map((f, i) => ({ ...f, ...frameLocals(rt, t, i) })) : frames;
  return { location, frames: shown, ...(total > frames.length ? { framesTotal: total } : {}) };
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i < b; i++) out.push(i);
  return out;
}
