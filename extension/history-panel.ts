// The variable history panel: every value a variable took over the run, with op and thread.
// One panel, beside the editor, for the recording of the active session (or the active
// timeline). Values come from the engine (machin's `replay --print`), never from the webview.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Recording } from '../replay-engine/model/recording';
import { packHistory, PROTOCOL_VERSION, type HistoryToHost, type HostToHistory } from '../webview-ui/protocol';
import type { DebugSessions } from './debug-sessions';
import { errorText, isCapsule, type RecordingStore } from './recordings';
import type { ViewDeps } from './timeline-editor';
import { isTrusted } from './trust';
import { historyModel } from './view-models/history-model';
import { renderWebview, webviewOptions } from './webview-html';

export const HISTORY_VIEW_TYPE = 'frozenRun.history';

export class HistoryPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private recordingUri: vscode.Uri | undefined;
  private recording: Recording | undefined;
  private selected: string | undefined;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];

  private readonly extensionUri: vscode.Uri;
  private readonly store: RecordingStore;
  private readonly sessions: DebugSessions;

  constructor(ctx: Pick<ViewDeps, 'extension' | 'store' | 'sessions'>) {
    this.extensionUri = ctx.extension.extensionUri;
    this.store = ctx.store;
    this.sessions = ctx.sessions;
    this.disposables.push(
      this.sessions.onDidMoveCursor((c) => {
        if (this.recordingUri && path.resolve(c.recording) === path.resolve(this.recordingUri.fsPath)) {
          this.post({ type: 'cursor', position: c.position, thread: c.thread });
        }
      }),
      this.store.onDidChange((uri) => {
        if (this.recordingUri?.fsPath === uri.fsPath) void this.load();
      }),
    );
  }

  /** Shows the panel for a recording, with `variable` selected when given. */
  async show(recording: vscode.Uri, variable?: string): Promise<void> {
    const switching = this.recordingUri?.fsPath !== recording.fsPath;
    this.recordingUri = recording;
    if (variable) this.selected = variable;
    else if (switching) this.selected = undefined;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(HISTORY_VIEW_TYPE, 'Variable History', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
        ...webviewOptions(this.extensionUri),
        retainContextWhenHidden: false,
      });
      this.ready = false;
      this.panel.webview.html = renderWebview(this.panel.webview, this.extensionUri, 'history', 'Variable History');
      this.panel.webview.onDidReceiveMessage((m: HistoryToHost) => void this.onMessage(m), undefined, this.disposables);
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = false;
      });
    } else {
      this.panel.reveal(undefined, false);
    }
    this.panel.title = `Variable History: ${path.basename(recording.fsPath)}`;
    if (this.ready) await this.load();
  }

  private post(m: HostToHistory): void {
    void this.panel?.webview.postMessage(m);
  }

  private async load(): Promise<void> {
    const uri = this.recordingUri;
    if (!uri) return;
    try {
      // Values come from machin's replay, so a trusted workspace replays; otherwise read only.
      this.recording = await this.store.replay(uri);
    } catch (err) {
      this.post({ type: 'error', message: errorText(err) });
      return;
    }
    if (uri !== this.recordingUri) return;
    const histories = this.recording.histories;
    if (!histories) {
      this.post({ type: 'error', message: this.noHistoriesReason(uri) });
      return;
    }
    const names = [...histories.names].sort();
    if (this.selected === undefined && names.length > 0) this.selected = names[0];
    this.post({ type: 'names', version: PROTOCOL_VERSION, names, selected: this.selected });
    if (this.selected !== undefined) this.sendHistory(this.selected);
    const cursor = this.sessions.cursorFor(uri.fsPath);
    this.post({ type: 'cursor', position: cursor ? cursor.position : null, thread: cursor?.thread ?? -1 });
  }

  private noHistoriesReason(uri: vscode.Uri): string {
    if (isCapsule(uri)) return `${path.basename(uri.fsPath)}: this capsule has no variable values to show; its effects are on the timeline.`;
    if (!isTrusted()) {
      return `${path.basename(uri.fsPath)}: variable values come from replaying the trace with machin (machin replay --print), which Frozen Run only does in a trusted workspace. Trust this folder to see them.`;
    }
    return `${path.basename(uri.fsPath)}: no variable values: machin was not found or could not replay this trace (see "Frozen Run: Show Toolchain Output"). Set frozenRun.machinPath if machin is not on PATH.`;
  }

  private sendHistory(name: string): void {
    const rec = this.recording;
    if (!rec?.histories) return;
    this.post({ type: 'history', version: PROTOCOL_VERSION, data: packHistory(historyModel(rec, rec.histories, name)) });
  }

  private async onMessage(m: HistoryToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (m.version !== PROTOCOL_VERSION) {
          this.post({ type: 'error', message: `Frozen Run: the history view speaks protocol ${m.version}, the extension ${PROTOCOL_VERSION}; reload the window.` });
          return;
        }
        await this.load();
        return;
      case 'pickVariable':
        if (typeof m.name !== 'string') return;
        this.selected = m.name.trim();
        this.sendHistory(this.selected);
        return;
      case 'goto':
        if (this.recordingUri && Number.isInteger(m.position)) {
          await vscode.commands.executeCommand('frozenRun.gotoPosition', this.recordingUri, m.position);
        }
        return;
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
