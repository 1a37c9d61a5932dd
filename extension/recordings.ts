// Opening recordings for the views, through the engine only (views never parse a file). Every
// open goes through here so that keys, trust and toolchain settings are applied the same way:
//   read(uri)     the recording as it is in the file (goroutines labelled from the program's
//                 source); nothing runs (works in Restricted Mode).
//   replay(uri)   plus what the toolchain knows (machin's panic, verdict, values), only in a
//                 trusted workspace, with progress, a cancel and the output channel.
// Results are cached per file and dropped when the file or the stored keys change.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { openRecording } from '../replay-engine/open';
import type { OpenOptions } from '../replay-engine/open-options';
import type { Recording } from '../replay-engine/model/recording';
import { RecordingError } from '../replay-engine/model/errors';
import { readConfig } from './config';
import type { CapsuleKeys } from './keys';
import { output, withToolchainProgress } from './output';
import { confirmProgram, isTrusted } from './trust';

export function isCapsule(uri: vscode.Uri): boolean {
  return uri.fsPath.toLowerCase().endsWith('.tcap');
}

interface Entry {
  stamp: string;
  read?: Promise<Recording>;
  replay?: Promise<Recording>;
}

export class RecordingStore implements vscode.Disposable {
  private readonly cache = new Map<string, Entry>();
  /** The last recording read for each file, for synchronous look-ups (thread labels). */
  private readonly latest = new Map<string, Recording>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Fires when a recording must be read again (file changed, key set or forgotten). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly keys: CapsuleKeys) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{mflrr,tcap}');
    const drop = (uri: vscode.Uri) => this.invalidate(uri);
    this.disposables.push(watcher, watcher.onDidChange(drop), watcher.onDidCreate(drop), watcher.onDidDelete(drop), this.changed);
    this.disposables.push(keys.onDidChange(() => this.invalidateCapsules()));
  }

  /** The recording last read from this file, if any (no reading). */
  peek(file: string): Recording | undefined {
    return this.latest.get(file);
  }

  invalidate(uri: vscode.Uri): void {
    this.cache.delete(uri.fsPath);
    this.latest.delete(uri.fsPath);
    this.changed.fire(uri);
  }

  invalidateCapsules(): void {
    for (const file of [...this.cache.keys()]) if (file.toLowerCase().endsWith('.tcap')) this.invalidate(vscode.Uri.file(file));
  }

  private entry(uri: vscode.Uri): Entry {
    let stamp = '';
    try {
      const st = fs.statSync(uri.fsPath);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      // Missing file: the engine's read gives the message.
    }
    let e = this.cache.get(uri.fsPath);
    if (!e || e.stamp !== stamp) {
      e = { stamp };
      this.cache.set(uri.fsPath, e);
    }
    return e;
  }

  /** Options for the engine: the key (capsules) and, when `toolchain`, paths, limits and trust hooks. */
  async options(uri: vscode.Uri, toolchain: boolean, ask = true): Promise<OpenOptions> {
    const cfg = readConfig();
    const options: OpenOptions = {
      noToolchain: !toolchain || !isTrusted(),
      machinPath: cfg.machinPath,
      tinPath: cfg.tinPath,
      programRoots: cfg.programRoots,
      timeLimitMs: cfg.timeLimitMs,
      confirmProgram,
    };
    if (isCapsule(uri)) {
      const key = await this.keys.keyFor(uri, { ask });
      if (key?.keyHex) options.keyHex = key.keyHex;
    }
    return options;
  }

  /** The recording as in the file. Throws RecordingError (shown as it is). */
  read(uri: vscode.Uri): Promise<Recording> {
    const e = this.entry(uri);
    if (!e.read) {
      // noToolchain: the engine only reads (the trace, and its program for goroutine labels).
      e.read = this.options(uri, false).then((o) => openRecording(uri.fsPath, { ...o, noToolchain: true }));
      e.read.then((r) => this.latest.set(uri.fsPath, r), () => undefined);
      e.read.catch(() => {
        if (this.cache.get(uri.fsPath) === e) e.read = undefined; // a key may be set next time
      });
    }
    return e.read;
  }

  /**
   * The recording with the toolchain's results (machin replay), with progress and cancel. In
   * Restricted Mode this is `read`: no toolchain process is ever started there.
   */
  replay(uri: vscode.Uri): Promise<Recording> {
    if (!isTrusted() || isCapsule(uri)) return this.read(uri);
    const e = this.entry(uri);
    if (!e.replay) {
      e.replay = withToolchainProgress(`Frozen Run: replaying ${vscode.workspace.asRelativePath(uri)} with machin`, async (signal, onOutput) => {
        const options = { ...(await this.options(uri, true)), signal, onOutput };
        return openRecording(uri.fsPath, options);
      });
      e.replay.then(
        (r) => (this.latest.set(uri.fsPath, r), r).warnings.forEach((w) => output().warn(`${vscode.workspace.asRelativePath(uri)}: ${w.message}`)),
        (err) => {
          if (this.cache.get(uri.fsPath) === e) e.replay = undefined;
          output().error(`${vscode.workspace.asRelativePath(uri)}: ${errorText(err)}`);
        },
      );
    }
    return e.replay;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/** The text to show for an error: the engine's own message, else a short generic one. */
export function errorText(err: unknown): string {
  if (err instanceof RecordingError) return err.message;
  if (err instanceof Error) return `Frozen Run: unexpected error: ${err.message}`;
  return `Frozen Run: unexpected error: ${String(err)}`;
}
