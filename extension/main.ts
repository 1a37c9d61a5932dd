// Activation: makes the extension context (extension/ctx.ts, which owns the store, the sessions,
// the keys, the divergences, the output channel and the views) and connects VS Code to it: the
// inline debug adapter, the debug configurations, the commands from their one table, the
// language client. Each piece lives in its own file; this one only connects them.
import * as vscode from 'vscode';
import { stopAllProcesses } from '../replay-engine/toolchain/run-process';
import { trackActiveRecording } from './active-recording';
import { registerCommands } from './commands/table';
import { setContext } from './context';
import { Ctx } from './ctx';
import { registerDebugConfigurations } from './debug-configuration';
import { registerDebugAdapter } from './debug-provider';
import { followCursorContext } from './cursor-context';
import { offerMcpServer } from './mcp-provider';
import { forwardSessionFacts, startLanguageClient } from './language-client';
import { followSessionToolchains } from './session-toolchain';
import { CAPSULE_SCHEME } from '../language-server/protocol';

export function activate(context: vscode.ExtensionContext): void {
  const ctx = new Ctx(context);
  context.subscriptions.push(ctx);
  // Restricted Mode note: nothing here starts a toolchain; only replays do, and they check trust.
  ctx.output.info(`Frozen Run activated (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'in Restricted Mode: trace-only, no toolchain'})`);

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(CAPSULE_SCHEME, ctx.capsuleDocuments),
    ...registerDebugConfigurations(ctx.activeRecording),
    registerDebugAdapter(ctx.store),
    ...registerCommands(ctx),
    followSessionToolchains(ctx.sessions, ctx.output),
    followCursorContext(ctx.sessions),
  );
  startLanguageClient(context).then(
    (client) => context.subscriptions.push(forwardSessionFacts(client, ctx.sessions)),
    (err) => ctx.output.error(`The Frozen Run language server did not start: ${err instanceof Error ? err.message : String(err)}`),
  );
  trackActiveRecording(context);
  offerMcpServer(context);
  context.subscriptions.push(
    ctx.sessions.onDidMoveCursor((c) => {
      if (c.session.id !== vscode.debug.activeDebugSession?.id) return;
      const { thread, threadLabel, threadUnit, unit } = c.body;
      const label = thread === null ? '' : `${threadUnit} ${threadLabel ? `${thread} ${threadLabel}` : thread}`;
      ctx.statusBar.show({ position: c.position, total: c.total, thread: label, step: c.body.step, unit, atStart: c.body.atStart, beforeFirst: c.record < 0 });
    }),
    // DebugSessions subscribed first, so its list is up to date in these handlers.
    vscode.debug.onDidStartDebugSession(() => setContext('frozenRun.sessionActive', ctx.sessions.any())),
    vscode.debug.onDidChangeActiveDebugSession((s) => {
      if (s?.type !== 'frozen-run') ctx.statusBar.hide();
    }),
    vscode.debug.onDidTerminateDebugSession(() => {
      setContext('frozenRun.sessionActive', ctx.sessions.any());
      if (!ctx.sessions.active()) ctx.statusBar.hide();
    }),
  );
}

/** The extension host is closing: no toolchain process group outlives it. */
export function deactivate(): Promise<void> {
  return stopAllProcesses();
}
