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
import { keyFor } from '../replay-engine/model/statement-histories';
import { firstShown, historyModel, historyVariables, type HistoryVariables } from './view-models/history-model';
import { renderWebview, webviewOptions } from './webview-html';

export const HISTORY_VIEW_TYPE = 'frozenRun.history';

export class HistoryPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private recordingUri: vscode.Uri | undefined;
  private recording: Recording | undefined;
  private variables: HistoryVariables | undefined;
  /** The rows of the history shown (source level): a row's goto names its statement. */
  private shown: ReturnType<typeof historyModel> | undefined;
  private selected: string | undefined;
  /** The function of the frame the selected name came from (the Variables view), to pick that function's variable. */
  private selectedIn: string | null = null;
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
          this.post({ type: 'cursor', position: c.position, thread: c.thread, seq: c.body.statementSeq });
        }
      }),
      this.store.onDidChange((uri) => {
        if (this.recordingUri?.fsPath === uri.fsPath) void this.load();
      }),
    );
  }

  /** Shows the panel for a recording, with `variable` selected when given. */
  async show(recording: vscode.Uri, variable?: string, inFunction: string | null = null): Promise<void> {
    const switching = this.recordingUri?.fsPath !== recording.fsPath;
    this.recordingUri = recording;
    if (variable) {
      this.selected = variable;
      this.selectedIn = inFunction;
    } else if (switching) this.selected = undefined;
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
    this.variables = historyVariables(this.recording, histories);
    const names = this.variables.names;
    if (this.selected !== undefined) this.selected = this.keyOf(this.selected, this.selectedIn);
    if (this.selected === undefined) this.selected = firstShown(this.variables, histories);
    this.post({ type: 'names', version: PROTOCOL_VERSION, names, selected: this.selected });
    if (this.selected !== undefined) this.sendHistory(this.selected);
    const cursor = this.sessions.cursorFor(uri.fsPath);
    this.post({ type: 'cursor', position: cursor ? cursor.position : null, thread: cursor?.thread ?? -1, seq: cursor?.body.statementSeq ?? null });
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
    this.shown = historyModel(rec, rec.histories, name, this.variables);
    this.post({ type: 'history', version: PROTOCOL_VERSION, data: packHistory(this.shown) });
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
        this.selected = this.keyOf(m.name.trim());
        this.sendHistory(this.selected);
        return;
      case 'goto': {
        if (!this.recordingUri || !Number.isInteger(m.position)) return;
        // At source level just after the statement that stored the value, so it is in.
        const statement = this.statementOfRow(m.row);
        await vscode.commands.executeCommand('frozenRun.gotoPosition', this.recordingUri, m.position, undefined, statement);
        return;
      }
    }
  }

  /** A name the user typed or a Variables view row named (`base`), as a key of the picker (`collector.base`). */
  private keyOf(name: string, fn: string | null = null): string {
    const vars = this.variables;
    if (!vars?.byKey || vars.byKey.has(name)) return name;
    return keyFor([...vars.byKey.values()], name, fn) ?? name;
  }

  private statementOfRow(row: unknown): { thread: string; event: number; after: true } | undefined {
    const model = this.shown;
    if (!model?.stores || typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= model.values.length) return undefined;
    const thread = model.threads[model.thread[row]]?.id;
    return thread === undefined ? undefined : { thread, event: model.stores.event[row], after: true };
  }

  dispose(): void {
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
