// Whether an instrumented replay can be trusted: it must end as the plain replay of the same trace
// ends (the same verify ending: the whole recorded schedule done, or the same op short of it; the same panic in the same goroutine at the
// same op, the same deadlock). Otherwise nothing from it may be shown, and the user is told why,
// in one line, with record-level stepping still there.
import type { ReplayOutput } from '../machin-output';

/**
 * `stopOf` maps machin's panic op P (its global counter, which other goroutines can move between
 * replays) to where the panic is shown (merge-replay.ts panicStop); without it P is compared as printed.
 */
export function instrumentedReplayDiffers(plain: ReplayOutput, instrumented: ReplayOutput, stopOf?: (goroutine: string, op: number) => number): string | null {
  const differences: string[] = [];
  const verdict = (o: ReplayOutput) => (o.verify ? `${o.verify.verdict} (schedule ${o.verify.scheduleDone}/${o.verify.scheduleTotal})` : 'no verdict');
  if (endingOf(plain) !== endingOf(instrumented)) differences.push(`verdict ${verdict(plain)} became ${verdict(instrumented)}`);
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
 * What a verify verdict says of the run's end. machin counts ops past the recording's end too:
 * once the recorded schedule is done it lets every goroutine run, and one the recorded run ended
 * before it got to an op (a worker's last receive of a closed channel) may get there in a replay.
 * Three plain replays of one 600k-op pool trace with machin 0.137.0 said FAITHFUL (600002/600002),
 * FAITHFUL, and DIVERGED (600004/600002). So a schedule done in full is one ending however far
 * past it machin went; io-underrun and the boundary still count.
 */
function endingOf(o: ReplayOutput): string {
  const v = o.verify;
  if (!v) return 'no verdict';
  if (v.scheduleDone >= v.scheduleTotal) return `the whole schedule of ${v.scheduleTotal} ops, io-underrun ${v.ioUnderrun}, boundary ${v.boundary}`;
  return `${v.verdict} (schedule ${v.scheduleDone}/${v.scheduleTotal}, io-underrun ${v.ioUnderrun}, boundary ${v.boundary})`;
}
