// One spool folder of the Capsules view: its index, read with progress and a cancel, kept up to
// date by a file watcher (Tin writes `X.tcap.tmp` and renames it: only the `.tcap` is read), and
// its key, asked for once per folder through the same prompt and store the timeline uses (a key
// given in either serves both).
import { statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RecordingError } from '../../replay-engine/model/errors';
import type { FolderKeys } from '../../replay-engine/tcap/spool/capsule-summary';
import { folderKeyResolver } from '../../replay-engine/tcap/spool/folder-keys';
import { SpoolGroups } from '../../replay-engine/tcap/spool/spool-groups';
import { readSpool, readSpoolCapsule, type SpoolProgress } from '../../replay-engine/tcap/spool/spool-index';
import { isCapsuleName } from '../../replay-engine/tcap/spool/spool-name';
import type { CapsuleKeys } from '../keys';
import { errorText } from '../recordings';
import { readConfig } from '../config';
import { capsuleLimitBytes } from '../../replay-engine/tcap/size-limit';

export class SpoolFolder implements vscode.Disposable {
  readonly index = new SpoolGroups();
  progress: SpoolProgress | undefined;
  /** Why the folder itself cannot be read (gone, not a folder). */
  error: string | undefined;
  /** The user dismissed the key prompt: only their click on "needs the key" asks again. */
  private keyDeclined = false;
  private keysFor: ((file: string) => FolderKeys) | undefined;
  private reading: AbortController | undefined;
  /** Files that changed while the folder was being read: looked at again when it is done. */
  private readonly pending = new Set<string>();
  private readonly watcher: vscode.FileSystemWatcher;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly folder: string,
    private readonly keys: CapsuleKeys,
    private readonly changed: () => void,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*'));
    const update = (uri: vscode.Uri) => this.update(uri.fsPath);
    this.disposables.push(this.watcher, this.watcher.onDidCreate(update), this.watcher.onDidChange(update), this.watcher.onDidDelete(update));
  }

  get name(): string {
    return path.basename(this.folder) || this.folder;
  }

  /** Capsules still to be read for the key: asked for at most once, unless `ask` says so. */
  needsKey(): number {
    return this.index.unreadable().filter((u) => u.code === 'no-key').length;
  }

  /** A capsule path of this folder, for the key store (keys are kept per folder). */
  private anyCapsule(): vscode.Uri {
    return vscode.Uri.file(path.join(this.folder, 'spool.tcap'));
  }

  /** The capsule the prompt names: the newest that needs the key. */
  private keyPromptCapsule(): vscode.Uri {
    const first = this.index.unreadable().find((u) => u.code === 'no-key');
    return first ? vscode.Uri.file(first.file) : this.anyCapsule();
  }

  /**
   * Reads the whole folder again (first show, key set, refresh). `askForKey`: the user asked for
   * this folder (opened it), so capsules that need its key ask for it at once; otherwise the view
   * shows them as needing the key and asks when the user clicks there (no prompt out of nowhere).
   */
  async read(askForKey = false): Promise<void> {
    this.reading?.abort();
    const reading = new AbortController();
    this.reading = reading;
    const key = await this.keys.keyFor(this.anyCapsule(), { ask: false });
    const options = { keyHex: key?.keyHex, env: process.env, signal: reading.signal, capsuleSizeLimitMB: readConfig().capsuleSizeLimitMB };
    this.keysFor = folderKeyResolver(options);
    const fresh = new SpoolGroups();
    this.error = undefined;
    try {
      await vscode.window.withProgress({ location: { viewId: 'frozenRun.capsules' }, title: `Indexing ${this.name}` }, async () => {
        let shown = 0;
        for await (const c of readSpool(this.folder, { ...options, onProgress: (p) => (this.progress = p) })) {
          fresh.add(c);
          // The tree follows the reading: a redraw every 250 capsules (and at the end).
          if (fresh.size - shown >= 250) {
            shown = fresh.size;
            this.replaceWith(fresh);
          }
        }
      });
    } catch (e) {
      if (e instanceof RecordingError && e.code === 'cancelled') return;
      this.error = errorText(e);
      this.log.error(`Capsules: ${this.error}`);
    } finally {
      if (this.reading === reading) this.progress = undefined;
    }
    if (this.reading !== reading) return;
    this.replaceWith(fresh);
    for (const file of this.pending) this.update(file);
    this.pending.clear();
    if (askForKey && !this.keyDeclined && this.needsKey() > 0) await this.askForKey();
  }

  /** Asks for the folder's key (the timeline's prompt and store), then reads again with it. */
  askForKey(): Promise<void> {
    // One prompt at a time: a second input box would dismiss the first (read as "no key").
    const asked = SpoolFolder.prompts.then(() => this.ask());
    SpoolFolder.prompts = asked.catch(() => undefined);
    return asked;
  }

  private static prompts: Promise<void> = Promise.resolve();

  private async ask(): Promise<void> {
    if (this.needsKey() === 0) return;
    const entered = await this.keys.askAndStore(this.keyPromptCapsule());
    if (entered === undefined) {
      this.keyDeclined = true;
      return;
    }
    this.keyDeclined = false;
    await this.read(false);
  }

  private replaceWith(fresh: SpoolGroups): void {
    if (fresh !== this.index) {
      this.index.clear();
      for (const c of fresh.all()) this.index.add(c);
    }
    this.changed();
  }

  /** A file of the folder was created, changed, renamed into place or deleted. */
  private update(file: string): void {
    if (path.dirname(file) !== this.folder || !isCapsuleName(path.basename(file))) return; // `.tmp` and others
    if (this.progress) {
      this.pending.add(file); // listed or not by the reading under way: looked at again after it
      return;
    }
    let removed = false;
    try {
      removed = statSync(file).isDirectory(); // a FIFO or device is listed as unreadable, as readSpool lists it
    } catch {
      removed = true;
    }
    const capsule = removed || !this.keysFor ? undefined : readSpoolCapsule(file, this.keysFor, capsuleLimitBytes({ capsuleSizeLimitMB: readConfig().capsuleSizeLimitMB }));
    if (capsule) this.index.add(capsule);
    else this.index.delete(file);
    this.changed();
  }

  dispose(): void {
    this.reading?.abort();
    this.disposables.forEach((d) => d.dispose());
  }
}
