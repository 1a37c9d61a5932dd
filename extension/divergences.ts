// Where Replay Against Build found a capsule's replay diverging, per recording, until the
// recording is read again: one place that the timelines show and every debug session on the
// recording is told (a session started later is told at its first stop), so the `divergence`
// exception filter stops there both ways. Owned by the extension context.
import * as vscode from 'vscode';
import { REQUEST, type DivergenceArguments } from '../debug-adapter/contract';
import type { DebugSessions } from './debug-sessions';
import type { RecordingStore } from './recordings';

export interface DivergenceMark {
  record: number;
  message?: string;
}

export class Divergences implements vscode.Disposable {
  private readonly marks = new Map<string, DivergenceMark>();
  /** Sessions already told the mark of their recording. */
  private readonly told = new Set<string>();
  private readonly changed = new vscode.EventEmitter<{ file: string; mark: DivergenceMark | null }>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;

  constructor(private readonly sessions: DebugSessions, store: RecordingStore, private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      sessions.onDidMoveCursor((c) => {
        const mark = this.marks.get(c.recording);
        if (mark && !this.told.has(c.session.id)) this.tell(c.session, mark);
      }),
      sessions.onDidEndSession(({ session }) => this.told.delete(session.id)),
      store.onDidChange((uri) => this.marks.delete(uri.fsPath)),
    );
  }

  get(file: string): DivergenceMark | undefined {
    return this.marks.get(file);
  }

  /** Marks (or with null clears) where the recording's replay against a build diverged. */
  mark(recording: vscode.Uri, record: number | null, message?: string): void {
    const mark = record === null ? null : { record, message };
    if (mark) this.marks.set(recording.fsPath, mark);
    else this.marks.delete(recording.fsPath);
    this.changed.fire({ file: recording.fsPath, mark });
    for (const s of this.sessions.sessionsFor(recording.fsPath)) this.tell(s, mark);
  }

  private tell(session: vscode.DebugSession, mark: DivergenceMark | null): void {
    this.told.add(session.id);
    const args: DivergenceArguments = { effect: mark ? mark.record : null, message: mark?.message };
    session.customRequest(REQUEST.divergence, args).then(undefined, (e: unknown) => {
      this.log.warn(`divergence not marked in the debug session: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
