// Activation: wires the engine-backed views (timeline, variable history, decoded capsules), the
// inline debug adapter, the language client, keys, trust and the commands. Each piece lives in
// its own file; this one only connects them.
import * as vscode from 'vscode';
import { stopAllProcesses } from '../replay-engine/toolchain/run-process';
import { activeRecording, trackActiveRecording } from './active-recording';
import { CapsuleDocumentProvider } from './capsule-document';
import { registerCapsuleKeyCommands } from './commands/capsule-keys';
import { registerCompareCommands } from './commands/compare';
import { registerHistoryCommand } from './commands/history';
import { ReplayCommands } from './commands/replay';
import { registerSteppingCommands } from './commands/stepping';
import { registerTinCommands } from './commands/tin-replay';
import { registerViewCommands } from './commands/views';
import { setContext } from './context';
import { registerDebugConfigurations } from './debug-configuration';
import { registerDebugAdapter } from './debug-provider';
import { DebugSessions } from './debug-sessions';
import { HistoryPanel } from './history-panel';
import { forwardSessionFacts, startLanguageClient } from './language-client';
import { CapsuleKeys } from './keys';
import { output } from './output';
import { RecordingStore } from './recordings';
import { followSessionToolchains } from './session-toolchain';
import { SessionStatusBar } from './status-bar';
import { TimelineEditorProvider } from './timeline-editor';
import { CAPSULE_SCHEME } from '../language-server/protocol';

export function activate(context: vscode.ExtensionContext): void {
  // Restricted Mode note: nothing here starts a toolchain; only replays do, and they check trust.
  const log = output();
  context.subscriptions.push(log);
  log.info(`Frozen Run activated (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'in Restricted Mode: trace-only, no toolchain'})`);

  const keys = new CapsuleKeys(context.secrets);
  const store = new RecordingStore(keys);
  const sessions = new DebugSessions();
  const statusBar = new SessionStatusBar();
  context.subscriptions.push(store, sessions, statusBar);

  const timeline = TimelineEditorProvider.register(context, store, sessions);
  const capsuleDocs = new CapsuleDocumentProvider(store);
  context.subscriptions.push(capsuleDocs, vscode.workspace.registerTextDocumentContentProvider(CAPSULE_SCHEME, capsuleDocs));
  const history = new HistoryPanel(context.extensionUri, store, sessions);
  context.subscriptions.push(history);

  registerDebugConfigurations(context, activeRecording);
  registerDebugAdapter(context, keys);

  new ReplayCommands(sessions, activeRecording).register(context);
  registerCompareCommands(context, { store, sessions, activeTimeline: activeRecording });
  registerSteppingCommands(context, sessions);
  registerHistoryCommand(context, history, activeRecording);
  registerCapsuleKeyCommands(context, keys, store, activeRecording);
  registerViewCommands(context, activeRecording);
  registerTinCommands(context, { store, timeline, activeTimeline: activeRecording });

  context.subscriptions.push(followSessionToolchains(sessions));
  startLanguageClient(context).then(
    (client) => context.subscriptions.push(forwardSessionFacts(client, sessions)),
    (err) => log.error(`The Frozen Run language server did not start: ${err instanceof Error ? err.message : String(err)}`),
  );
  trackActiveRecording(context);
  context.subscriptions.push(
    sessions.onDidMoveCursor((c) => {
      if (c.session.id !== vscode.debug.activeDebugSession?.id) return;
      const tl = store.peek(c.recording)?.timeline;
      const kind = tl?.format === 'tcap' ? 'task' : 'goroutine';
      const label = tl && c.thread >= 0 && c.thread < tl.threads.length ? `${kind} ${tl.label(c.thread)}` : c.threadLabel ? `${kind} ${c.threadLabel}` : '';
      statusBar.show({ position: c.position, total: c.total, thread: label });
    }),
    // DebugSessions subscribed first, so its list is up to date in these handlers.
    vscode.debug.onDidStartDebugSession(() => setContext('frozenRun.sessionActive', sessions.any())),
    vscode.debug.onDidChangeActiveDebugSession((s) => {
      if (s?.type !== 'frozen-run') statusBar.hide();
    }),
    vscode.debug.onDidTerminateDebugSession(() => {
      setContext('frozenRun.sessionActive', sessions.any());
      if (!sessions.active()) statusBar.hide();
    }),
  );
}

/** The extension host is closing: no toolchain process group outlives it. */
export function deactivate(): Promise<void> {
  return stopAllProcesses();
}
