// Whether an instrumented replay can be trusted: it must end as the plain replay of the same trace
// ends (the same verify ending: the recorded schedule done through main's last op, or the same op short of it; the same panic in the same goroutine at the
// same op, the same deadlock). Otherwise nothing from it may be shown, and the user is told why,
// in one line, with record-level stepping still there.
import type { ReplayOutput } from '../machin-output';

/**
 * `stopOf` maps machin's panic op P (its global counter, which other goroutines can move between
 * replays) to where the panic is shown (merge-replay.ts panicStop); without it P is compared as printed.
 * `mainsLastOp`: how many recorded ops come up to and including main's last (run-facts.ts
 * opsUpToMainsLast); without it only a schedule done in full is the end of a normal run.
 */
export function instrumentedReplayDiffers(plain: ReplayOutput, instrumented: ReplayOutput, stopOf?: (goroutine: string, op: number) => number, mainsLastOp?: number): string | null {
  const differences: string[] = [];
  const verdict = (o: ReplayOutput) => (o.verify ? `${o.verify.verdict} (schedule ${o.verify.scheduleDone}/${o.verify.scheduleTotal})` : 'no verdict');
  if (endingOf(plain, mainsLastOp) !== endingOf(instrumented, mainsLastOp)) differences.push(`verdict ${verdict(plain)} became ${verdict(instrumented)}`);
  const at = (p: NonNullable<ReplayOutput['panic']>) => (stopOf ? `after op ${stopOf(p.goroutine, p.scheduleOp)}` : `at op ${p.scheduleOp}`);
  const panic = (o: ReplayOutput) => (o.panic ? `panic "${o.panic.message}" in goroutine ${o.panic.goroutine} ${at(o.panic)}/${o.panic.scheduleTotal}` : 'no panic');
  if (panic(plain) !== panic(instrumented)) differences.push(`${panic(plain)} became ${panic(instrumented)}`);
  // machin lists blocked goroutines in the order they blocked, which varies between replays
  const deadlock = (o: ReplayOutput) => (o.deadlock ? `deadlock of ${o.deadlock.blocked.map((b) => b.goroutine).sort().join(', ')}` : 'no deadlock');
  if (deadlock(plain) !== deadlock(instrumented)) differences.push(`${deadlock(plain)} became ${deadlock(instrumented)}`);
  if (differences.length === 0) return null;
  return `the replay of the instrumented program differs from the plain replay (${differences.join('; ')}): stepping stays at record level`;
}

/**
 * What a verify verdict says of the run's end. A run that ends normally ends when main does, and
 * machin counts whatever ops the other goroutines got to until then: past the recording's end
 * (once the recorded schedule is done it lets every goroutine run: a worker's last receive of a
 * closed channel the recorded run ended before), or short of it by ops after main's last (the
 * recorded run got to them before it ended, a replay may not). machin 0.137.0 on a 600k-op pool
 * trace: FAITHFUL (600002/600002), FAITHFUL, DIVERGED (600004/600002); on another, DIVERGED
 * 600006/600005 and 600004/600005, op 600005 a worker's after main's last. So a schedule done
 * through main's last op is one ending however far past it machin went; io-underrun and the
 * boundary still count.
 */
function endingOf(o: ReplayOutput, mainsLastOp = o.verify?.scheduleTotal ?? 0): string {
  const v = o.verify;
  if (!v) return 'no verdict';
  if (v.scheduleDone >= Math.min(v.scheduleTotal, mainsLastOp)) return `the recorded schedule through main's last op, io-underrun ${v.ioUnderrun}, boundary ${v.boundary}`;
  return `${v.verdict} (schedule ${v.scheduleDone}/${v.scheduleTotal}, io-underrun ${v.ioUnderrun}, boundary ${v.boundary})`;
}
