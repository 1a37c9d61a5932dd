// The hover link to "Where did this value come from?" (issue 30, point 3) on a variable of the
// program while a Frozen Run session is stopped: on a name the stopped goroutine has a value for
// (the cursor event's watched values), a link that runs frozenRun.valueOrigin for it. VS Code's own
// debug hover cannot be added to; this is the editor's hover (while stopped VS Code shows its debug
// hover instead, and this one with Alt held).
import * as vscode from 'vscode';
import { recordingOf, type DebugSessions } from './debug-sessions';
import { frozenSession } from './log-points';

export class OriginHover implements vscode.HoverProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(private readonly sessions: DebugSessions) {
    this.registration = vscode.languages.registerHoverProvider({ language: 'mfl' }, this);
  }

  provideHover(doc: vscode.TextDocument, at: vscode.Position): vscode.Hover | undefined {
    const s = frozenSession();
    const range = doc.getWordRangeAtPosition(at, /[A-Za-z_][A-Za-z0-9_]*/);
    if (!s || !range) return undefined;
    const name = doc.getText(range);
    const watched = this.sessions.cursorFor(recordingOf(s))?.body.watched;
    if (!watched || !(name in watched.values) || doc.uri.fsPath !== watched.programPath) return undefined;
    const args = encodeURIComponent(JSON.stringify([{ variable: { name } }]));
    const md = new vscode.MarkdownString(`$(references) [Where did \`${name}\` come from?](command:frozenRun.valueOrigin?${args} "Frozen Run: the chain of stores, sends and calls that brought this value")`, true);
    md.isTrusted = { enabledCommands: ['frozenRun.valueOrigin'] };
    return new vscode.Hover(md, range);
  }

  dispose(): void {
    this.registration.dispose();
  }
}
