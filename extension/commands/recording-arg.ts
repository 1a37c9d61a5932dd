// Which recording a command is about: its argument (a Uri from a menu, a string from a code lens
// or the timeline), else the active timeline, else an .mflrr or decoded-capsule text editor, else
// the recording of the active debug session.
import * as vscode from 'vscode';
import { isRecordingPath } from '../debug-configuration';
import { DEBUG_TYPE, recordingOf } from '../debug-sessions';

export type ActiveTimeline = () => vscode.Uri | undefined;

export function recordingFromArg(arg: unknown, activeTimeline: ActiveTimeline): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri && isRecordingPath(arg.fsPath)) return vscode.Uri.file(arg.fsPath);
  if (typeof arg === 'string' && arg) {
    const uri = /^[a-z][a-z0-9+.-]*:/i.test(arg) && !/^[a-z]:\\/i.test(arg) ? vscode.Uri.parse(arg) : vscode.Uri.file(arg);
    if (isRecordingPath(uri.fsPath)) return vscode.Uri.file(uri.fsPath);
  }
  const timeline = activeTimeline();
  if (timeline) return timeline;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && doc.uri.scheme === 'file' && isRecordingPath(doc.uri.fsPath)) return doc.uri;
  const session = vscode.debug.activeDebugSession;
  if (session?.type === DEBUG_TYPE && recordingOf(session)) return vscode.Uri.file(recordingOf(session));
  return undefined;
}

/** As recordingFromArg, asking the user to pick a recording in the workspace when there is none. */
export async function pickRecording(arg: unknown, activeTimeline: ActiveTimeline, what: string, onlyCapsules = false): Promise<vscode.Uri | undefined> {
  const found = recordingFromArg(arg, activeTimeline);
  if (found && (!onlyCapsules || found.fsPath.toLowerCase().endsWith('.tcap'))) return found;
  const files = await vscode.workspace.findFiles(onlyCapsules ? '**/*.tcap' : '**/*.{mflrr,tcap}', '**/node_modules/**', 500);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(`Frozen Run: ${what}: no ${onlyCapsules ? 'capsule (.tcap)' : 'recording (.mflrr, .tcap)'} in this workspace.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f })),
    { title: `Frozen Run: ${what}`, placeHolder: `Pick a ${onlyCapsules ? 'capsule' : 'recording'}` },
  );
  return picked?.uri;
}
