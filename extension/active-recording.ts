// The recording in the active editor tab (a timeline, the trace as text, or a decoded capsule),
// kept in the `frozenRun.recordingActive` / `frozenRun.capsuleActive` context keys.
import * as vscode from 'vscode';
import { CAPSULE_SCHEME } from '../language-server/protocol';
import { capsuleOfDocument } from './capsule-document';
import { setContext } from './context';
import { isRecordingPath } from './debug-configuration';
import { TIMELINE_VIEW_TYPE } from './timeline-editor';

export function activeRecording(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && input.viewType === TIMELINE_VIEW_TYPE) return input.uri;
  if (input instanceof vscode.TabInputText) {
    if (input.uri.scheme === 'file' && isRecordingPath(input.uri.fsPath)) return input.uri;
    if (input.uri.scheme === CAPSULE_SCHEME) return capsuleOfDocument(input.uri);
  }
  return undefined;
}

/** The active tab's recording, only when it is a timeline. */
export function activeTimeline(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom && input.viewType === TIMELINE_VIEW_TYPE ? input.uri : undefined;
}

export function trackActiveRecording(context: vscode.ExtensionContext): void {
  const update = () => {
    const uri = activeRecording();
    setContext('frozenRun.recordingActive', uri !== undefined);
    setContext('frozenRun.capsuleActive', uri !== undefined && uri.fsPath.toLowerCase().endsWith('.tcap'));
  };
  context.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs(update), vscode.window.tabGroups.onDidChangeTabGroups(update));
  update();
}
