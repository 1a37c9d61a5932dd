// The "Frozen Run" output channel, and toolchain runs shown with progress and a cancel button.
// Keys never reach this channel: toolchains get the key in their environment only, and what
// they print is passed through `redact` before it is shown.
import * as vscode from 'vscode';
import { redact } from './redact';

let channel: vscode.LogOutputChannel | undefined;

export function output(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Frozen Run', { log: true });
  return channel;
}

export { redact };

export function appendToolchainOutput(text: string): void {
  output().append(redact(text));
}

/**
 * Runs a toolchain task (machin or tin under the hood) with a cancellable progress notification.
 * `task` gets an AbortSignal that fires on cancel; its output goes to the channel.
 */
export async function withToolchainProgress<T>(
  title: string,
  task: (signal: AbortSignal, onOutput: (text: string) => void) => Promise<T>,
): Promise<T> {
  output().info(title);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => {
        output().warn(`${title}: cancelled`);
        abort.abort();
      });
      try {
        return await task(abort.signal, appendToolchainOutput);
      } finally {
        sub.dispose();
      }
    },
  );
}
