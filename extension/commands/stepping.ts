// The reverse half of the debug toolbar: Reverse Continue and Step Back (DAP's own requests, sent
// by these commands because the inline adapter leaves VS Code's buttons out so the five reverse
// buttons sit together in one order), Step Back Into, Step Back Out and Run Back to Cursor (custom
// requests), each the twin of its forward command, on the focused thread.
import * as vscode from 'vscode';
import { REQUEST, type TargetArguments, type ThreadArguments } from '../../debug-adapter/contract';
import type { Ctx } from '../ctx';
import { recordingOf } from '../debug-sessions';

/** DAP's own stepBack / reverseContinue take the thread they are about. */
interface DebugProtocolThread {
  threadId: number;
}

function focusedThread(session: vscode.DebugSession): number | undefined {
  const item = vscode.debug.activeStackItem;
  return item && item.session.id === session.id ? item.threadId : undefined;
}

async function send(session: vscode.DebugSession | undefined, command: string, args: TargetArguments | ThreadArguments | DebugProtocolThread): Promise<void> {
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

export function reverseContinue(ctx: Ctx): Promise<void> {
  const s = ctx.sessions.active();
  return send(s, 'reverseContinue', { threadId: (s && focusedThread(s)) ?? 1 });
}

export function stepBack(ctx: Ctx): Promise<void> {
  const s = ctx.sessions.active();
  // The focused thread, else the one the cursor last ran (a thread index: DAP ids are index + 1).
  const threadId = s && (focusedThread(s) ?? Math.max(0, ctx.sessions.cursorFor(recordingOf(s))?.thread ?? 0) + 1);
  return send(s, 'stepBack', { threadId: threadId ?? 1 });
}

export function stepBackInto(ctx: Ctx): Promise<void> {
  const s = ctx.sessions.active();
  return send(s, REQUEST.stepBackIn, { threadId: s && focusedThread(s) });
}

export function stepBackOut(ctx: Ctx): Promise<void> {
  const s = ctx.sessions.active();
  return send(s, REQUEST.stepBackOut, { threadId: s && focusedThread(s) } satisfies ThreadArguments);
}

export function runBackToCursor(ctx: Ctx, _uri?: unknown, record?: unknown): Promise<void> | undefined {
  const s = ctx.sessions.active();
  // From the timeline: the record selected there.
  if (typeof record === 'number') {
    if (record < 0) {
      void vscode.window.showInformationMessage('Frozen Run: select a record on the timeline first, then Run Back to Cursor.');
      return;
    }
    return send(s, REQUEST.runBackTo, { record } satisfies TargetArguments);
  }
  const editor = vscode.window.activeTextEditor;
  // From the editor: the line of the recording's text (the file, or the adapter's read-only copy).
  const doc = editor?.document;
  const isRecording = s && doc && (doc.uri.scheme === 'debug' || (doc.uri.scheme === 'file' && doc.uri.fsPath === recordingOf(s)));
  // From the program's `.mfl` editor: the previous arrival at that line (the adapter checks it is the program).
  if (s && editor && doc?.uri.scheme === 'file' && doc.languageId === 'mfl') {
    return send(s, REQUEST.runBackTo, { line: editor.selection.active.line + 1, path: doc.uri.fsPath } satisfies TargetArguments);
  }
  if (!editor || !isRecording) {
    void vscode.window.showInformationMessage('Frozen Run: put the cursor on a record line of the recording or of its program (or select a record on the timeline), then Run Back to Cursor.');
    return;
  }
  return send(s, REQUEST.runBackTo, { line: editor.selection.active.line + 1 } satisfies TargetArguments);
}
