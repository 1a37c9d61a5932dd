// A debug session's toolchain run (machin replay while the adapter opens a trace), shown as a
// progress notification with a cancel (which stops the session) and logged to the "Frozen Run"
// output channel. The adapter reports it with `frozenRun/toolchain` events.
import * as vscode from 'vscode';
import { EVENT, type ToolchainEventBody } from '../debug-adapter/contract';
import type { DebugSessions } from './debug-sessions';
import { appendToolchainOutput, output, redact } from './output';

interface Running {
  finish(): void;
}

export function followSessionToolchains(sessions: DebugSessions): vscode.Disposable {
  const running = new Map<string, Running>();
  const finish = (id: string) => {
    running.get(id)?.finish();
    running.delete(id);
  };
  const subs = [
    sessions.onCustomEvent((e) => {
      if (e.event !== EVENT.toolchain || !e.body) return;
      const { state, message } = e.body as ToolchainEventBody;
      if (state === 'output') {
        appendToolchainOutput(message);
        return;
      }
      if (message) output().info(`[${e.session.name}] ${redact(message)}`);
      if (state === 'running' && !running.has(e.session.id)) {
        const session = e.session;
        void vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Frozen Run: ${message || 'replaying with the toolchain'}`, cancellable: true },
          (_progress, token) =>
            new Promise<void>((resolve) => {
              running.set(session.id, { finish: resolve });
              token.onCancellationRequested(() => {
                output().warn(`[${session.name}] toolchain run cancelled: stopping the session`);
                finish(session.id);
                void vscode.debug.stopDebugging(session);
              });
            }),
        );
      } else if (state !== 'running') {
        finish(e.session.id);
        if (state === 'failed') output().error(`[${e.session.name}] ${redact(message)}`);
      }
    }),
    sessions.onDidEndSession(({ session }) => finish(session.id)),
  ];
  return vscode.Disposable.from(...subs, { dispose: () => [...running.keys()].forEach(finish) });
}
