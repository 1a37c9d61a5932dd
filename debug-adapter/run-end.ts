// Forward moves where nothing was recorded after the cursor: Continue (or a step) at the panic or
// at the end is answered with why, instead of a second stop on the same op.
import type { ReplayRuntime } from './runtime';

/** Why the replay cannot go forward from here, or undefined when it can. */
export function nothingAhead(rt: ReplayRuntime): string | undefined {
  const tl = rt.timeline;
  const unit = tl.units.step;
  if (tl.recordCount === 0) return undefined;
  const back = 'Step Back or Reverse Continue to go earlier.';
  const panic = rt.recording.panic;
  // Stopped on the panic, which is after the last op: the run ended at this op. (Stopped on the
  // last record for another reason, Continue still shows the end, which says the run panicked.)
  const onLast = rt.record === tl.recordCount - 1 && rt.position === tl.stepCount;
  const onPanic = onLast && rt.lastStop.reason === 'exception' && rt.lastStop.exception === 'panic';
  if (panic && panic.position === tl.stepCount && (onPanic || rt.record >= tl.recordCount)) {
    return `The run ends here: it panicked (${panic.message}) and nothing was recorded after that. ${back}`;
  }
  if (rt.record >= tl.recordCount) return `The recording ends here: all ${tl.stepCount} ${unit}s are done and nothing was recorded after them. ${back}`;
  return undefined;
}
