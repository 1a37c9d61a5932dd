// The extension context (as rust-analyzer's `Ctx`): the one object that owns what lives as long
// as the extension does: the output channel, the capsule keys, which programs the user said may
// run, the recording store, the running debug sessions, the divergences, the status bar and the
// views (timeline, history, capsules). Everything else is handed it; no module keeps state of its own. Commands are registered
// from one table of `(ctx) => handler` (extension/commands/table.ts).
import * as vscode from 'vscode';
import { HitsView } from './hits-view';
import { LineCountDecorations } from './line-counts';
import { activeRecording } from './active-recording';
import { CapsuleDocumentProvider } from './capsule-document';
import { CapsulesView } from './capsules-view/capsules-view';
import { DebugSessions, recordingOf } from './debug-sessions';
import { Divergences } from './divergences';
import { HistoryPanel } from './history-panel';
import { CapsuleKeys } from './keys';
import { createOutput } from './output';
import { RecordingStore } from './recordings';
import { SessionStatusBar } from './status-bar';
import { TimelineEditorProvider } from './timeline-editor';
import { ProgramTrust } from './trust';
import { RunMarks } from './run-marks';
import { OriginHover } from './origin-hover';

export class Ctx implements vscode.Disposable {
  readonly output = createOutput();
  readonly keys: CapsuleKeys;
  readonly programs = new ProgramTrust();
  readonly store: RecordingStore;
  readonly sessions = new DebugSessions();
  readonly divergences: Divergences;
  readonly statusBar = new SessionStatusBar();
  readonly timeline: TimelineEditorProvider;
  readonly history: HistoryPanel;
  readonly capsuleDocuments: CapsuleDocumentProvider;
  /** The Capsules view: the workspace's spool folders, indexed when first shown. */
  readonly capsules: CapsulesView;
  /** Hit counts beside the program's lines (issue 30). */
  readonly lineCounts = new LineCountDecorations(this.sessions);
  /** Log point hits of the whole run (issue 30). */
  readonly hits = new HitsView(this.sessions, (s) => this.programOf(s));
  /** What the timelines mark of the whole run: log point hits, the origin chain last asked for (issue 30). */
  readonly runMarks = new RunMarks(this.sessions, (s) => this.programOf(s));
  /** The hover link to Where Did This Value Come From? on a variable of the program (issue 30). */
  readonly originHover = new OriginHover(this.sessions);
  /** The recording the user is looking at (a timeline, the trace as text, a decoded capsule). */
  readonly activeRecording = activeRecording;

  constructor(readonly extension: vscode.ExtensionContext) {
    this.keys = new CapsuleKeys(extension.secrets);
    this.store = new RecordingStore(this.keys, this.programs, this.output);
    this.divergences = new Divergences(this.sessions, this.store, this.output);
    this.timeline = new TimelineEditorProvider(this);
    this.history = new HistoryPanel(this);
    this.capsuleDocuments = new CapsuleDocumentProvider(this.store);
    this.capsules = new CapsulesView(extension.workspaceState, this.keys, this.output);
  }

  /** The program a Frozen Run session's statements are in, when known (its recording in the store, or its cursor's program). */
  programOf(session: vscode.DebugSession): string | undefined {
    const file = recordingOf(session);
    return this.store.peek(file)?.statements?.file ?? this.sessions.cursorFor(file)?.body.watched?.programPath;
  }

  dispose(): void {
    for (const d of [this.originHover, this.runMarks, this.hits, this.lineCounts, this.capsules, this.capsuleDocuments, this.history, this.timeline, this.divergences, this.statusBar, this.sessions, this.store, this.output]) d.dispose();
  }
}
