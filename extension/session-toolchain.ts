// What a debug session says about its toolchain run (the adapter's toolchain events), logged to
// the "Frozen Run" output channel. The run itself, with its progress notification and cancel, is
// the recording store's (extension/recordings.ts): the inline adapter opens recordings there.
import * as vscode from 'vscode';
import { EVENT, type ToolchainEventBody } from '../debug-adapter/contract';
import type { DebugSessions } from './debug-sessions';
import { redact } from './output';

export function followSessionToolchains(sessions: DebugSessions, log: vscode.LogOutputChannel): vscode.Disposable {
  return sessions.onCustomEvent((e) => {
    if (e.event !== EVENT.toolchain || !e.body) return;
    const { state, message } = e.body as ToolchainEventBody;
    if (state === 'output') log.append(redact(message));
    else if (state === 'failed') log.error(`[${e.session.name}] ${redact(message)}`);
    else if (message) log.info(`[${e.session.name}] ${redact(message)}`);
  });
}
