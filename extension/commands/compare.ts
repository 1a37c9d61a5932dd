// "Compare With...": two runs of the same program side by side (webview-ui/compare), aligned by
// the engine (replay-engine/compare), the divergence marked and selected; "Debug from divergence"
// starts a session on either run stopped at the record where it parts from the other.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REQUEST } from '../../debug-adapter/contract';
import type { Ctx } from '../ctx';
import { checkLaunchArguments } from '../../debug-adapter/launch-config';
import { compareRecordings, type Comparison } from '../../replay-engine/compare/compare-recordings';
import { compareViewData } from '../../replay-engine/compare/view-data';
import type { Recording } from '../../replay-engine/model/recording';
import { COMPARE_PROTOCOL_VERSION, packCompare, type CompareModel, type CompareSide, type CompareToHost, type HostToCompare } from '../../webview-ui/compare/protocol';
import { DEBUG_TYPE, type DebugSessions } from '../debug-sessions';
import { isRecordingPath } from '../debug-configuration';
import { errorText, type RecordingStore } from '../recordings';
import { timelineModel } from '../view-models/timeline-model';
import { explainRestricted, isTrusted } from '../trust';
import { renderWebview, webviewOptions } from '../webview-html';
import { recordingFromArg, type ActiveTimeline } from './recording-arg';

interface CompareDeps {
  store: RecordingStore;
  sessions: DebugSessions;
  activeTimeline: ActiveTimeline;
  /** The open compare panels, by pair of files. */
  open: Map<string, ComparePanel>;
}

/** Compare With...: the handler, with the compare panels it keeps open (one per pair). */
export function compareWith(ctx: Ctx): (arg?: unknown, selected?: unknown) => Promise<void> {
  const deps: CompareDeps = { store: ctx.store, sessions: ctx.sessions, activeTimeline: ctx.activeRecording, open: new Map() };
  return async (arg, selected) => {
    // From the explorer with two recordings selected: compare those two.
    const two = Array.isArray(selected) ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri && isRecordingPath(u.fsPath)) : [];
    const a = two.length === 2 ? two[0] : recordingFromArg(arg, deps.activeTimeline);
    if (!a) {
      void vscode.window.showInformationMessage('Frozen Run: Compare With...: open a recording (.mflrr or .tcap) first.');
      return;
    }
    const b = two.length === 2 ? two[1] : await pickSecond(a);
    if (b) await ComparePanel.show(ctx.extension.extensionUri, deps, a, b);
  };
}

/** The second recording: one of the same format in the workspace, or any file through a dialog. */
async function pickSecond(a: vscode.Uri): Promise<vscode.Uri | undefined> {
  const ext = path.extname(a.fsPath).toLowerCase();
  const files = (await vscode.workspace.findFiles(`**/*${ext}`, '**/node_modules/**', 500)).filter((f) => f.fsPath !== a.fsPath);
  const browse = { label: '$(folder-opened) Browse...', uri: undefined as vscode.Uri | undefined };
  const items = [
    ...files
      .sort((x, y) => sameFolderFirst(a, x) - sameFolderFirst(a, y) || x.fsPath.localeCompare(y.fsPath))
      .map((f) => ({ label: path.basename(f.fsPath), description: vscode.workspace.asRelativePath(path.dirname(f.fsPath)), uri: f as vscode.Uri | undefined })),
    browse,
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Frozen Run: compare ${path.basename(a.fsPath)} with...`,
    placeHolder: 'Another run of the same program',
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Compare',
    defaultUri: vscode.Uri.file(path.dirname(a.fsPath)),
    filters: { Recordings: ['mflrr', 'tcap'] },
  });
  return chosen?.[0];
}

function sameFolderFirst(a: vscode.Uri, f: vscode.Uri): number {
  return path.dirname(f.fsPath) === path.dirname(a.fsPath) ? 0 : 1;
}

class ComparePanel {
  private readonly disposables: vscode.Disposable[] = [];
  private comparison: Comparison | null = null;
  private model: CompareModel | null = null;
  private ready = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly deps: CompareDeps,
    private readonly uris: Record<CompareSide, vscode.Uri>,
  ) {
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: CompareToHost) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      // Either file changed on disk (or a capsule key was set): compare again.
      deps.store.onDidChange((uri) => {
        if (uri.fsPath === uris.a.fsPath || uri.fsPath === uris.b.fsPath) void this.load();
      }),
    );
  }

  static async show(extensionUri: vscode.Uri, deps: CompareDeps, a: vscode.Uri, b: vscode.Uri): Promise<void> {
    const key = `${a.fsPath}\n${b.fsPath}`;
    const existing = deps.open.get(key);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    const title = `${path.basename(a.fsPath)} ↔ ${path.basename(b.fsPath)}`;
    const panel = vscode.window.createWebviewPanel('frozenRun.compare', title, vscode.ViewColumn.Active, webviewOptions(extensionUri));
    panel.webview.html = renderWebview(panel.webview, extensionUri, 'compare', `Compare ${title}`);
    const view = new ComparePanel(panel, deps, { a, b });
    deps.open.set(key, view);
    await view.load();
  }

  private async load(): Promise<void> {
    try {
      // With machin (trusted workspace) the runs carry value histories: the first variable that differs.
      const [ra, rb] = await Promise.all([this.deps.store.replay(this.uris.a), this.deps.store.replay(this.uris.b)]);
      const { comparison, alignment } = compareRecordings(ra, rb);
      this.comparison = comparison;
      this.model = { a: timelineModel(ra), b: timelineModel(rb), ...compareViewData(comparison, alignment) };
      this.sendModel();
    } catch (err) {
      this.post({ type: 'error', message: errorText(err) });
      void vscode.window.showErrorMessage(errorText(err));
    }
  }

  private sendModel(): void {
    if (this.ready && this.model) this.post({ type: 'compare', version: COMPARE_PROTOCOL_VERSION, data: packCompare(this.model) });
  }

  private post(message: HostToCompare): void {
    void this.panel.webview.postMessage(message);
  }

  private onMessage(m: CompareToHost): void {
    if (m.type === 'ready') {
      this.ready = true;
      this.sendModel();
    } else if (m.type === 'debug') {
      void this.debugFrom(m.side, m.record);
    }
  }

  /** A session on one run, stopped at `record` (the divergence, or the selected record). */
  private async debugFrom(side: CompareSide, record: number): Promise<void> {
    const uri = this.uris[side];
    if (!isTrusted()) {
      await explainRestricted('Debug from divergence');
      return;
    }
    const recording = this.deps.store.peek(uri.fsPath);
    const position = recording ? stopPosition(recording, record) : undefined;
    const name = `Debug from divergence: ${path.basename(uri.fsPath)}${position !== undefined ? ` (op ${position})` : ''}`;
    const config: vscode.DebugConfiguration = { type: DEBUG_TYPE, request: 'launch', name, recording: uri.fsPath, stopOnEntry: true };
    const direct = position !== undefined && adapterHonoursStartPosition();
    if (direct) config.startPosition = position;
    for (const s of this.deps.sessions.sessionsFor(uri.fsPath)) await vscode.debug.stopDebugging(s);
    const firstStop = this.deps.sessions.waitForCursor(uri.fsPath, 120_000);
    const ok = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(uri), config);
    if (!ok) {
      void vscode.window.showErrorMessage(`Frozen Run: could not start a replay of ${path.basename(uri.fsPath)} (see the Debug Console and the "Frozen Run" output).`);
      return;
    }
    if (direct) return;
    // The adapter does not take `startPosition`: stop on entry, then move there.
    const cursor = await firstStop;
    if (!cursor) return;
    try {
      await cursor.session.customRequest(REQUEST.goto, { record });
    } catch (err) {
      void vscode.window.showErrorMessage(`Frozen Run: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private dispose(): void {
    for (const [key, p] of this.deps.open) if (p === this) this.deps.open.delete(key);
    this.disposables.forEach((d) => d.dispose());
  }
}

/** The cursor position where the session stops for `record`: once that record is done. */
function stopPosition(recording: Recording, record: number): number {
  const tl = recording.timeline;
  return record >= 0 && record < tl.recordCount ? tl.positionOf(record) : tl.stepCount;
}

/** Whether the debug adapter's launch check accepts the `startPosition` attribute. */
function adapterHonoursStartPosition(): boolean {
  return typeof checkLaunchArguments({ recording: 'x.mflrr', startPosition: 0 }) !== 'string';
}
