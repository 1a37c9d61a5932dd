// Two facts about a machin trace every view says the same way (the timeline header, `frozen-run
// inspect` text and --json, MCP's open_recording): which program was used, and how far the
// replay can be trusted when machin gives no verdict because the run panicked (issue 29, points 5
// and 10).
import type { Recording } from './recording';
import type { Timeline } from './timeline';

export interface ProgramFact {
  /** The `.mfl` file read and replayed (beside the trace, or named by the user); null when none was. */
  used: string | null;
  /** The trace's `program` line as written (a path on the recording machine); null when missing. */
  recorded: string | null;
}

/** The program used and the path recorded in the trace (`used` first: that is the file replayed). */
export function programFact(rec: Recording): ProgramFact {
  const recorded = rec.timeline.facts.find((f) => f.key === 'recordedProgram')?.value ?? rec.timeline.facts.find((f) => f.key === 'program')?.value ?? null;
  return { used: rec.programUsed ?? null, recorded };
}

/** `program: /work/app/crash.mfl (recorded as /home/ci/app/crash.mfl)`'s value. */
export function programText(f: ProgramFact): string {
  if (f.used === null) return f.recorded === null ? '(none: machin cannot replay this trace)' : `${f.recorded} (as recorded; not read here)`;
  return f.recorded !== null && f.recorded !== f.used ? `${f.used} (recorded as ${f.recorded})` : f.used;
}

export interface PanicVerdict {
  verdict: 'PANIC REPRODUCED' | 'PANIC, SCHEDULE DIFFERS';
  tone: 'faithful' | 'diverged';
  /** Why there is no machin verdict, and what is known instead. */
  detail: string;
}

/**
 * machin prints no verify verdict for a replay that panics (it exits first). What is known then:
 * machin held the program to the recorded schedule and it panicked again, right after the
 * panicking goroutine's own last recorded op: that the panic comes back there is the faithfulness
 * such a replay has. When machin's counts disagree with the trace (a `replay-mismatch` warning)
 * it is not claimed. Null when machin gave a verdict, or gave no panic.
 */
export function panicVerdictOf(rec: Recording): PanicVerdict | null {
  const p = rec.panic;
  if (rec.verify || !p || p.source !== 'machin') return null; // machin's panic: a trace's
  const n = rec.timeline.stepCount;
  const t = rec.timeline.threads[p.thread];
  const who = `goroutine ${t ? t.id : p.thread}${t?.label ? ` ${t.label}` : ''}`;
  const why = 'machin replay --verify gives no verdict for a run that panics (it exits before printing one)';
  const mismatch = rec.warnings.find((w) => w.code === 'replay-mismatch');
  if (mismatch) return { verdict: 'PANIC, SCHEDULE DIFFERS', tone: 'diverged', detail: `${why}; the replay panicked in ${who}, but ${mismatch.message}` };
  return {
    verdict: 'PANIC REPRODUCED',
    tone: 'faithful',
    detail: `${why}; held to the recorded schedule, the replay panicked again in ${who} right after its last recorded op (stop after ${p.position}/${n} ops): faithful up to the panic`,
  };
}

/**
 * What machin's count of replayed ops means when it is not the recording's: a run that ends
 * normally ends when main does, and ops of other goroutines the recorded run got to (or not)
 * around that moment may or may not be replayed before it (machin 0.137.0 on one 600k-op pool
 * trace: FAITHFUL 600002/600002, DIVERGED 600004/600002; on another, DIVERGED 600006/600005 and
 * 600004/600005, where op 600005 was a worker's last receive of a closed channel after main's
 * last op). One sentence for the header and `inspect` when the count is past the end, or short of
 * it only by ops after main's last; null for any other.
 */
export function verifyCountNote(v: { scheduleDone: number; scheduleTotal: number; verdict: string; mainsLastOp?: number }): string | null {
  const done = v.scheduleDone;
  const total = v.scheduleTotal;
  const diverged = v.verdict === 'DIVERGED' ? ': that is all its DIVERGED says here' : '';
  if (done > total) {
    return `machin replayed the whole recorded schedule in order, then ${done - total} op(s) past its end (goroutines the recorded run ended before they got there; how many varies from one replay to the next), and counts those too${diverged}`;
  }
  if (done < total && v.mainsLastOp !== undefined && done >= v.mainsLastOp) {
    return `machin replayed the recorded schedule in order through main's last op (op ${v.mainsLastOp} of ${total}), and the run ended with main ${total - done} op(s) short of the recording: ops of other goroutines after main's last, which a replay may or may not get to before the run ends${diverged}`;
  }
  return null;
}

/** How many of the recorded ops come up to and including main's (goroutine 0's) last one; 0 when main did none. */
export function opsUpToMainsLast(tl: Timeline): number {
  const main = tl.threadIndex('0');
  if (main < 0) return 0;
  for (let k = tl.stepCount - 1; k >= 0; k--) if (tl.threadOfStep(k) === main) return k + 1;
  return 0;
}
