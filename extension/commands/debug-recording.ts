// F5 on a recording's timeline. VS Code picks a debugger from the active text editor's language;
// a custom editor has none, so with no launch.json F5 would show the debugger picker. F5 there
// runs this instead: the workspace's launch configurations when it has any (VS Code's own F5),
// else what F5 gives a trace's text editor with no launch.json: Replay to Panic on the recording
// (the resolver's configuration for an empty one), with the timeline beside the text.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';

function hasLaunchConfigurations(folder: vscode.WorkspaceFolder | undefined): boolean {
  const launch = vscode.workspace.getConfiguration('launch', folder?.uri);
  const configs = launch.get<unknown[]>('configurations') ?? [];
  const compounds = launch.get<unknown[]>('compounds') ?? [];
  return configs.length > 0 || compounds.length > 0;
}

export async function debugActiveRecording(ctx: Ctx): Promise<unknown> {
  const uri = ctx.activeRecording();
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : vscode.workspace.workspaceFolders?.[0];
  if (!uri || hasLaunchConfigurations(folder)) return vscode.commands.executeCommand('workbench.action.debug.start');
  return vscode.commands.executeCommand('frozenRun.replayToPanic', uri);
}
