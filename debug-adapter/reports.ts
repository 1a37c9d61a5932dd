// The bodies of the adapter's custom events (debug-adapter/contract.ts), built from the runtime
// and the recording: what the toolchain gave, the threads and their labels, the panic's causal
// chain, and where the cursor is with the watched values there.
import type { Recording } from '../replay-engine/model/recording';
import type { CausalChainEventBody, CursorEventBody, ThreadsEventBody, ToolchainEventBody, WatchedAtCursor } from './contract';
import type { ReplayRuntime, Stop } from './runtime';

/** Causal chains longer than this are sent as a length only (the timeline asks for the steps in bulk). */
const CHAIN_STEPS_SENT = 10_000;

/** After the toolchain ran (or was meant to): done with a summary, or unavailable and why. */
export function toolchainOutcome(rec: Recording): ToolchainEventBody {
  const opened = rec.timeline.traits.opened;
  if (opened) return { state: 'done', message: opened };
  if (rec.panic === null && rec.verify === null && rec.histories === null) {
    const why = rec.warnings.filter((w) => /toolchain|machin|program/.test(w.code)).map((w) => w.message).join('; ');
    return { state: 'unavailable', message: why || 'The toolchain added nothing: showing the recording only' };
  }
  const parts: string[] = [];
  parts.push(rec.panic ? `panic after ${rec.panic.position} ops: ${rec.panic.message}` : 'no panic');
  if (rec.verify) parts.push(`verify ${rec.verify.verdict}`);
  if (rec.histories) parts.push(`${rec.histories.names.length} watched variable(s)`);
  return { state: 'done', message: `machin replay: ${parts.join(', ')}` };
}

/** Threads named in one threads event at most (a trace may have a million goroutines). */
const THREADS_SENT = 10_000;

export function threadsBody(rec: Recording): ThreadsEventBody {
  const threads: ThreadsEventBody['threads'] = [];
  const all = rec.timeline.threads;
  for (let t = 0; t < all.length && threads.length < THREADS_SENT; t++) if (all[t].label) threads.push({ dapId: t + 1, id: all[t].id, label: all[t].label });
  return { threads, threadCount: all.length };
}

export function causalChainBody(rec: Recording): CausalChainEventBody | null {
  const p = rec.panic;
  if (!p) return null;
  const threads = rec.timeline.threads;
  return {
    position: p.position,
    thread: threads[p.thread].id,
    threadId: p.thread + 1,
    message: p.message,
    source: p.source,
    length: p.causalChain.length,
    steps: p.causalChain.length <= CHAIN_STEPS_SENT ? Array.from(p.causalChain, (t) => threads[t].id) : undefined,
  };
}

export function cursorBody(rt: ReplayRuntime, stop: Stop): CursorEventBody {
  const tl = rt.timeline;
  const r = rt.record;
  const last = Math.min(r, tl.recordCount - 1);
  const info = tl.threads[stop.thread];
  return {
    position: rt.position,
    step: last >= 0 ? tl.stepOf(last) : -1,
    unit: tl.units.step,
    threadUnit: tl.units.thread,
    total: tl.stepCount,
    record: last,
    line: r >= 0 && tl.recordCount > 0 ? tl.lineOf(last) : null,
    atStart: rt.atBeginning,
    atEnd: r >= tl.recordCount,
    thread: info?.id ?? null,
    threadId: stop.thread + 1,
    threadLabel: info?.label ?? '',
    reason: stop.reason,
    description: stop.description,
    exception: stop.exception ?? null,
    watched: watchedAt(rt, stop.thread),
    statementSeq: rt.statementCursor(),
  };
}

/** Thread t's watched values as of the cursor, with the program place its current (or first) record runs in. */
function watchedAt(rt: ReplayRuntime, t: number): WatchedAtCursor | null {
  const rec = rt.recording;
  const h = rec.histories;
  if (!h || !rec.sourceLocation || t < 0 || t >= rt.timeline.threads.length) return null;
  const current = rt.currentRecordOf(t);
  const r = current >= 0 ? current : rt.threads.firstRecord(t);
  const loc = r >= 0 ? rec.sourceLocation(r) : undefined;
  if (!loc) return null;
  const where = { programPath: loc.path, functionLine: Math.max(0, loc.line - 1) };
  // At source level every frame's own values, each beside the statement that stored it.
  const onStack = rt.values.valuesOnStack(t, h.names);
  if (onStack) return { ...where, ...onStack };
  const entries = rt.values.entriesInFrame(t, 0, h.names);
  const marked = [...entries].filter(([, e]) => e.thisReplayOnly).map(([n]) => n);
  return { ...where, values: Object.fromEntries([...entries].map(([n, e]) => [n, e.value])), ...(marked.length ? { thisReplayOnly: marked } : {}) };
}

/** DAP has no reason for the two ends of a recording: they are steps whose description says which end. */
export function dapReason(stop: Stop): string {
  return stop.reason === 'start' || stop.reason === 'end' ? 'step' : stop.reason;
}
