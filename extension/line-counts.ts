// Hit counts beside each line of the program (issue 30, point 2): `Frozen Run: Toggle Line Hit
// Counts` asks the active Frozen Run debug session for every line's counts (frozenRun/lineCounts)
// and decorates the program's editors (view-models/line-count-model.ts); it follows the active
// session (another recording's counts when it changes), asks again when the session's statements
// arrive (toggled on while machin was still replaying the program), and clears when it ends.
import * as vscode from 'vscode';
import { REQUEST } from '../debug-adapter/contract';
import type { LineCounts } from '../replay-engine/model/line-counts';
import type { DebugSessions } from './debug-sessions';
import { lineCountModel, NOT_REACHED } from './view-models/line-count-model';

export class LineCountDecorations implements vscode.Disposable {
  private on = false;
  private counts: LineCounts | null = null;
  private readonly count = vscode.window.createTextEditorDecorationType({ after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), margin: '0 0 0 1em' } });
  private readonly dim = vscode.window.createTextEditorDecorationType({ opacity: '0.45', isWholeLine: true });
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(sessions: DebugSessions) {
    this.subscriptions.push(
      sessions.onStatementsReady((s) => {
        if (s.id === vscode.debug.activeDebugSession?.id) void this.refresh();
      }),
      vscode.debug.onDidChangeActiveDebugSession(() => void this.refresh()),
      vscode.debug.onDidTerminateDebugSession(() => void this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.paint()),
    );
  }

  async toggle(): Promise<void> {
    this.on = !this.on;
    if (this.on) await this.refresh(true);
    else this.clear();
  }

  private async refresh(say = false): Promise<void> {
    if (!this.on) return;
    const s = vscode.debug.activeDebugSession;
    this.counts = null;
    if (s?.type === 'frozen-run') {
      try {
        this.counts = (await s.customRequest(REQUEST.lineCounts, {})) as LineCounts;
      } catch (e) {
        // Statements still coming: the counts are painted when they arrive (onStatementsReady).
        if (say) void vscode.window.showInformationMessage(`Frozen Run: no line hit counts yet: ${(e as Error).message} They are shown when the program's statements are in.`);
      }
    } else if (say) void vscode.window.showInformationMessage('Frozen Run: line hit counts follow a Frozen Run debug session: start one (Replay to Panic).');
    this.paint();
  }

  private paint(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const c = this.on && this.counts && editor.document.uri.fsPath === this.counts.file ? lineCountModel(this.counts) : null;
      editor.setDecorations(this.count, c ? c.marks.map((m) => ({ range: endOf(editor, m.line), hoverMessage: new vscode.MarkdownString(m.hover), renderOptions: { after: { contentText: m.text } } })) : []);
      editor.setDecorations(this.dim, c ? c.notReached.map((l) => ({ range: endOf(editor, l), hoverMessage: NOT_REACHED })) : []);
    }
  }

  private clear(): void {
    this.counts = null;
    this.paint();
  }

  dispose(): void {
    this.count.dispose();
    this.dim.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

function endOf(editor: vscode.TextEditor, line: number): vscode.Range {
  const l = Math.min(line, editor.document.lineCount - 1);
  const end = editor.document.lineAt(l).range.end;
  return new vscode.Range(end, end);
}
