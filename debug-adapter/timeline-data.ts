// `frozenRun/timeline`: the timeline in bulk for the webview, as msgpackr bytes (base64 in the DAP
// body), in chunks so that a 10,000,000-op trace never becomes one message. Per-step arrays are
// typed arrays (msgpackr keeps their type), so the webview can draw from them directly.
import { Packr } from 'msgpackr';

/** moreTypes: typed arrays keep their type (a plain `unpack` gives back Uint16Array, not bytes). */
const packr = new Packr({ moreTypes: true });
import type { Recording } from '../replay-engine/model/recording';
import type { Divergence } from './breakpoints';
import type { DivergenceBody } from './contract';
import { divergenceBody } from './divergence';

/** Largest chunk one request returns (steps); a client asks again with `from` for more. */
export const MAX_CHUNK = 1_000_000;
/** Most threads one body lists (750,000 goroutines were 45 MB of JSON in every chunk); `threadsFrom` pages. */
export const MAX_THREADS_PER_BODY = 10_000;

export interface TimelineRequest {
  /** First step of the chunk (default 0). */
  from?: number;
  /** Number of steps (default and maximum MAX_CHUNK). */
  count?: number;
  /** First thread of `threads` (default 0); at most MAX_THREADS_PER_BODY are listed from there. */
  threadsFrom?: number;
}

/** Everything small about the run, sent in every chunk's body as plain JSON. */
export interface TimelineSummary {
  version: 1;
  format: string;
  file: string;
  recordCount: number;
  stepCount: number;
  kinds: string[];
  /** Threads threadsFrom.. (at most MAX_THREADS_PER_BODY); `threadCount` is how many there are in all. */
  threads: Array<{ id: string; label: string; name: string; dapId: number }>;
  threadCount: number;
  threadsFrom: number;
  facts: Array<{ key: string; label: string; value: string }>;
  /** The causal chain of the panic is the thread of every step before `position` (steps 0..position-1). */
  panic: { message: string; thread: string; position: number; source: string; causalChainLength: number } | null;
  verify: { verdict: string; scheduleDone: number; scheduleTotal: number } | null;
  /** Where replaying diverged (machin --verify, or a frozenRun/divergence from a replay against a build). */
  divergence: DivergenceBody['divergence'];
  bestEffort: boolean;
  /** 1-based line of record 0; a record's line is firstRecordLine + record unless `lineGaps`. */
  firstRecordLine: number;
  /** True when some records sit after blank or skipped lines: chunks then carry a `line` array. */
  lineGaps: boolean;
}

export interface TimelineChunkBody extends TimelineSummary {
  from: number;
  count: number;
  /** base64 of msgpackr({ from, count, thread, kind, record, line? }) for steps from..from+count-1. */
  data: string;
}

export function threadName(rec: Recording, t: number): string {
  const tl = rec.timeline;
  if (tl.traits.threadName === 'id') {
    const info = tl.threads[t];
    return info.label ? `${tl.units.thread} ${info.id} (${info.label})` : `${tl.units.thread} ${info.id}`;
  }
  return tl.label(t);
}

export function timelineSummary(rec: Recording, divergence: Divergence | null = null, threadsFrom = 0): TimelineSummary {
  const tl = rec.timeline;
  const first = Math.max(0, Math.min(tl.threads.length, Number.isFinite(threadsFrom) ? Math.trunc(threadsFrom) : 0));
  const threads: TimelineSummary['threads'] = [];
  for (let t = first; t < tl.threads.length && threads.length < MAX_THREADS_PER_BODY; t++) {
    threads.push({ id: tl.threads[t].id, label: tl.threads[t].label, name: threadName(rec, t), dapId: t + 1 });
  }
  return {
    version: 1,
    format: tl.format,
    file: tl.file,
    recordCount: tl.recordCount,
    stepCount: tl.stepCount,
    kinds: tl.kinds.slice(),
    threads,
    threadCount: tl.threads.length,
    threadsFrom: first,
    facts: tl.facts.map((f) => ({ ...f })),
    panic: rec.panic
      ? { message: rec.panic.message, thread: tl.threads[rec.panic.thread].id, position: rec.panic.position, source: rec.panic.source, causalChainLength: rec.panic.causalChain.length }
      : null,
    verify: rec.verify ? { verdict: rec.verify.verdict, scheduleDone: rec.verify.scheduleDone, scheduleTotal: rec.verify.scheduleTotal } : null,
    divergence: divergenceBody(rec, divergence).divergence,
    bestEffort: rec.bestEffort,
    firstRecordLine: tl.firstRecordLine,
    lineGaps: tl.lineGaps.length > 0,
  };
}

/**
 * The packed arrays of a chunk: per step k in [from, from+count): `thread` (thread index), `kind`
 * (kind index), `record` (record index), and `line` (1-based line of the step's record) only when
 * the lines have gaps. 7 bytes a step: a 1,000,000-step chunk is about 9 MB of base64.
 */
export function timelineChunk(rec: Recording, req: TimelineRequest, divergence: Divergence | null = null): TimelineChunkBody {
  const tl = rec.timeline;
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : d);
  const from = Math.max(0, Math.min(tl.stepCount, num(req.from, 0)));
  const count = Math.max(0, Math.min(tl.stepCount - from, num(req.count, MAX_CHUNK), MAX_CHUNK));
  const wide = tl.threads.length > 0xffff;
  const thread = wide ? new Uint32Array(count) : new Uint16Array(count);
  const kind = new Uint8Array(count);
  const record = new Uint32Array(count);
  const gaps = tl.lineGaps.length > 0;
  const line = gaps ? new Uint32Array(count) : null;
  let r = count > 0 ? tl.recordOfStep(from) : 0;
  for (let i = 0; i < count; i++, r = tl.stepAtOrAfter(r + 1)) {
    record[i] = r;
    thread[i] = tl.thread[r];
    kind[i] = tl.kind[r];
    if (line) line[i] = tl.lineOf(r);
  }
  const packed: Record<string, unknown> = { from, count, thread, kind, record };
  if (line) packed.line = line;
  return { ...timelineSummary(rec, divergence, num(req.threadsFrom, 0)), from, count, data: packr.pack(packed).toString('base64') };
}
