// The Capsules tree: spool folders, then groups of the same failure largest first, then their
// capsules newest first (a click opens the timeline); capsules that cannot be read in a group of
// their own, each with its reason. The quick filter hides what does not match and says so.
import * as vscode from 'vscode';
import type { CapsuleSummary, SpoolCapsule, UnreadableCapsule } from '../../replay-engine/tcap/spool/capsule-summary';
import { isoFromNanos } from '../../replay-engine/tcap/decode/words';
import type { SpoolGroup } from '../../replay-engine/tcap/spool/spool-groups';
import { capsuleMatcher, isEmptyFilter, type CapsuleFilter } from './capsule-filter';
import type { SpoolFolder } from './spool-folder';

export type CapsulesNode =
  | { type: 'folder'; folder: SpoolFolder }
  | { type: 'group'; folder: SpoolFolder; group: SpoolGroup; shown: CapsuleSummary[] }
  | { type: 'unreadable'; folder: SpoolFolder; shown: UnreadableCapsule[] }
  | { type: 'needs-key'; folder: SpoolFolder; count: number }
  | { type: 'capsule'; folder: SpoolFolder; capsule: SpoolCapsule };

/** `2025-12-01 11:53:44.000` (UTC), or the file name when the capsule has no time. */
function shortTime(wall: bigint | null): string | undefined {
  if (wall === null) return undefined;
  const iso = isoFromNanos(wall);
  return iso.startsWith('out') ? undefined : `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

export class CapsulesTree implements vscode.TreeDataProvider<CapsulesNode> {
  private readonly changed = new vscode.EventEmitter<CapsulesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  filter: CapsuleFilter | undefined;

  constructor(private readonly folders: () => SpoolFolder[]) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: CapsulesNode): CapsulesNode[] {
    if (!node) return this.folders().map((folder) => ({ type: 'folder', folder }));
    if (node.type === 'group') return node.shown.map((capsule) => ({ type: 'capsule', folder: node.folder, capsule }));
    if (node.type === 'unreadable') return node.shown.map((capsule) => ({ type: 'capsule', folder: node.folder, capsule }));
    if (node.type !== 'folder') return [];
    const { folder } = node;
    const match = this.matcher(folder);
    const out: CapsulesNode[] = [];
    const needKey = folder.needsKey();
    if (needKey > 0) out.push({ type: 'needs-key', folder, count: needKey });
    for (const group of folder.index.groups()) {
      const shown = match ? group.capsules.filter(match) : group.capsules;
      if (shown.length) out.push({ type: 'group', folder, group, shown });
    }
    // Those that only need the key are the row above, not "unreadable".
    const unreadable = folder.index.unreadable().filter((u) => u.code !== 'no-key' && (match ? match(u) : true));
    if (unreadable.length) out.push({ type: 'unreadable', folder, shown: unreadable });
    return out;
  }

  private matcher(folder: SpoolFolder): ((c: SpoolCapsule) => boolean) | undefined {
    if (!this.filter || isEmptyFilter(this.filter)) return undefined;
    let newest: bigint | null = null;
    for (const c of folder.index.all()) if (c.wall !== null && (newest === null || c.wall > newest)) newest = c.wall;
    return capsuleMatcher(this.filter, newest);
  }

  getTreeItem(node: CapsulesNode): vscode.TreeItem {
    switch (node.type) {
      case 'folder':
        return this.folderItem(node.folder);
      case 'group':
        return groupItem(node.folder, node.group, node.shown.length);
      case 'unreadable': {
        const item = new vscode.TreeItem(`Unreadable (${node.shown.length})`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${node.folder.folder}\0unreadable`;
        item.iconPath = new vscode.ThemeIcon('warning');
        item.accessibilityInformation = { label: item.label as string };
        item.tooltip = 'Capsules that cannot be read: damaged, cut, sealed under another key, or not capsules. Each says why.';
        return item;
      }
      case 'needs-key': {
        const item = new vscode.TreeItem(`${node.count} capsule${node.count === 1 ? ' needs' : 's need'} the spool's key`, vscode.TreeItemCollapsibleState.None);
        item.accessibilityInformation = { label: `${item.label as string}: click to give it` };
        item.id = `${node.folder.folder}\0needs-key`;
        item.iconPath = new vscode.ThemeIcon('key');
        item.contextValue = 'needsKey';
        item.tooltip = 'Version 1 capsules are encrypted. Give the key the server ran with (TIN_REPLAY_KEY); it is kept in secret storage for this folder.';
        item.command = { command: 'frozenRun.capsules.setFolderKey', title: 'Set Capsule Key', arguments: [node] };
        return item;
      }
      case 'capsule':
        return capsuleItem(node.capsule);
    }
  }

  private folderItem(folder: SpoolFolder): vscode.TreeItem {
    const item = new vscode.TreeItem(folder.name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = folder.folder;
    item.contextValue = 'spoolFolder';
    item.iconPath = new vscode.ThemeIcon('folder-library');
    item.tooltip = folder.folder;
    const groups = folder.index.groups();
    const needKey = folder.needsKey();
    const unreadable = folder.index.unreadable().length - needKey;
    if (folder.error) item.description = folder.error;
    else if (folder.progress) item.description = `indexing ${folder.progress.done}/${folder.progress.total}…`;
    else {
      const n = folder.index.size;
      item.description = [`${n} capsule${n === 1 ? '' : 's'}`, `${groups.length} group${groups.length === 1 ? '' : 's'}`, unreadable ? `${unreadable} unreadable` : '', needKey ? `${needKey} need the key` : '']
        .filter(Boolean)
        .join(' · ');
    }
    item.accessibilityInformation = { label: `spool ${folder.name}, ${item.description}` };
    return item;
  }
}

function groupItem(folder: SpoolFolder, g: SpoolGroup, shown: number): vscode.TreeItem {
  const s = g.signature;
  const label = `${s.status ?? '?'} ${s.route || '(no request line)'}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${folder.folder}\0${g.key}`;
  const what = s.panic ? `panic: ${s.panic}` : s.faultKind ? `${s.faultKind} failed` : s.faultKind === null ? 'no failing effect' : 'version 2: effects sealed';
  item.description = `${shown === g.count ? `${g.count}×` : `${shown} of ${g.count}`} · ${what}`;
  item.iconPath = new vscode.ThemeIcon(s.panic ? 'error' : 'warning');
  item.accessibilityInformation = { label: `${label}, ${item.description}` };
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${g.count} capsule${g.count === 1 ? '' : 's'}**: status ${s.status ?? '?'}, \`${s.route}\`\n\n`);
  if (s.panic) md.appendMarkdown(`panic: \`${s.panic}\`\n\n`);
  md.appendMarkdown(`first failing effect: ${s.faultKind === undefined ? 'unknown (version 2 capsules are sealed)' : s.faultKind === null ? 'none' : `\`${s.faultKind}\`${s.faultKey ? ` \`${s.faultKey}\`` : ''}`}\n\n`);
  md.appendMarkdown('Path segments and key parts that are numbers, UUIDs or long hex ids read `{id}`: each capsule keeps its own route.\n\n');
  if (g.first !== null && g.last !== null) md.appendMarkdown(`first ${isoFromNanos(g.first)}  \nlast ${isoFromNanos(g.last)}`);
  item.tooltip = md;
  return item;
}

function capsuleItem(c: SpoolCapsule): vscode.TreeItem {
  const uri = vscode.Uri.file(c.file);
  const item = new vscode.TreeItem(shortTime(c.wall) ?? c.name, vscode.TreeItemCollapsibleState.None);
  item.id = c.file;
  item.command = { command: 'frozenRun.openTimeline', title: 'Open Timeline', arguments: [uri] };
  if (c.readable) {
    const parts = [c.core !== null ? `core ${c.core}` : '', `${c.method} ${c.target}`.trim(), c.peer ?? '', c.firstFault ? `${c.firstFault.kind}: ${c.firstFault.message}` : ''];
    item.description = parts.filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(c.envelope === 2 ? 'lock' : 'file-binary');
    item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
    item.tooltip = [c.name, c.panic ? `panic: ${c.panic}` : '', c.firstFault ? `first failing effect #${c.firstFault.seq} ${c.firstFault.kind}: ${c.firstFault.message}` : '', c.effectCount !== null ? `${c.effectCount} effects` : 'version 2: open it with tin']
      .filter(Boolean)
      .join('\n');
  } else {
    item.label = c.name;
    item.description = c.reason.startsWith(c.file) ? c.reason.slice(c.file.length + 2) : c.reason;
    item.iconPath = new vscode.ThemeIcon('circle-slash');
    item.accessibilityInformation = { label: `${c.name}, cannot be read: ${item.description}` };
    item.tooltip = c.reason;
  }
  return item;
}
