// What the timeline header says about how far a replay can be trusted: machin replay --verify's
// verdict with its numbers, and, when machin could not run, one line on what it would add.
import type { Recording } from '../replay-engine/model/recording';
import { panicVerdictOf, verifyCountNote } from '../replay-engine/model/run-facts';
import type { VerdictMsg } from '../webview-ui/protocol';

export function verdictOf(rec: Recording): VerdictMsg | undefined {
  const v = rec.verify;
  if (!v) return panicVerdictMsg(rec);
  const io = v.ioUnderrun ? 'I/O ran short (underrun)' : 'no I/O underrun';
  const note = verifyCountNote(v);
  return { verdict: v.verdict, detail: `${v.scheduleDone}/${v.scheduleTotal} ops replayed, ${io}, boundary ${v.boundary}${note ? `: ${note}` : ''}` };
}

/** The engine's panic verdict (model/run-facts.ts: the CLI's inspect says the same), as the header shows it. */
function panicVerdictMsg(rec: Recording): VerdictMsg | undefined {
  const v = panicVerdictOf(rec);
  return v ? { label: 'replay', verdict: v.verdict, tone: v.tone, detail: v.detail } : undefined;
}

/** Warning codes that mean machin itself was not there (as opposed to failing on this trace). */
const NO_MACHIN = new Set(['toolchain-missing']);

/** The header's one line when machin was looked for and not found; undefined otherwise. */
export function toolchainNoteOf(rec: Recording): string | undefined {
  if (rec.timeline.traits.endRecorded || rec.verify || rec.panic?.source === 'machin') return undefined;
  if (!rec.warnings.some((w) => NO_MACHIN.has(w.code))) return undefined;
  return 'No machin: with it Frozen Run adds the panic and its causal chain, the verify verdict (is this replay faithful?), every variable\'s values, and stepping through the program\'s statements.';
}
