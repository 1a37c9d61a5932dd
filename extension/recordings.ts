// The one owner of every recording the extension shows: the views and the inline debug adapter
// all open recordings here, through the engine only (views never parse a file), so keys, trust
// and toolchain settings are applied the same way and a file is read, and enriched, once per
// content whoever asks first:
//   read(uri)        the recording as it is in the file (goroutines labelled from the program's
//                    source); nothing runs (works in Restricted Mode).
//   replay(uri)      that same recording plus what the toolchain knows (machin's panic, verdict,
//                    values, added in place), only in a trusted workspace, with progress, a
//                    cancel and the output channel. A Replay to Panic that asks first gets it
//                    once machin has the panic; the values follow (recording.valuesPending).
//   forSession(...)  what a debug session's launch asks for: one of the two when its toolchain
//                    settings are the extension's, else a read of its own. The store decides
//                    whether a program outside the workspace may run (ProgramTrust asks once per
//                    program); a launch carries only what the user wrote. A session started after
//                    that program was declined asks again (the user's explicit replay), and the
//                    views follow the new answer.
// Results are cached per file and content, and dropped when the file or the stored keys change.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FrozenRunLaunchArguments } from '../debug-adapter/launch-config';
import { enrichWithMachin } from '../replay-engine/machin/enrich';
import { openRecording } from '../replay-engine/open';
import type { OpenOptions } from '../replay-engine/open-options';
import type { Recording } from '../replay-engine/model/recording';
import { RecordingError } from '../replay-engine/model/errors';
import { readConfig } from './config';
import type { CapsuleKeys } from './keys';
import { withToolchainProgress } from './output';
import { isTrusted, type ProgramTrust } from './trust';

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

  constructor(
    private readonly keys: CapsuleKeys,
    private readonly programs: ProgramTrust,
    private readonly log: vscode.LogOutputChannel,
  ) {
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
      machinCores: cfg.machinReplayCores,
      capsuleSizeLimitMB: cfg.capsuleSizeLimitMB,
      confirmProgram: this.programs.confirm,
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
   * The recording with the toolchain's results (machin replay), with progress and cancel: the
   * recording `read` gives, enriched in place, so the file is read once. In Restricted Mode this
   * is `read`: no toolchain process is ever started there. Resolves once the values are in too.
   */
  async replay(uri: vscode.Uri): Promise<Recording> {
    const recording = await this.enriched(uri, false);
    await recording.valuesPending;
    return recording;
  }

  /**
   * The one enrichment of this file's content. `deferValues` (Replay to Panic, when it is the
   * first to ask): resolves once machin has the panic, while the values still come
   * (`recording.valuesPending`); the progress stays up until they are in.
   */
  private enriched(uri: vscode.Uri, deferValues: boolean): Promise<Recording> {
    if (!isTrusted() || isCapsule(uri)) return this.read(uri);
    const e = this.entry(uri);
    if (!e.replay) {
      const name = vscode.workspace.asRelativePath(uri);
      let firstPart: (r: Recording) => void = () => undefined;
      let failed: (err: unknown) => void = () => undefined;
      const replay = new Promise<Recording>((resolve, reject) => ((firstPart = resolve), (failed = reject)));
      e.replay = replay;
      const whole = withToolchainProgress(this.log, `Frozen Run: replaying ${name} with machin`, async (signal, onOutput, report) => {
        const recording = await this.read(uri);
        await enrichWithMachin(recording, { ...(await this.options(uri, true)), signal, onOutput, deferValues, onToolchainProgress: report });
        firstPart(recording);
        await recording.valuesPending;
        return recording;
      });
      whole.then(
        (r) => (this.latest.set(uri.fsPath, r), r).warnings.forEach((w) => this.log.warn(`${name}: ${w.message}`)),
        (err) => {
          failed(err);
          if (this.cache.get(uri.fsPath) === e) e.replay = undefined;
          this.log.error(`${name}: ${errorText(err)}`);
        },
      );
    }
    return e.replay;
  }

  /**
   * The recording a debug session's launch names. A launch with the extension's own toolchain
   * settings (what the configuration resolver fills in) shares the views' recording, so starting
   * a session on an open timeline runs machin no second time; one that names its own program,
   * machin or folders reads its own, with the session's options.
   */
  async forSession(args: FrozenRunLaunchArguments, options: OpenOptions): Promise<Recording> {
    const uri = vscode.Uri.file(args.recording);
    if (args.noToolchain || !isTrusted()) return this.read(uri);
    if (isCapsule(uri)) return this.enriched(uri, args.replayToPanic === true);
    if (this.sameToolchain(args)) {
      if (await this.declinedProgram(uri)) this.invalidate(uri);
      return this.enriched(uri, args.replayToPanic === true);
    }
    return withToolchainProgress(this.log, `Frozen Run: replaying ${vscode.workspace.asRelativePath(uri)} for the debug session`, (signal, onOutput, report) =>
      openRecording(args.recording, { ...options, signal: AbortSignal.any([signal, ...(options.signal ? [options.signal] : [])]), onOutput, onToolchainProgress: report }),
    );
  }

  /** Whether this file's enrichment so far ran no machin because its outside program was not confirmed. */
  private async declinedProgram(uri: vscode.Uri): Promise<boolean> {
    const pending = this.cache.get(uri.fsPath)?.replay;
    const recording = pending && (await pending.catch(() => null));
    return !!recording && recording.warnings.some((w) => w.code === 'program-not-confirmed');
  }

  private sameToolchain(args: FrozenRunLaunchArguments): boolean {
    const cfg = readConfig();
    const folders = (list: string[] | undefined) => JSON.stringify((list ?? []).map((p) => path.resolve(p)));
    return args.program === undefined && args.sourceLevel !== false && (args.machinPath || undefined) === (cfg.machinPath || undefined) && folders(args.programRoots) === folders(cfg.programRoots);
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
