// What the timeline header says about how far a replay can be trusted: machin replay --verify's
// verdict with its numbers, and, when machin could not run, one line on what it would add.
import type { Recording } from '../replay-engine/model/recording';
import type { VerdictMsg } from '../webview-ui/protocol';

export function verdictOf(rec: Recording): VerdictMsg | undefined {
  const v = rec.verify;
  if (!v) return panicVerdictOf(rec);
  const io = v.ioUnderrun ? 'I/O ran short (underrun)' : 'no I/O underrun';
  return { verdict: v.verdict, detail: `${v.scheduleDone}/${v.scheduleTotal} ops replayed, ${io}, boundary ${v.boundary}` };
}

/**
 * machin prints no verify verdict for a replay that panics (it exits first). What is known then:
 * machin held the program to the recorded schedule and it panicked again, right after the
 * panicking goroutine's own last recorded op: that the panic comes back there is the faithfulness
 * such a replay has. When machin's counts disagree with the trace (a `replay-mismatch` warning)
 * it is not claimed.
 */
function panicVerdictOf(rec: Recording): VerdictMsg | undefined {
  const p = rec.panic;
  if (rec.timeline.format !== 'mflrr' || !p || p.source !== 'machin') return undefined;
  const n = rec.timeline.stepCount;
  const t = rec.timeline.threads[p.thread];
  const who = `goroutine ${t ? t.id : p.thread}${t?.label ? ` ${t.label}` : ''}`;
  const why = 'machin replay --verify gives no verdict for a run that panics (it exits before printing one)';
  const mismatch = rec.warnings.find((w) => w.code === 'replay-mismatch');
  if (mismatch) return { label: 'replay', verdict: 'PANIC, SCHEDULE DIFFERS', tone: 'diverged', detail: `${why}; the replay panicked in ${who}, but ${mismatch.message}` };
  return {
    label: 'replay',
    verdict: 'PANIC REPRODUCED',
    tone: 'faithful',
    detail: `${why}; held to the recorded schedule, the replay panicked again in ${who} right after its last recorded op (stop after ${p.position}/${n} ops): faithful up to the panic`,
  };
}

/** Warning codes that mean machin itself was not there (as opposed to failing on this trace). */
const NO_MACHIN = new Set(['toolchain-missing']);

/** The header's one line when machin was looked for and not found; undefined otherwise. */
export function toolchainNoteOf(rec: Recording): string | undefined {
  if (rec.timeline.format !== 'mflrr' || rec.verify || rec.panic?.source === 'machin') return undefined;
  if (!rec.warnings.some((w) => NO_MACHIN.has(w.code))) return undefined;
  return 'No machin: with it Frozen Run adds the panic and its causal chain, the verify verdict (is this replay faithful?), every variable\'s values, and stepping through the program\'s statements.';
}
