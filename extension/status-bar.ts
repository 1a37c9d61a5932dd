// The status bar item while a frozen-run session runs: "op 3/4 · 0 main", the op (or effect) the
// cursor is on, numbered as the Call Stack's frame and the timeline number it, so the two agree
// after every step. Updated from the adapter's frozenRun/cursor events; clicking it reveals the
// timeline.
import * as vscode from 'vscode';
import { ioPlace } from '../replay-engine/model/step-words';

export interface CursorFacts {
  /** Steps completed. */
  position: number;
  total: number;
  /** Thread label ("goroutine 0.2 feed", "task 1"), empty at the start. */
  thread: string;
  /** The step number of the record the cursor is on (-1: an I/O record); unknown from an older adapter. */
  step?: unknown;
  /** What a step is called, as the adapter says it: 'op' (trace) or 'effect' (capsule). */
  unit?: unknown;
  atStart?: boolean;
  /** No record has happened yet, but (source level) statements have: those before the first op. */
  beforeFirst?: boolean;
}

/** The item's text without its icon: what the cursor is on, in the frame's words. */
/** The adapter's word for a step ('op' from an older adapter that sent none). */
function unitOf(f: CursorFacts): string {
  return typeof f.unit === 'string' && /^[a-z ]{1,20}$/.test(f.unit) ? f.unit : 'op';
}

export function cursorText(f: CursorFacts): string {
  const unit = unitOf(f);
  const thread = f.thread ? ` · ${f.thread}` : '';
  if (f.atStart) return `start · 0/${f.total} ${unit}s done`;
  if (f.beforeFirst) return `before ${unit} 0/${f.total}${thread}`;
  if (typeof f.step === 'number' && f.step >= 0) return `${unit} ${f.step}/${f.total}${thread}`;
  if (typeof f.step === 'number') return `I/O ${ioPlace(f.position, f.total, unit)}${thread}`;
  return `${f.position}/${f.total} ${unit}s done${thread}`;
}

export class SessionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('frozenRun.session', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Frozen Run position';
    this.item.command = 'frozenRun.openTimeline';
  }

  show(facts: CursorFacts): void {
    const unit = `${unitOf(facts)}s`;
    this.item.text = `$(history) ${cursorText(facts)}`;
    this.item.tooltip = `Frozen Run: ${facts.position} of ${facts.total} ${unit} done${facts.thread ? `, last ran ${facts.thread}` : ''}. Click to show the timeline.`;
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
