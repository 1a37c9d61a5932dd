// The status bar item while a frozen-run session runs: "op 12/40 · 0.2 feed". Updated from the
// adapter's frozenRun/cursor events; clicking it reveals the timeline.
import * as vscode from 'vscode';

export interface CursorFacts {
  position: number;
  total: number;
  /** Thread label ("goroutine 0.2 feed", "task 1"), empty at the start. */
  thread: string;
  /** What the recording calls a step and its steps ("op"/"ops", "effect"/"effects"). */
  step: string;
  steps: string;
}

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('frozenRun.session', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Frozen Run position';
    this.item.command = 'frozenRun.openTimeline';
  }

  show(facts: CursorFacts): void {
    const thread = facts.thread ? ` · ${facts.thread}` : '';
    this.item.text = `$(history) ${facts.step} ${facts.position}/${facts.total}${thread}`;
    this.item.tooltip = `Frozen Run: ${facts.position} of ${facts.total} ${facts.steps} done${facts.thread ? `, last ran ${facts.thread}` : ''}. Click to show the timeline.`;
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
