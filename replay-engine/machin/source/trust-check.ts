// Whether an instrumented replay can be trusted: it must end as the plain replay of the same trace
// ends (the same verify verdict and schedule count, the same panic in the same goroutine at the
// same op, the same deadlock). Otherwise nothing from it may be shown, and the user is told why,
// in one line, with record-level stepping still there.
import type { ReplayOutput } from '../machin-output';

export function instrumentedReplayDiffers(plain: ReplayOutput, instrumented: ReplayOutput): string | null {
  const differences: string[] = [];
  const verdict = (o: ReplayOutput) => (o.verify ? `${o.verify.verdict} (schedule ${o.verify.scheduleDone}/${o.verify.scheduleTotal})` : 'no verdict');
  if (verdict(plain) !== verdict(instrumented)) differences.push(`verdict ${verdict(plain)} became ${verdict(instrumented)}`);
  const panic = (o: ReplayOutput) => (o.panic ? `panic "${o.panic.message}" in goroutine ${o.panic.goroutine} at op ${o.panic.scheduleOp}/${o.panic.scheduleTotal}` : 'no panic');
  if (panic(plain) !== panic(instrumented)) differences.push(`${panic(plain)} became ${panic(instrumented)}`);
  // machin lists blocked goroutines in the order they blocked, which varies between replays
  const deadlock = (o: ReplayOutput) => (o.deadlock ? `deadlock of ${o.deadlock.blocked.map((b) => b.goroutine).sort().join(', ')}` : 'no deadlock');
  if (deadlock(plain) !== deadlock(instrumented)) differences.push(`${deadlock(plain)} became ${deadlock(instrumented)}`);
  if (differences.length === 0) return null;
  return `the replay of the instrumented program differs from the plain replay (${differences.join('; ')}): statement-level stepping is off for this recording; record-level stepping still works`;
}
