// Context keys used in package.json `when` clauses, set in one place.
import * as vscode from 'vscode';

export type ContextKey =
  /** A Frozen Run timeline (or an .mflrr text editor) is the active editor. */
  | 'frozenRun.recordingActive'
  /** The active recording is a Tin capsule. */
  | 'frozenRun.capsuleActive'
  /** A frozen-run debug session runs. */
  | 'frozenRun.sessionActive'
  /** The active session's cursor is at the start (nothing to go back to) / past the last record. */
  | 'frozenRun.atStart'
  | 'frozenRun.atEnd';

export function setContext(key: ContextKey, value: boolean): void {
  void vscode.commands.executeCommand('setContext', key, value);
}
