// Open Variable History: from the palette, the editor title, the timeline, or a variable's
// context menu in the Variables view (which names the variable).
import * as vscode from 'vscode';
import type { HistoryPanel } from '../history-panel';
import { pickRecording, type ActiveTimeline } from './recording-arg';

/** The argument VS Code passes from `debug/variables/context`. */
interface VariableContext {
  variable?: { name?: unknown; evaluateName?: unknown };
}

export function registerHistoryCommand(context: vscode.ExtensionContext, panel: HistoryPanel, activeTimeline: ActiveTimeline): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('frozenRun.openVariableHistory', async (arg?: unknown) => {
      const fromVariables = arg && typeof arg === 'object' && 'variable' in arg ? (arg as VariableContext).variable : undefined;
      const name = typeof fromVariables?.evaluateName === 'string' ? fromVariables.evaluateName : typeof fromVariables?.name === 'string' ? fromVariables.name : undefined;
      const uri = await pickRecording(fromVariables ? undefined : arg, activeTimeline, 'Open Variable History');
      if (uri) await panel.show(uri, name);
    }),
  );
}
