// open_recording's answer: what `frozen-run inspect --json` says of the recording, with the parts
// that grow with the run paged (threads, the causal chain) and a capsule's effects left to
// list_records. Computed once per held recording.
import { noStatementsWhy, panicStatement } from '../debug-adapter/statement-place';
import { traceInspectJson } from '../replay-engine/cli/inspect-trace';
import { MflrrRecording } from '../replay-engine/mflrr/recording';
import { capsuleInspectJson } from '../replay-engine/tcap/inspect';
import type { HeldRecording } from './held-recordings';
import { page } from './paging';

export const THREADS_SHOWN = 50;
export const CHAIN_SHOWN = 100;

const cache = new WeakMap<HeldRecording['recording'], Record<string, unknown>>();

/** The inspect document without its per-record lists, cached per recording. */
function inspectFacts(held: HeldRecording): Record<string, unknown> {
  const rec = held.recording;
  let facts = cache.get(rec);
  if (!facts) {
    const doc = (rec instanceof MflrrRecording ? traceInspectJson(rec) : capsuleInspectJson(rec, false)) as unknown as Record<string, unknown>;
    const { effects: _effects, causalChain: _chain, ...rest } = doc;
    facts = rest;
    cache.set(rec, facts);
  }
  return facts;
}

export const VARIABLES_SHOWN = 100;

export interface SummaryPaging {
  threadsOffset?: number;
  threadsLimit?: number;
  variablesOffset?: number;
}

export function summaryJson(held: HeldRecording, toolchain: boolean, paging: SummaryPaging = {}): object {
  const rec = held.recording;
  const { threads, ...facts } = inspectFacts(held) as { threads: unknown[] } & Record<string, unknown>;
  const tl = rec.timeline;
  const histories = rec.histories;
  return {
    recording: held.handle,
    ...facts,
    threadCount: threads.length,
    threads: page(threads.length, paging.threadsOffset, paging.threadsLimit ?? THREADS_SHOWN, (a, b) => threads.slice(a, b)),
    // The same for both formats: where to go (move to_panic) and who panicked.
    panicAt: rec.panic ? panicAtJson(held) : null,
    causalChain: rec.panic ? chainJson(held, 0, CHAIN_SHOWN) : null,
    // The names with a value history (a capsule has one per distinct effect: up to 10,000).
    variables: histories ? pageOf(variableNames(held), paging.variablesOffset, VARIABLES_SHOWN) : null,
    toolchain: toolchain ? 'machin may run (--toolchain)' : 'no toolchain runs (start the server with --toolchain for machin\'s panic, verify and value histories)',
    cursor: { position: held.runtime.position, record: held.runtime.record, of: { positions: tl.stepCount, records: tl.recordCount } },
  };
}

/** Where the run panicked: its goroutine and position, and at source level the statement that panicked with the stack there. */
function panicAtJson(held: HeldRecording): object {
  const rec = held.recording;
  const p = rec.panic!;
  const tl = rec.timeline;
  const at = panicStatement(held.runtime);
  const why = at ? null : noStatementsWhy(rec);
  return {
    message: p.message,
    thread: tl.threads[p.thread].id,
    position: p.position,
    record: tl.frontier(p.position) - 1,
    source: p.source,
    statement: at?.statement ?? null,
    frames: at?.frames ?? [],
    ...(at && at.total > at.frames.length ? { framesTotal: at.total } : {}),
    ...(why ? { statementWhy: why } : {}),
  };
}

const names = new WeakMap<HeldRecording['recording'], string[]>();

function variableNames(held: HeldRecording): string[] {
  const rec = held.recording;
  let list = names.get(rec);
  if (!list) {
    const h = rec.histories!;
    list = h.names.filter((n) => h.entries(n).length > 0);
    names.set(rec, list);
  }
  return list;
}

function pageOf<T>(xs: T[], offset: number | undefined, limit: number) {
  return page(xs.length, offset, limit, (a, b) => xs.slice(a, b));
}

/** The causal chain as the causal_chain tool answers it. */
export function chainJson(held: HeldRecording, offset: number | undefined, limit: number, position?: number) {
  const p = chainPage(held, offset, limit, position);
  return { to: position ?? held.recording.panic?.position ?? 0, length: p.total, offset: p.offset, threads: p.items, nextOffset: p.nextOffset };
}

/** A page of the causal chain to the panic (or to `position`): the thread id of each step. */
export function chainPage(held: HeldRecording, offset: number | undefined, limit: number, position?: number) {
  const rec = held.recording;
  const tl = rec.timeline;
  const chain = position === undefined ? rec.panic?.causalChain ?? new Uint32Array(0) : tl.stepThreads(position);
  return page(chain.length, offset, limit, (a, b) => Array.from(chain.subarray(a, b), (t) => tl.threads[t].id));
}
