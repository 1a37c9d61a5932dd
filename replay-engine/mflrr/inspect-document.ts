// The inspect document of a machin trace (`frozen-run inspect`, the MCP server's open): the JSON
// document (shape in docs/cli.md) and the short summary for a human. Never lists every record.
import type { MflrrRecording } from './recording';
import { piece } from '../byte-sink';
import { JsonSequence } from '../json-chunks';
import { panicVerdictOf, verifyCountNote, programFact, programText, type PanicVerdict } from '../model/run-facts';
import { afterPosition } from '../model/step-words';

export interface TraceInspectJson {
  format: 'mflrr';
  file: string;
  version: number;
  boundary: string | null;
  program: string | null;
  /** The `.mfl` file read and replayed (beside the trace, or --program); null when none was (model/run-facts.ts). */
  programUsed: string | null;
  safe: boolean | null;
  scheduleTotal: number;
  ioTotal: number;
  recordCount: number;
  bestEffort: boolean;
  threads: Array<{ id: string; label: string; ops: number; io: number }>;
  panic: { message: string; thread: string; op: number } | null;
  causalChain: string[] | null;
  verify: { scheduleDone: number; scheduleTotal: number; ioUnderrun: boolean; boundary: string; verdict: string; mainsLastOp?: number } | null;
  /** When machin gives no verdict because the run panicked: what is known instead, and why (model/run-facts.ts). */
  panicVerdict: PanicVerdict | null;
  /** Line of a cut last line that was ignored, or null. */
  cutLine: number | null;
  warnings: Array<{ code: string; message: string; line?: number }>;
}

export function traceInspectJson(rec: MflrrRecording): TraceInspectJson {
  const tl = rec.timeline;
  const { steps, io } = rec.threadCounts();
  const panic = rec.panic;
  return traceFacts(rec, {
    threads: tl.threads.map((t, i) => ({ id: t.id, label: t.label, ops: steps[i], io: io[i] })),
    causalChain: panic ? Array.from(panic.causalChain, (t) => tl.threads[t].id) : null,
  });
}

/**
 * traceInspectJson as a document for jsonChunks: threads and the causal chain (10M entries for a
 * 10M-op run) are sequences, each item made as it is written.
 */
export function traceInspectDocument(rec: MflrrRecording): object {
  const tl = rec.timeline;
  const { steps, io } = rec.threadCounts();
  const panic = rec.panic;
  const threadIds = tl.threads.map((t) => JSON.stringify(t.id));
  // The chain is one item per op (10M for a 10M-op run): each is its thread's id, as bytes made once.
  const idBytes = threadIds.map(piece);
  return traceFacts(rec, {
    threads: new JsonSequence(tl.threads.length, (i) => `{"id":${threadIds[i]},"label":${JSON.stringify(tl.threads[i].label)},"ops":${steps[i]},"io":${io[i]}}`),
    causalChain: panic
      ? new JsonSequence(
          panic.causalChain.length,
          (k) => threadIds[panic.causalChain[k]],
          (k, sink) => sink.put(idBytes[panic.causalChain[k]]),
        )
      : null,
  });
}

/** Every field of `inspect --json` but the two long lists, which the caller makes as it needs them. */
function traceFacts<T, C>(rec: MflrrRecording, lists: { threads: T; causalChain: C }) {
  const tl = rec.timeline;
  const panic = rec.panic;
  return {
    format: 'mflrr' as const,
    file: tl.file,
    version: rec.header.version,
    boundary: rec.header.boundary,
    program: rec.header.program,
    programUsed: programFact(rec).used,
    safe: rec.header.safe,
    scheduleTotal: tl.stepCount,
    ioTotal: rec.ioTotal,
    recordCount: tl.recordCount,
    bestEffort: rec.bestEffort,
    threads: lists.threads,
    panic: panic ? { message: panic.message, thread: tl.threads[panic.thread].id, op: panic.position } : null,
    causalChain: lists.causalChain,
    verify: rec.verify ? { ...rec.verify } : null,
    panicVerdict: panicVerdictOf(rec),
    cutLine: rec.cutLine,
    warnings: rec.warnings.map((w) => (w.line === undefined ? { code: w.code, message: w.message } : { code: w.code, message: w.message, line: w.line })),
  };
}

const MAX_THREADS_SHOWN = 16;
const CHAIN_ENDS = 6;

export function traceInspectText(rec: MflrrRecording): string {
  const j = traceInspectJson(rec);
  const out: string[] = [j.file];
  const safe = j.safe === null ? 'safe flag unknown' : j.safe ? 'built with --safe' : 'built without --safe';
  out.push(`  machin trace (MFLRR ${j.version}), boundary ${j.boundary ?? 'unknown'}, ${safe}`);
  out.push(`  program: ${programText(programFact(rec))}`);
  out.push(`  ${j.scheduleTotal} schedule ops, ${j.ioTotal} I/O records, ${j.threads.length} goroutine${j.threads.length === 1 ? '' : 's'}`);
  const shown = j.threads.slice(0, MAX_THREADS_SHOWN);
  let width = 0; // a loop over what is shown, never Math.max(...all): 130k goroutines are more arguments than a call takes
  for (const t of shown) width = Math.max(width, (t.label ? `${t.id} ${t.label}` : t.id).length);
  for (const t of shown) {
    const name = (t.label ? `${t.id} ${t.label}` : t.id).padEnd(width);
    out.push(`    ${name}  ${String(t.ops).padStart(8)} ops${t.io ? `  ${t.io} I/O` : ''}`);
  }
  if (j.threads.length > MAX_THREADS_SHOWN) out.push(`    … and ${(j.threads.length - MAX_THREADS_SHOWN).toLocaleString('en-US')} more (--json lists all)`);
  if (j.panic) {
    out.push(`  panic: ${j.panic.message}`);
    out.push(`    on goroutine ${j.panic.thread} ${afterPosition(j.panic.op, j.scheduleTotal, 'op')}`);
    out.push(`    causal chain: ${chainText(j.causalChain ?? [])}`);
  }
  if (j.verify) {
    const v = j.verify;
    out.push(`  verify: ${v.verdict} (schedule ${v.scheduleDone}/${v.scheduleTotal}, io-underrun ${v.ioUnderrun ? 'yes' : 'no'}, boundary ${v.boundary})`);
    const note = verifyCountNote(v);
    if (note) out.push(`    ${note}`);
  } else if (j.panicVerdict) {
    out.push(`  verify: ${j.panicVerdict.verdict} (${j.panicVerdict.detail})`);
  }
  if (j.warnings.length) {
    out.push('  warnings:');
    for (const w of j.warnings) out.push(`    ${w.line !== undefined ? `line ${w.line}: ` : ''}${w.message}`);
  }
  return out.join('\n') + '\n';
}

function chainText(chain: string[]): string {
  if (chain.length === 0) return '(empty: no op completed)';
  if (chain.length <= CHAIN_ENDS * 2) return chain.join(' → ');
  return `${chain.slice(0, CHAIN_ENDS).join(' → ')} → … (${chain.length - CHAIN_ENDS * 2} more) … → ${chain.slice(-CHAIN_ENDS).join(' → ')}`;
}
