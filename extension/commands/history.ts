// Open Variable History: from the palette, the editor title, the timeline, or a variable's
// context menu in the Variables view (which names the variable).
import type { Ctx } from '../ctx';
import { pickRecording } from './recording-arg';
import { scopeFunction } from '../view-models/history-model';

/** The argument VS Code passes from `debug/variables/context`. */
interface VariableContext {
  variable?: { name?: unknown; evaluateName?: unknown };
  /** The scope the variable is in: its name says the frame's function (`Program (goroutine 0.2 collector · place)`). */
  container?: { name?: unknown };
}

export async function openVariableHistory(ctx: Ctx, arg?: unknown): Promise<void> {
  const fromVariables = arg && typeof arg === 'object' && 'variable' in arg ? (arg as VariableContext).variable : undefined;
  const name = typeof fromVariables?.evaluateName === 'string' ? fromVariables.evaluateName : typeof fromVariables?.name === 'string' ? fromVariables.name : undefined;
  const uri = await pickRecording(fromVariables ? undefined : arg, ctx.activeRecording, 'Open Variable History');
  // At source level `base` in a frame of place is place's `base` (`place.base`), not collector's.
  const fn = fromVariables ? scopeFunction((arg as VariableContext).container?.name) : null;
  if (uri) await ctx.history.show(uri, name, fn);
}
