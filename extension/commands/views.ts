// Switching between the timeline and the text of a recording, and showing the output channel.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { TIMELINE_VIEW_TYPE } from '../timeline-editor';
import { CAPSULE_LANGUAGE } from '../../language-server/protocol';
import { capsuleDocumentUri } from '../capsule-document';
import { pickRecording } from './recording-arg';

/** `column`: the group to open it in (the timeline's, from its toolbar); default the active one. */
export async function openAsText(ctx: Ctx, arg?: unknown, column?: vscode.ViewColumn): Promise<void> {
  const uri = await pickRecording(arg, ctx.activeRecording, 'Open as Text');
  if (!uri) return;
  // A trace is text: open the file itself. A capsule is encrypted: open its decoded document.
  if (uri.fsPath.toLowerCase().endsWith('.tcap')) {
    const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(capsuleDocumentUri(uri)), CAPSULE_LANGUAGE);
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: column });
  } else {
    await vscode.commands.executeCommand('vscode.openWith', uri, 'default', column);
    // A recording is evidence: typing into it must change nothing (and raise no diagnostics).
    await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
  }
}

export async function openTimeline(ctx: Ctx, arg?: unknown): Promise<void> {
  const uri = await pickRecording(arg, ctx.activeRecording, 'Open Timeline');
  if (uri) await vscode.commands.executeCommand('vscode.openWith', uri, TIMELINE_VIEW_TYPE);
}

export function showToolchainOutput(ctx: Ctx): void {
  ctx.output.show(true);
}

/**
 * The Settings editor on one toolchain path. The paths are machine-overridable: in a remote
 * window (code-server, SSH) VS Code lists them under the remote machine's settings, not the
 * user's, so that tab is the one opened there.
 */
export async function openSetting(id: string): Promise<void> {
  if (vscode.env.remoteName) {
    try {
      await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: id });
      return;
    } catch {
      // No remote settings here after all: the user's.
    }
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', id);
}
