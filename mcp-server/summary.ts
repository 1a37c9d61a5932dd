// open_recording's answer: what `frozen-run inspect --json` says of the recording, with the parts
// that grow with the run paged (threads, the causal chain) and a capsule's effects left to
// list_records. Computed once per held recording.
import { frameLocals, noStatementsWhy, panicStatement } from '../debug-adapter/statement-place';
import type { HeldRecording } from './held-recordings';
import { forMcp } from './mcp-wording';
import { page } from './paging';
import { panicRecord, runtimeAt } from './runtime-at';

export const THREADS_SHOWN = 50;
export const CHAIN_SHOWN = 100;

const cache = new WeakMap<HeldRecording['recording'], Record<string, unknown>>();

/** The inspect document without its per-record lists, cached per recording. */
function inspectFacts(held: HeldRecording): Record<string, unknown> {
  const rec = held.recording;
  let facts = cache.get(rec);
  if (!facts) {
    const doc = rec.inspectJson(false) as Record<string, unknown>;
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
    // The engine's warnings say how the editor and the CLI fix things; here, how the server does.
    ...(Array.isArray(facts.warnings) ? { warnings: (facts.warnings as Array<{ message: string }>).map((w) => ({ ...w, message: forMcp(w.message) })) } : {}),
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
  // Each frame with the values it holds at the panic, as get_state's frames (and `frozen-run where --json`).
  const rt = at ? runtimeAt(held, { record: panicRecord(rec)! }) : null;
  return {
    message: p.message,
    thread: tl.threads[p.thread].id,
    position: p.position,
    record: panicRecord(rec),
    source: p.source,
    statement: at?.statement ?? null,
    frames: at ? at.frames.map((f, i) => ({ ...f, ...frameLocals(rt!, p.thread, i) })) : [],
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
    list = h.names.filter((n) => h.count(n) > 0);
    names.set(rec, list);
  }
  return list;
}

function pageOf<T>(xs: T[], offset: number | undefined, limit: number) {
  return page(xs.length, offset, limit, (a, b) => xs.slice(a, b));
}

/** A run of one thread's steps in a row in the causal chain: `{thread, repeat}` for two or more. */
export type ChainEntry = string | { thread: string; repeat: number };

/**
 * The causal chain as the causal_chain tool answers it: from step `offset`, at most `limit`
 * entries, a run of steps by one thread given once with its count (a 10M-step chain of one busy
 * goroutine is one entry). `offset`, `nextOffset` and `length` count steps.
 */
export function chainJson(held: HeldRecording, offset: number | undefined, limit: number, position?: number) {
  const rec = held.recording;
  const tl = rec.timeline;
  const chain = position === undefined ? rec.panic?.causalChain ?? new Uint32Array(0) : tl.stepThreads(position);
  const from = Math.min(offset ?? 0, chain.length);
  const threads: ChainEntry[] = [];
  let i = from;
  while (i < chain.length && threads.length < limit) {
    const t = chain[i];
    let j = i + 1;
    while (j < chain.length && chain[j] === t) j++;
    const id = tl.threads[t].id;
    threads.push(j - i === 1 ? id : { thread: id, repeat: j - i });
    i = j;
  }
  return { to: position ?? rec.panic?.position ?? 0, length: chain.length, offset: from, threads, nextOffset: i < chain.length ? i : null };
}

/** The chain's entries as one thread id per step (for tests and readers that want it flat). */
export function expandChain(entries: ChainEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (typeof e === 'string') out.push(e);
    else for (let k = 0; k < e.repeat; k++) out.push(e.thread);
  }
  return out;
}
