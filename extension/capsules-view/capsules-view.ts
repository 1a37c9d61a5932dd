// The Capsules view (Explorer): every Tin spool folder of the workspace (a folder holding .tcap
// files) and the folders the user opened with "Open Capsule Spool Folder...", indexed when the view
// is first shown. Registered from main.ts with one call.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CapsuleKeys } from '../keys';
import { CapsulesTree, type CapsulesNode } from './capsules-tree';
import { FilterError, parseFilter } from './capsule-filter';
import { SpoolFolder } from './spool-folder';

const VIEW_ID = 'frozenRun.capsules';
const ADDED_KEY = 'frozenRun.capsules.addedFolders';

export function registerCapsulesView(context: vscode.ExtensionContext, keys: CapsuleKeys): void {
  const folders = new Map<string, SpoolFolder>();
  const tree = new CapsulesTree(() => [...folders.values()].sort((a, b) => a.folder.localeCompare(b.folder)));
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  let redraw: NodeJS.Timeout | undefined;
  // Many capsules can arrive at once (a spool copied in): one redraw for them.
  const changed = () => {
    if (redraw) return;
    redraw = setTimeout(() => {
      redraw = undefined;
      tree.refresh();
    }, 150);
  };
  let shown = false;
  const add = (folder: string): SpoolFolder => {
    let f = folders.get(folder);
    if (!f) {
      f = new SpoolFolder(folder, keys, changed);
      folders.set(folder, f);
      if (shown) void f.read();
      changed();
    }
    return f;
  };
  const readAll = () => {
    for (const f of folders.values()) void f.read();
  };

  const discover = async () => {
    const found = await vscode.workspace.findFiles('**/*.tcap', '**/{node_modules,.git}/**', 20_000);
    for (const uri of found) add(path.dirname(uri.fsPath));
    for (const folder of context.workspaceState.get<string[]>(ADDED_KEY, [])) add(folder);
  };
  const firstShow = () => {
    if (shown || !view.visible) return;
    shown = true;
    void discover().then(readAll);
  };
  // A capsule in a folder the view does not know yet makes that folder a spool.
  const workspaceWatcher = vscode.workspace.createFileSystemWatcher('**/*.tcap', false, true, true);

  context.subscriptions.push(
    view,
    workspaceWatcher,
    workspaceWatcher.onDidCreate((uri) => {
      if (shown) add(path.dirname(uri.fsPath));
    }),
    view.onDidChangeVisibility(firstShow),
    keys.onDidChange(readAll),
    { dispose: () => folders.forEach((f) => f.dispose()) },
    vscode.commands.registerCommand('frozenRun.capsules.filter', async () => {
      const text = await vscode.window.showInputBox({
        title: 'Filter capsules',
        prompt: 'Words to find in the route, panic, failing effect, peer or name; status:504 or status:5xx; since:/until: a UTC date (2025-12-01T10:30) or a time back from the newest capsule (30m, 2h, 7d).',
        placeHolder: 'e.g. redis status:5xx since:2h',
        value: view.description ? String(view.description).replace(/^filter: /, '') : '',
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
      const filter = parseFilter(text);
      tree.filter = filter;
      view.description = text.trim() ? `filter: ${text.trim()}` : undefined;
      void vscode.commands.executeCommand('setContext', 'frozenRun.capsulesFiltered', text.trim() !== '');
      tree.refresh();
    }),
    vscode.commands.registerCommand('frozenRun.capsules.clearFilter', () => {
      tree.filter = undefined;
      view.description = undefined;
      void vscode.commands.executeCommand('setContext', 'frozenRun.capsulesFiltered', false);
      tree.refresh();
    }),
    vscode.commands.registerCommand('frozenRun.capsules.addFolder', async () => {
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Index Spool', title: 'A Tin spool folder (TIN_REPLAY_DIR)' });
      if (!picked?.[0]) return;
      const folder = picked[0].fsPath;
      const added = new Set(context.workspaceState.get<string[]>(ADDED_KEY, []));
      added.add(folder);
      await context.workspaceState.update(ADDED_KEY, [...added]);
      shown = true;
      void add(folder).read(true);
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    }),
    vscode.commands.registerCommand('frozenRun.capsules.refresh', async () => {
      shown = true;
      await discover();
      readAll();
    }),
    vscode.commands.registerCommand('frozenRun.capsules.setFolderKey', async (node?: CapsulesNode) => {
      const folder = node?.folder ?? (folders.size === 1 ? [...folders.values()][0] : undefined);
      if (folder) await folder.askForKey();
    }),
    vscode.commands.registerCommand('frozenRun.capsules.removeFolder', async (node?: CapsulesNode) => {
      if (!node) return;
      const added = context.workspaceState.get<string[]>(ADDED_KEY, []).filter((f) => f !== node.folder.folder);
      await context.workspaceState.update(ADDED_KEY, added);
      node.folder.dispose();
      folders.delete(node.folder.folder);
      tree.refresh();
    }),
  );
  firstShow();
}
