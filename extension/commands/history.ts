// Open Variable History: from the palette, the editor title, the timeline, or a variable's
// context menu in the Variables view (which names the variable).
import type { Ctx } from '../ctx';
import { pickRecording } from './recording-arg';

/** The argument VS Code passes from `debug/variables/context`. */
interface VariableContext {
  variable?: { name?: unknown; evaluateName?: unknown };
}

export async function openVariableHistory(ctx: Ctx, arg?: unknown): Promise<void> {
  const fromVariables = arg && typeof arg === 'object' && 'variable' in arg ? (arg as VariableContext).variable : undefined;
  const name = typeof fromVariables?.evaluateName === 'string' ? fromVariables.evaluateName : typeof fromVariables?.name === 'string' ? fromVariables.name : undefined;
  const uri = await pickRecording(fromVariables ? undefined : arg, ctx.activeRecording, 'Open Variable History');
  if (uri) await ctx.history.show(uri, name);
}
