// The Capsules view (Explorer): every Tin spool folder of the workspace (a folder holding .tcap
// files) and the folders the user opened with "Open Capsule Spool Folder...", indexed when the view
// is first shown. Owned by the extension context; its commands are in the one command table.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CapsuleKeys } from '../keys';
import { CapsulesTree, type CapsulesNode } from './capsules-tree';
import { FilterError, parseFilter } from './capsule-filter';
import { SpoolFolder } from './spool-folder';

const VIEW_ID = 'frozenRun.capsules';
const ADDED_KEY = 'frozenRun.capsules.addedFolders';

export class CapsulesView implements vscode.Disposable {
  private readonly folders = new Map<string, SpoolFolder>();
  private readonly tree = new CapsulesTree(() => [...this.folders.values()].sort((a, b) => a.folder.localeCompare(b.folder)));
  private readonly view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true });
  private readonly disposables: vscode.Disposable[] = [];
  private redraw: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(
    private readonly state: vscode.Memento,
    private readonly keys: CapsuleKeys,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // A capsule in a folder the view does not know yet makes that folder a spool.
    const workspaceWatcher = vscode.workspace.createFileSystemWatcher('**/*.tcap', false, true, true);
    this.disposables.push(
      this.view,
      workspaceWatcher,
      workspaceWatcher.onDidCreate((uri) => {
        if (this.shown) this.add(path.dirname(uri.fsPath));
      }),
      this.view.onDidChangeVisibility(() => this.firstShow()),
      keys.onDidChange(() => this.readAll()),
    );
    this.firstShow();
  }

  dispose(): void {
    if (this.redraw) clearTimeout(this.redraw);
    this.folders.forEach((f) => f.dispose());
    for (const d of this.disposables) d.dispose();
  }

  async filter(): Promise<void> {
    const text = await vscode.window.showInputBox({
      title: 'Filter capsules',
      prompt: 'Words to find in the route, panic, failing effect, peer or name; status:504 or status:5xx; since:/until: a UTC date (2025-12-01T10:30) or a time back from the newest capsule (30m, 2h, 7d).',
      placeHolder: 'e.g. redis status:5xx since:2h',
      value: this.view.description ? String(this.view.description).replace(/^filter: /, '') : '',
      validateInput: (v) => {
        try {
          parseFilter(v);
          return undefined;
        } catch (e) {
          return e instanceof FilterError ? e.message : String(e);
        }
      },
    });
    if (text === undefined) return;
    this.tree.filter = parseFilter(text);
    this.view.description = text.trim() ? `filter: ${text.trim()}` : undefined;
    void vscode.commands.executeCommand('setContext', 'frozenRun.capsulesFiltered', text.trim() !== '');
    this.tree.refresh();
  }

  clearFilter(): void {
    this.tree.filter = undefined;
    this.view.description = undefined;
    void vscode.commands.executeCommand('setContext', 'frozenRun.capsulesFiltered', false);
    this.tree.refresh();
  }

  async addFolder(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Index Spool', title: 'A Tin spool folder (TIN_REPLAY_DIR)' });
    if (!picked?.[0]) return;
    const folder = picked[0].fsPath;
    const added = new Set(this.state.get<string[]>(ADDED_KEY, []));
    added.add(folder);
    await this.state.update(ADDED_KEY, [...added]);
    this.shown = true;
    void this.add(folder).read(true);
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  async refresh(): Promise<void> {
    this.shown = true;
    await this.discover();
    this.readAll();
  }

  async setFolderKey(node?: unknown): Promise<void> {
    const folder = isNode(node) ? node.folder : this.folders.size === 1 ? [...this.folders.values()][0] : undefined;
    if (folder) await folder.askForKey();
  }

  async removeFolder(node?: unknown): Promise<void> {
    if (!isNode(node)) return;
    const added = this.state.get<string[]>(ADDED_KEY, []).filter((f) => f !== node.folder.folder);
    await this.state.update(ADDED_KEY, added);
    node.folder.dispose();
    this.folders.delete(node.folder.folder);
    this.tree.refresh();
  }

  /** Many capsules can arrive at once (a spool copied in): one redraw for them. */
  private changed = (): void => {
    if (this.redraw) return;
    this.redraw = setTimeout(() => {
      this.redraw = undefined;
      this.tree.refresh();
    }, 150);
  };

  private add(folder: string): SpoolFolder {
    let f = this.folders.get(folder);
    if (!f) {
      f = new SpoolFolder(folder, this.keys, this.changed, this.log);
      this.folders.set(folder, f);
      if (this.shown) void f.read();
      this.changed();
    }
    return f;
  }

  private readAll(): void {
    for (const f of this.folders.values()) void f.read();
  }

  private async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles('**/*.tcap', '**/{node_modules,.git}/**', 20_000);
    for (const uri of found) this.add(path.dirname(uri.fsPath));
    for (const folder of this.state.get<string[]>(ADDED_KEY, [])) this.add(folder);
  }

  private firstShow(): void {
    if (this.shown || !this.view.visible) return;
    this.shown = true;
    void this.discover().then(() => this.readAll());
  }
}

/** A tree row of a spool folder (what VS Code passes a context-menu command). */
function isNode(node: unknown): node is CapsulesNode {
  return typeof node === 'object' && node !== null && (node as { folder?: unknown }).folder instanceof SpoolFolder;
}
