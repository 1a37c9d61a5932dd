// move: the debugger's moves on the held runtime (debug-adapter/runtime.ts), so an agent steps
// exactly as a developer does in VS Code: over records, per thread or globally, both ways, and
// continue / reverse continue stop at the panic, at a divergence, or where a condition holds.
import { BreakpointTable } from '../debug-adapter/breakpoints';
import type { Stop } from '../debug-adapter/runtime';
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { recordJson } from './record-json';
import { stateRecord, stopJson, threadIndexOf } from './state';

export const MOVES = [
  'step_in', 'step_back_in', 'next', 'step_back', 'step_out', 'step_back_out',
  'continue', 'reverse_continue', 'goto', 'to_panic', 'to_start', 'to_end',
] as const;
export type MoveAction = (typeof MOVES)[number];

export interface Until {
  /** A function breakpoint: a record kind (`sched`, `redis`, `http@1`), `goroutine ID`, `task N` or `panic`. */
  breakpoint?: string;
  /** An expression over the record and the variables (`idx > 10`, `kind == "io"`). */
  condition?: string;
  /** A line of the trace text (or of the capsule's decoded document). */
  line?: number;
  /** A data breakpoint: stop where this variable's value changes... */
  variable?: string;
  /** ...on this thread (default: the thread of the last stop). */
  thread?: string;
}

/**
 * A run that looks at many candidates (a condition on every record of a 10M-op trace) pauses after
 * this long, where it got to, rather than outlive the client's request timeout; calling continue
 * again goes on from there. A cancelled request pauses it at once.
 */
export const MOVE_TIME_BUDGET_MS = 10_000;

export interface MoveRequest {
  action: MoveAction;
  thread?: string;
  position?: number;
  record?: number;
  count?: number;
  until?: Until;
}

export async function move(held: HeldRecording, req: MoveRequest, signal?: AbortSignal, progress?: (message: string) => void): Promise<object> {
  const { runtime, recording: rec } = held;
  const tl = rec.timeline;
  const thread = (): number => (req.thread !== undefined ? threadIndexOf(held, req.thread) : runtime.lastStop.thread);
  if (req.until && req.action !== 'continue' && req.action !== 'reverse_continue') {
    throw new RecordingError('usage', `\`until\` goes with continue or reverse_continue, not ${req.action}`);
  }
  let stop: Stop;
  switch (req.action) {
    case 'goto': {
      if (req.position === undefined && req.record === undefined) throw new RecordingError('usage', 'goto needs a position (schedule ops or effects done) or a record');
      const m = stateRecord(held, req);
      stop = runtime.jump(m, { reason: 'goto', thread: m >= 0 && m < tl.recordCount ? tl.thread[m] : runtime.lastStop.thread, description: `Went to position ${runtime.positionAt(m)}` });
      break;
    }
    case 'to_panic': {
      const p = rec.panic;
      if (!p) throw new RecordingError('usage', `${tl.file}: no panic is known for this recording (${tl.format === 'mflrr' && !rec.verify ? 'machin did not run: start the server with --toolchain' : 'the run did not panic'})`, { file: tl.file });
      stop = runtime.jump(tl.frontier(p.position) - 1, { reason: 'exception', exception: 'panic', thread: p.thread, description: `Panic: ${p.message}`, text: p.message });
      break;
    }
    case 'to_start':
      stop = runtime.jump(-1, { reason: 'start', thread: tl.recordCount > 0 ? tl.thread[0] : 0, description: 'Start of the recording' });
      break;
    case 'to_end':
      stop = runtime.jump(tl.recordCount, runtime.endStop());
      break;
    case 'continue':
    case 'reverse_continue':
      stop = await withUntil(held, req.until, () => budgeted(held, signal, progress, () => (req.action === 'continue' ? runtime.continueForward() : runtime.reverseContinue())));
      if (req.until?.condition && req.until.breakpoint === undefined && req.until.line === undefined && req.until.variable === undefined && stop.reason === 'function breakpoint') {
        // The condition rode on one breakpoint per kind: say what the agent asked for.
        stop = runtime.lastStop = { ...stop, reason: 'breakpoint', description: `Condition \`${req.until.condition}\` holds (${rec.describe(runtime.record).summary})` };
      }
      break;
    default: {
      const times = req.count ?? 1;
      stop = runtime.lastStop;
      for (let i = 0; i < times; i++) {
        const before = runtime.record;
        stop = await step(held, req.action, thread);
        if (runtime.record === before || stop.reason === 'exception' || stop.reason === 'end' || stop.reason === 'start') break;
      }
    }
  }
  const m = runtime.record;
  return {
    stop: stopJson(held),
    position: runtime.position,
    record: m,
    atStart: m < 0,
    atEnd: m >= tl.recordCount,
    justDone: m >= 0 && m < tl.recordCount ? recordJson(rec, m) : null,
    ...(stop.reason === 'end' && stop.text ? { end: stop.text } : {}),
    ...(stop.reason === 'pause' ? { note: `paused after ${MOVE_TIME_BUDGET_MS / 1000} s (or on cancel) with no stop met yet; ${req.action} again to go on from here` } : {}),
  };
}

/** Run a move with the time budget and the request's cancel: both pause the runtime. A long one reports progress each second. */
async function budgeted(held: HeldRecording, signal: AbortSignal | undefined, progress: ((message: string) => void) | undefined, go: () => Promise<Stop>): Promise<Stop> {
  const pause = () => held.runtime.pause();
  const timer = setTimeout(pause, MOVE_TIME_BUDGET_MS);
  const started = Date.now();
  const beat = progress ? setInterval(() => progress(`searching for a stop: ${Math.round((Date.now() - started) / 1000)} s of at most ${MOVE_TIME_BUDGET_MS / 1000} s`), 1000) : undefined;
  signal?.addEventListener('abort', pause);
  try {
    return await go();
  } finally {
    clearTimeout(timer);
    if (beat) clearInterval(beat);
    signal?.removeEventListener('abort', pause);
  }
}

function step(held: HeldRecording, action: MoveAction, thread: () => number): Promise<Stop> {
  const r = held.runtime;
  switch (action) {
    case 'step_in': return r.stepIn();
    case 'step_back_in': return r.stepBackIn();
    case 'next': return r.next(thread());
    case 'step_back': return r.stepBack(thread());
    case 'step_out': return r.stepOut(thread());
    default: return r.stepBackOut(thread());
  }
}

/** Run `go` with the breakpoints `until` names set, and cleared again afterwards. */
async function withUntil(held: HeldRecording, until: Until | undefined, go: () => Promise<Stop>): Promise<Stop> {
  const bps = held.runtime.breakpoints;
  const tl = held.recording.timeline;
  if (until?.thread !== undefined && until.variable === undefined) throw new RecordingError('usage', '`until.thread` goes with `until.variable` (the thread whose variable is watched)');
  if (!until || (until.breakpoint === undefined && until.condition === undefined && until.line === undefined && until.variable === undefined)) return go();
  const condition = until.condition;
  try {
    if (until.variable !== undefined) {
      if (!held.recording.histories) {
        throw new RecordingError('toolchain-missing', `${tl.file}: no value histories, so no value can be watched: they come from machin (start the server with --toolchain)`, { file: tl.file });
      }
      const t = until.thread !== undefined ? threadIndexOf(held, until.thread) : held.runtime.lastStop.thread;
      const [res] = bps.setDataBreakpoints([{ dataId: BreakpointTable.dataId(tl.threads[t].id, until.variable), condition }]);
      if (!res.verified) throw new RecordingError('usage', `${tl.file}: ${res.message}`, { file: tl.file });
      if (!held.recording.histories.entries(until.variable).some((e) => e.thread === t)) {
        throw new RecordingError('usage', `${tl.file}: \`${until.variable}\` takes no value on ${tl.threads[t].id} (variables: ${held.recording.histories.names.slice(0, 20).join(', ')})`, { file: tl.file });
      }
    }
    if (until.line !== undefined) {
      const [res] = bps.setLineBreakpoints([{ line: until.line, condition }]);
      if (!res.verified) throw new RecordingError('usage', `${tl.file}: ${res.message}`, { file: tl.file, line: until.line });
    }
    if (until.breakpoint !== undefined || (until.line === undefined && until.variable === undefined && condition !== undefined)) {
      // A condition alone is checked on every record: one function breakpoint per kind.
      const names = until.breakpoint !== undefined ? [until.breakpoint] : tl.kinds.filter((_, k) => hasKind(tl.kind, k));
      const results = bps.setFunctionBreakpoints(names.map((name) => ({ name, condition })));
      const bad = results.find((x) => !x.verified);
      if (bad) throw new RecordingError('usage', `${tl.file}: ${bad.message}`, { file: tl.file });
    }
    return await go();
  } finally {
    bps.setLineBreakpoints([]);
    bps.setFunctionBreakpoints([]);
    bps.setDataBreakpoints([]);
  }
}

function hasKind(kinds: Uint8Array, k: number): boolean {
  return kinds.includes(k);
}
