// The "Frozen Run" output channel (owned by the extension context, extension/ctx.ts), and
// toolchain runs shown with progress and a cancel button. Keys never reach this channel:
// toolchains get the key in their environment only, and what they print is passed through
// `redact` before it is shown.
import * as vscode from 'vscode';
import { redact } from './redact';

export { redact };

export function createOutput(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Frozen Run', { log: true });
}

/**
 * Runs a toolchain task (machin or tin under the hood) with a cancellable progress notification.
 * `task` gets an AbortSignal that fires on cancel; its output goes to the channel.
 */
export async function withToolchainProgress<T>(
  log: vscode.LogOutputChannel,
  title: string,
  task: (signal: AbortSignal, onOutput: (text: string) => void, report: (step: string) => void) => Promise<T>,
): Promise<T> {
  log.info(title);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => {
        log.warn(`${title}: cancelled`);
        abort.abort();
      });
      // The same steps in the status bar (a spinner and the latest step), for as long as the work
      // runs: the notification can be hidden, and the statement index of a long run takes a while.
      let done = () => undefined as void;
      let inBar: vscode.Progress<{ message?: string }> | undefined;
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Frozen Run' }, (bar) => {
        inBar = bar;
        return new Promise<void>((resolve) => (done = resolve));
      });
      try {
        // A step of the work (the engine's: "replaying against the instrumented program", ...),
        // shown under the title and kept in the channel.
        const report = (step: string) => {
          progress.report({ message: step });
          inBar?.report({ message: step });
          log.info(`${title}: ${step}`);
        };
        return await task(abort.signal, (text) => log.append(redact(text)), report);
      } finally {
        sub.dispose();
        done();
      }
    },
  );
}
