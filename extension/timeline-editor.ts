// The Frozen Run timeline: the default (read-only) editor for .mflrr and .tcap files. The host
// reads the recording through the engine (RecordingStore) and sends the webview a packed model;
// the webview never parses a file. It follows the debug session's cursor and moves it on click.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EVENT } from '../debug-adapter/contract';
import type { Recording } from '../replay-engine/model/recording';
import { RecordingError } from '../replay-engine/model/errors';
import {
  packModel,
  PROTOCOL_VERSION,
  type HostToTimeline,
  type TimelineCommandId,
  type TimelineToHost,
} from '../webview-ui/protocol';
import { recordingOf, type DebugSessions } from './debug-sessions';
import type { Divergences } from './divergences';
import { errorText, isCapsule, type RecordingStore } from './recordings';
import { isTrusted, RESTRICTED_BANNER } from './trust';
import { timelineModel } from './view-models/timeline-model';
import type { RunMarks } from './run-marks';
import { runMarksMsg } from './view-models/run-marks-model';
import type { ThreadMsg } from '../webview-ui/protocol';
import { renderWebview, webviewOptions } from './webview-html';

export const TIMELINE_VIEW_TYPE = 'frozenRun.timeline';

/** The toolbar buttons of the webview and the commands they run. */
const TOOLBAR_COMMANDS: Record<TimelineCommandId, string> = {
  replayToPanic: 'frozenRun.replayToPanic',
  stepBackInto: 'frozenRun.stepBackInto',
  stepBackOut: 'frozenRun.stepBackOut',
  runBackToCursor: 'frozenRun.runBackToCursor',
  replayAgainstBuild: 'frozenRun.replayAgainstBuild',
  openVariableHistory: 'frozenRun.openVariableHistory',
  compareWith: 'frozenRun.compareWith',
  openAsText: 'frozenRun.openAsText',
  setCapsuleKey: 'frozenRun.setCapsuleKey',
  openMachinSetting: 'frozenRun.openMachinSetting',
};

class RecordingDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

/** One open timeline panel. */
class TimelinePanel {
  private recording: Recording | undefined;
  private ready = false;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  private generation = 0;
  /** The record selected in the view (the last one whose details it asked for). */
  private selected = -1;
  /** The lanes of the model last sent (the run's marks are placed on them). */
  private lanes: ThreadMsg[] = [];

  constructor(
    readonly uri: vscode.Uri,
    readonly panel: vscode.WebviewPanel,
    private readonly store: RecordingStore,
    private readonly sessions: DebugSessions,
    private readonly divergences: Divergences,
    private readonly runMarks: RunMarks,
  ) {}

  hasPanic(): boolean {
    return this.recording?.panic != null;
  }

  post(message: HostToTimeline): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  /** Reads (again) and sends the model; in a trusted workspace then adds the toolchain's results. */
  async load(): Promise<void> {
    const gen = ++this.generation;
    this.post({ type: 'banner', text: isTrusted() ? null : RESTRICTED_BANNER });
    try {
      const recording = await this.store.read(this.uri);
      if (gen !== this.generation) return;
      this.show(recording);
    } catch (err) {
      if (gen !== this.generation) return;
      this.post({ type: 'error', message: this.errorMessage(err), actions: this.errorActions(err) });
      return;
    }
    if (isTrusted() && !isCapsule(this.uri)) {
      // The panic and causal chain of a trace come from machin: add them when they arrive (the
      // store enriches the recording read above in place, so it is shown again).
      this.store.replay(this.uri).then(
        (r) => gen === this.generation && this.show(r),
        () => undefined, // logged by the store; the trace itself is shown already
      );
    }
  }

  private errorMessage(err: unknown): string {
    const text = errorText(err);
    if (isKeyError(err)) {
      const env = process.env.TIN_REPLAY_KEY ? ' The TIN_REPLAY_KEY this VS Code was started with does not open it.' : '';
      return `${text}${env}\n\nSet Key asks for the key this capsule was recorded with and keeps it in VS Code's secret storage.`;
    }
    return text;
  }

  private errorActions(err: unknown): Array<{ id: TimelineCommandId; label: string }> | undefined {
    return isKeyError(err) ? [{ id: 'setCapsuleKey', label: 'Set Key…' }] : undefined;
  }

  private show(recording: Recording): void {
    this.recording = recording;
    if (!this.ready) return;
    const model = timelineModel(recording);
    this.lanes = model.threads;
    this.post({ type: 'model', version: PROTOCOL_VERSION, data: packModel(model) });
    const cursor = this.sessions.cursorFor(this.uri.fsPath);
    this.post({ type: 'cursor', position: cursor ? cursor.position : null, thread: cursor?.thread ?? -1, record: cursor?.record, atStart: cursor?.body.atStart });
    const div = this.divergences.get(this.uri.fsPath);
    if (div) this.post({ type: 'divergence', record: div.record, message: div.message });
    this.postRunMarks();
  }

  /** The session's log point hits and origin chain on this recording's lanes (issue 30). */
  postRunMarks(): void {
    if (!this.ready || !this.recording) return;
    const m = this.runMarks.get(this.uri.fsPath);
    this.post(runMarksMsg(this.lanes, m?.hits ?? [], m?.hitCount ?? 0, m?.origin ?? null));
  }

  async onMessage(m: TimelineToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (m.version !== PROTOCOL_VERSION) {
          this.post({ type: 'error', message: `Frozen Run: the timeline view speaks protocol ${m.version}, the extension ${PROTOCOL_VERSION}; reload the window.` });
          return;
        }
        if (this.recording) this.show(this.recording);
        else await this.load();
        return;
      case 'requestDetails': {
        const r = this.recording;
        if (!r || !Number.isInteger(m.record) || m.record < 0 || m.record >= r.timeline.recordCount) return;
        this.selected = m.record;
        this.post({ type: 'recordDetails', record: m.record, view: r.describe(m.record) });
        return;
      }
      case 'goto':
        await this.activeFirst();
        await vscode.commands.executeCommand('frozenRun.gotoPosition', this.uri, m.position, m.record);
        return;
      case 'openProgram':
        await this.activeFirst();
        await this.openProgram(m.line, m.column);
        return;
      case 'command': {
        const command = TOOLBAR_COMMANDS[m.id];
        if (!command) return;
        await this.activeFirst();
        // Run Back to Cursor from the timeline: back to the record selected there.
        if (m.id === 'runBackToCursor') await vscode.commands.executeCommand(command, this.uri, this.selected);
        // Open as Text: in the timeline's group, whichever group has the focus.
        else if (m.id === 'openAsText') await vscode.commands.executeCommand(command, this.uri, this.panel.viewColumn);
        else await vscode.commands.executeCommand(command, this.uri);
        return;
      }
    }
  }

  /**
   * Waits (at most a second) until VS Code has made this panel the active editor. A click in
   * the webview is a message here before VS Code has moved the focus to the webview's group; when
   * the focus moves later, it undoes what the command did meanwhile (a replay's layout focuses the
   * first group so the program opens there; a text editor opened in the active group).
   */
  private async activeFirst(): Promise<void> {
    if (this.panel.active || !this.panel.visible) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 1000);
      const sub = this.panel.onDidChangeViewState((e) => e.webviewPanel.active && done());
      function done() {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  }

  /**
   * "Open in program": the program the statements are in (the host's own path, never one from the
   * view) at that line and column. An editor of it already shown in a group is reused; otherwise it
   * opens beside the timeline, so the timeline keeps its group (issue 15: no furniture moves).
   */
  private async openProgram(line: number, column: number): Promise<void> {
    const file = this.recording?.statements?.file;
    if (!file || !Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) return;
    const uri = vscode.Uri.file(file);
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString() && e.viewColumn !== undefined && e.viewColumn !== this.panel.viewColumn);
    const at = new vscode.Position(line - 1, column - 1);
    try {
      await vscode.window.showTextDocument(uri, { viewColumn: shown?.viewColumn ?? vscode.ViewColumn.Beside, selection: new vscode.Range(at, at), preview: true });
    } catch (err) {
      void vscode.window.showErrorMessage(`Frozen Run: cannot open ${file}: ${errorText(err)}`);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.forEach((d) => d.dispose());
  }
}

function isKeyError(err: unknown): boolean {
  return err instanceof RecordingError && (err.code === 'no-key' || err.code === 'wrong-key-or-damaged');
}

/** What the views need of the extension context (extension/ctx.ts), which makes them. */
export interface ViewDeps {
  extension: vscode.ExtensionContext;
  store: RecordingStore;
  sessions: DebugSessions;
  divergences: Divergences;
  runMarks: RunMarks;
}

export class TimelineEditorProvider implements vscode.CustomReadonlyEditorProvider<RecordingDocument>, vscode.Disposable {
  private readonly panels = new Set<TimelinePanel>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: ViewDeps) {
    const { sessions, store } = ctx;
    this.disposables.push(
      sessions.onDidMoveCursor((c) => {
        for (const p of this.panelsFor(c.recording)) p.post({ type: 'cursor', position: c.position, thread: c.thread, record: c.record, atStart: c.body.atStart });
      }),
      sessions.onDidEndSession(({ recording }) => {
        for (const p of this.panelsFor(recording)) {
          const still = sessions.cursorFor(recording);
          p.post({ type: 'cursor', position: still ? still.position : null, thread: still?.thread ?? -1 });
        }
      }),
      // A session learned the panic (machin ran there, e.g. after the user confirmed the program):
      // read again so the timeline shows it too. Unless the store already has it: the session's
      // recording is then the store's (one machin run).
      sessions.onCustomEvent((e) => {
        if (e.event !== EVENT.causalChain) return;
        const file = recordingOf(e.session);
        if (file && !store.peek(file)?.panic && this.panelsFor(file).some((p) => !p.hasPanic())) store.invalidate(vscode.Uri.file(file));
      }),
      ctx.runMarks.onDidChange((file) => this.panelsFor(file).forEach((p) => p.postRunMarks())),
      ctx.divergences.onDidChange(({ file, mark }) => {
        for (const p of this.panelsFor(file)) p.post({ type: 'divergence', record: mark?.record ?? null, message: mark?.message });
      }),
      store.onDidChange((uri) => {
        for (const p of this.panelsFor(uri.fsPath)) void p.load();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.panels.forEach((p) => void p.load())),
      vscode.window.registerCustomEditorProvider(TIMELINE_VIEW_TYPE, this, {
        webviewOptions: { retainContextWhenHidden: false, enableFindWidget: false },
        supportsMultipleEditorsPerDocument: true,
      }),
    );
  }

  openCustomDocument(uri: vscode.Uri): RecordingDocument {
    return new RecordingDocument(uri);
  }

  resolveCustomEditor(document: RecordingDocument, panel: vscode.WebviewPanel): void {
    const extensionUri = this.ctx.extension.extensionUri;
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = renderWebview(panel.webview, extensionUri, 'timeline', `Timeline: ${path.basename(document.uri.fsPath)}`);
    const p = new TimelinePanel(document.uri, panel, this.ctx.store, this.ctx.sessions, this.ctx.divergences, this.ctx.runMarks);
    this.panels.add(p);
    const sub = panel.webview.onDidReceiveMessage((m: TimelineToHost) => void p.onMessage(m));
    panel.onDidDispose(() => {
      this.panels.delete(p);
      sub.dispose();
      p.dispose();
    });
  }

  private panelsFor(file: string): TimelinePanel[] {
    const abs = path.resolve(file);
    return [...this.panels].filter((p) => path.resolve(p.uri.fsPath) === abs);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
