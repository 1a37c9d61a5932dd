// The reverse half of the debug toolbar: Reverse Continue and Step Back (DAP's own requests, sent
// by these commands because the inline adapter leaves VS Code's buttons out so the five reverse
// buttons sit together in one order), Step Back Into, Step Back Out and Run Back to Cursor (custom
// requests), each the twin of its forward command, on the focused thread.
import * as vscode from 'vscode';
import type { DebugSessions } from '../debug-sessions';
import { recordingOf } from '../debug-sessions';

function focusedThread(session: vscode.DebugSession): number | undefined {
  const item = vscode.debug.activeStackItem;
  return item && item.session.id === session.id ? item.threadId : undefined;
}

async function send(session: vscode.DebugSession | undefined, command: string, args: Record<string, unknown>): Promise<void> {
  if (!session) {
    void vscode.window.showInformationMessage('Frozen Run: no replay is running. Start one with "Frozen Run: Replay to Panic".');
    return;
  }
  try {
    await session.customRequest(command, args);
  } catch (err) {
    void vscode.window.showErrorMessage(`Frozen Run: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function registerSteppingCommands(context: vscode.ExtensionContext, sessions: DebugSessions): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('frozenRun.reverseContinue', () => {
      const s = sessions.active();
      return send(s, 'reverseContinue', { threadId: (s && focusedThread(s)) ?? 1 });
    }),
    vscode.commands.registerCommand('frozenRun.stepBack', () => {
      const s = sessions.active();
      // The focused thread, else the one the cursor last ran (a thread index: DAP ids are index + 1).
      const threadId = s && (focusedThread(s) ?? Math.max(0, sessions.cursorFor(recordingOf(s))?.thread ?? 0) + 1);
      return send(s, 'stepBack', { threadId: threadId ?? 1 });
    }),
    vscode.commands.registerCommand('frozenRun.stepBackInto', () => {
      const s = sessions.active();
      return send(s, 'frozenRun/stepBackIn', { threadId: s && focusedThread(s) });
    }),
    vscode.commands.registerCommand('frozenRun.stepBackOut', () => {
      const s = sessions.active();
      return send(s, 'frozenRun/stepBackOut', { threadId: s && focusedThread(s) });
    }),
    vscode.commands.registerCommand('frozenRun.runBackToCursor', (_uri?: unknown, record?: unknown) => {
      const s = sessions.active();
      // From the timeline: the record selected there.
      if (typeof record === 'number') {
        if (record < 0) {
          void vscode.window.showInformationMessage('Frozen Run: select a record on the timeline first, then Run Back to Cursor.');
          return;
        }
        return send(s, 'frozenRun/runBackTo', { record });
      }
      const editor = vscode.window.activeTextEditor;
      // From the editor: the line of the recording's text (the file, or the adapter's read-only copy).
      const doc = editor?.document;
      const isRecording = s && doc && (doc.uri.scheme === 'debug' || (doc.uri.scheme === 'file' && doc.uri.fsPath === recordingOf(s)));
      if (!editor || !isRecording) {
        void vscode.window.showInformationMessage('Frozen Run: put the cursor on a record line of the recording (or select a record on the timeline), then Run Back to Cursor.');
        return;
      }
      return send(s, 'frozenRun/runBackTo', { line: editor.selection.active.line + 1 });
    }),
  );
}
