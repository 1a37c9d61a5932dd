// Context keys from the active session's cursor, for the debug toolbar's enablement: the reverse
// buttons are disabled (not hidden) at the start of the recording, where there is nothing before.
import * as vscode from 'vscode';
import { setContext } from './context';
import type { DebugSessions } from './debug-sessions';

export function followCursorContext(sessions: DebugSessions): vscode.Disposable {
  const apply = (atStart: boolean, atEnd: boolean) => {
    setContext('frozenRun.atStart', atStart);
    setContext('frozenRun.atEnd', atEnd);
  };
  return vscode.Disposable.from(
    sessions.onDidMoveCursor((c) => {
      if (c.session.id !== vscode.debug.activeDebugSession?.id) return;
      apply(c.body.atStart === true, c.body.atEnd === true);
    }),
    vscode.debug.onDidChangeActiveDebugSession((s) => {
      const c = s ? sessions.cursorFor(String(s.configuration.recording ?? '')) : undefined;
      apply(c?.body.atStart === true, c?.body.atEnd === true);
    }),
  );
}
