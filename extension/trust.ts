// Workspace trust: replaying runs code named by the recording, so toolchains (machin, tin) only
// run in a trusted workspace, and a program outside the workspace needs an explicit yes.
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { isInsideRoots, realOrSame } from '../replay-engine/machin/inside-roots';

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** The banner shown on a recording opened in Restricted Mode. */
export const RESTRICTED_BANNER =
  'Restricted Mode: this recording is shown trace-only. Replaying it would run machin or tin on the program it names, ' +
  'so Frozen Run starts no toolchain in an untrusted workspace. To enable replays, trust this folder ' +
  '(Manage Workspace Trust, or the "Restricted Mode" item in the status bar).';

/**
 * Asked before a toolchain runs a program: inside the workspace it is allowed (the workspace is
 * trusted), outside it needs a modal yes. Never allowed in Restricted Mode.
 */
export async function confirmProgram(program: string): Promise<boolean> {
  if (!isTrusted()) return false;
  // The engine's rule, on real paths: a link inside the workspace to a file outside it is outside.
  const abs = await realOrSame(program);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  if ((await isInsideRoots(abs, folders)) || confirmed.has(abs)) return true;
  const run = 'Run It';
  const answer = await vscode.window.showWarningMessage(
    `Replay this recording by running a program outside the workspace?`,
    {
      modal: true,
      detail: `${program}${abs !== resolve(program) ? `\n(a link to ${abs})` : ''}\n\nReplaying compiles and runs this program. Only continue if you trust it.`,
    },
    run,
  );
  if (answer === run) confirmed.add(abs);
  return answer === run;
}

/** Programs the user said yes to in this window (asked once, not once per view). */
const confirmed = new Set<string>();

/** Shows what trust would enable, when a command that needs a toolchain is used in Restricted Mode. */
export async function explainRestricted(what: string): Promise<void> {
  const manage = 'Manage Workspace Trust';
  const answer = await vscode.window.showWarningMessage(
    `${what} needs a trusted workspace: it runs a toolchain on the recorded program.`,
    manage,
  );
  if (answer === manage) await vscode.commands.executeCommand('workbench.trust.manage');
}
