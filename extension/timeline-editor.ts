// The Frozen Run timeline: the default (read-only) editor for .mflrr and .tcap files. The host
// reads the recording through the engine (RecordingStore) and sends the webview a packed model;
// the webview never parses a file. It follows the debug session's cursor and moves it on click.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Recording } from '../replay-engine/model/recording';
import { RecordingError } from '../replay-engine/model/errors';
import { requestValue } from '../replay-engine/tcap/decode/http-request';
import { TcapRecording } from '../replay-engine/tcap/tcap-recording';
import {
  packModel,
  PROTOCOL_VERSION,
  type HostToTimeline,
  type TimelineCommandId,
  type TimelineModel,
  type TimelineToHost,
} from '../webview-ui/protocol';
import { recordingOf, type DebugSessions } from './debug-sessions';
import { toolchainNoteOf, verdictOf } from './faithfulness';
import { laneOrder } from './lane-order';
import { errorText, isCapsule, type RecordingStore } from './recordings';
import { isTrusted, RESTRICTED_BANNER } from './trust';
import { renderWebview, webviewOptions } from './webview-html';
import { output } from './output';

export const TIMELINE_VIEW_TYPE = 'frozenRun.timeline';

/** Summaries sent with the model, so hovers need no round trip; the rest come on request. */
const SUMMARY_LIMIT = 10_000;

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

  constructor(
    readonly uri: vscode.Uri,
    readonly panel: vscode.WebviewPanel,
    private readonly store: RecordingStore,
    private readonly sessions: DebugSessions,
    private readonly divergences: Map<string, { record: number; message?: string }>,
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
      // The panic and causal chain of a trace come from machin: add them when they arrive.
      this.store.replay(this.uri).then(
        (r) => gen === this.generation && r !== this.recording && this.show(r),
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
    this.post({ type: 'model', version: PROTOCOL_VERSION, data: packModel(toModel(recording)) });
    const cursor = this.sessions.cursorFor(this.uri.fsPath);
    this.post({ type: 'cursor', position: cursor ? cursor.position : null, thread: cursor?.thread ?? -1, record: cursor?.record });
    const div = this.divergences.get(this.uri.fsPath);
    if (div) this.post({ type: 'divergence', record: div.record, message: div.message });
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
        await vscode.commands.executeCommand('frozenRun.gotoPosition', this.uri, m.position, m.record);
        return;
      case 'command': {
        const command = TOOLBAR_COMMANDS[m.id];
        // Run Back to Cursor from the timeline: back to the record selected there.
        if (m.id === 'runBackToCursor') await vscode.commands.executeCommand(command, this.uri, this.selected);
        else if (command) await vscode.commands.executeCommand(command, this.uri);
        return;
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.forEach((d) => d.dispose());
  }
}

/** The webview's model: the timeline's arrays as they are, plus facts and the panic. */
export function toModel(recording: Recording): TimelineModel {
  const tl = recording.timeline;
  const summaries: string[] = [];
  const n = Math.min(tl.recordCount, SUMMARY_LIMIT);
  for (let r = 0; r < n; r++) summaries.push(recording.describe(r).summary);
  const panic = recording.panic;
  // Lanes main first, then by id: the view's thread indices are lane numbers (lane-order.ts).
  const lanes = laneOrder(tl);
  return {
    format: tl.format,
    fileName: path.basename(tl.file),
    facts: tl.facts.map((f) => ({ key: f.key, label: f.label, value: f.value })),
    threads: lanes.threads,
    kinds: [...tl.kinds],
    recordCount: tl.recordCount,
    recordThread: lanes.recordLane,
    recordKind: tl.kind,
    stepRecord: tl.stepRecords(),
    summaries,
    panic: panic ? { position: panic.position, thread: lanes.laneOf[panic.thread], message: panic.message } : null,
    bestEffort: recording.bestEffort,
    request: requestOf(recording),
    verdict: verdictOf(recording),
    toolchainNote: toolchainNoteOf(recording),
  };
}

function isKeyError(err: unknown): boolean {
  return err instanceof RecordingError && (err.code === 'no-key' || err.code === 'wrong-key-or-damaged');
}

/** A capsule's request, decoded, for the details panel before any selection. */
function requestOf(recording: Recording): TimelineModel['request'] {
  return recording instanceof TcapRecording ? requestValue(recording.header.request) : undefined;
}

export class TimelineEditorProvider implements vscode.CustomReadonlyEditorProvider<RecordingDocument>, vscode.Disposable {
  private readonly panels = new Set<TimelinePanel>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Where Replay Against Build diverged, per recording, until it is read again. */
  readonly divergences = new Map<string, { record: number; message?: string }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: RecordingStore,
    private readonly sessions: DebugSessions,
  ) {
    this.disposables.push(
      sessions.onDidMoveCursor((c) => {
        for (const p of this.panelsFor(c.recording)) p.post({ type: 'cursor', position: c.position, thread: c.thread, record: c.record });
        const div = this.divergences.get(c.recording);
        if (div && !this.toldSessions.has(c.session.id)) this.tellSession(c.session, div.record, div.message);
      }),
      sessions.onDidEndSession(({ recording }) => {
        for (const p of this.panelsFor(recording)) {
          const still = sessions.cursorFor(recording);
          p.post({ type: 'cursor', position: still ? still.position : null, thread: still?.thread ?? -1 });
        }
      }),
      // A session learned the panic (machin ran there, e.g. after the user confirmed the program):
      // read again so the timeline shows it too.
      sessions.onCustomEvent((e) => {
        if (e.event !== 'frozenRun/causalChain') return;
        const file = recordingOf(e.session);
        if (file && this.panelsFor(file).some((p) => !p.hasPanic())) store.invalidate(vscode.Uri.file(file));
      }),
      store.onDidChange((uri) => {
        this.divergences.delete(uri.fsPath);
        for (const p of this.panelsFor(uri.fsPath)) void p.load();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.panels.forEach((p) => void p.load())),
    );
  }

  static register(context: vscode.ExtensionContext, store: RecordingStore, sessions: DebugSessions): TimelineEditorProvider {
    const provider = new TimelineEditorProvider(context.extensionUri, store, sessions);
    context.subscriptions.push(
      provider,
      vscode.window.registerCustomEditorProvider(TIMELINE_VIEW_TYPE, provider, {
        webviewOptions: { retainContextWhenHidden: false, enableFindWidget: false },
        supportsMultipleEditorsPerDocument: true,
      }),
    );
    return provider;
  }

  openCustomDocument(uri: vscode.Uri): RecordingDocument {
    return new RecordingDocument(uri);
  }

  resolveCustomEditor(document: RecordingDocument, panel: vscode.WebviewPanel): void {
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = renderWebview(panel.webview, this.extensionUri, 'timeline', `Timeline: ${path.basename(document.uri.fsPath)}`);
    const p = new TimelinePanel(document.uri, panel, this.store, this.sessions, this.divergences);
    this.panels.add(p);
    const sub = panel.webview.onDidReceiveMessage((m: TimelineToHost) => void p.onMessage(m));
    panel.onDidDispose(() => {
      this.panels.delete(p);
      sub.dispose();
      p.dispose();
    });
  }

  /**
   * Marks where Replay Against Build diverged on every open timeline of the recording, and tells
   * the debug sessions on it, so the `divergence` exception filter stops there both ways.
   */
  showDivergence(recording: vscode.Uri, record: number | null, message?: string): void {
    if (record === null) this.divergences.delete(recording.fsPath);
    else this.divergences.set(recording.fsPath, { record, message });
    for (const p of this.panelsFor(recording.fsPath)) p.post({ type: 'divergence', record, message });
    for (const s of this.sessions.sessionsFor(recording.fsPath)) this.tellSession(s, record, message);
  }

  private tellSession(session: vscode.DebugSession, effect: number | null, message?: string): void {
    this.toldSessions.add(session.id);
    session.customRequest('frozenRun/divergence', { effect, message }).then(undefined, (e: unknown) => {
      output().warn(`divergence not marked in the debug session: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  /** Sessions that were told the divergence (a session started later is told at its first stop). */
  private readonly toldSessions = new Set<string>();

  private panelsFor(file: string): TimelinePanel[] {
    const abs = path.resolve(file);
    return [...this.panels].filter((p) => path.resolve(p.uri.fsPath) === abs);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
