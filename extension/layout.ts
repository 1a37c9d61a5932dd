// Where things go when a replay starts: the recording's text (where VS Code shows the current
// line) in the first editor group, the timeline beside it in the second, so both stay in view
// while stepping. VS Code opens a stack frame's source in the active group, so the first group is
// focused before the session starts.
import * as vscode from 'vscode';
import { TIMELINE_VIEW_TYPE } from './timeline-editor';

function timelineTabs(uri: vscode.Uri): Array<{ tab: vscode.Tab; group: vscode.TabGroup }> {
  const out: Array<{ tab: vscode.Tab; group: vscode.TabGroup }> = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputCustom && input.viewType === TIMELINE_VIEW_TYPE && input.uri.fsPath === uri.fsPath) out.push({ tab, group });
    }
  }
  return out;
}

/**
 * Shows the timeline in the second group and focuses the first, where the session will open the
 * recording's text. Returns a function that closes the timeline left in the first group: call it
 * once the text is there (closing it earlier would empty the group, which VS Code then removes).
 */
export async function showTimelineBesideSource(uri: vscode.Uri): Promise<() => Promise<void>> {
  let hidden = false;
  try {
    if (!timelineTabs(uri).some((t) => t.group.viewColumn !== vscode.ViewColumn.One)) {
      await vscode.commands.executeCommand('vscode.openWith', uri, TIMELINE_VIEW_TYPE, { viewColumn: vscode.ViewColumn.Two, preserveFocus: true });
      hidden = true;
    }
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
  } catch {
    // Layout is a convenience: never let it stop a replay.
  }
  return async () => {
    if (!hidden) return;
    const firstGroup = () => vscode.window.tabGroups.all.find((g) => g.viewColumn === vscode.ViewColumn.One);
    const hasText = () => firstGroup()?.tabs.some((t) => !(t.input instanceof vscode.TabInputCustom)) ?? false;
    if (!hasText()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 15_000);
        const sub = vscode.window.tabGroups.onDidChangeTabs(() => hasText() && done());
        function done() {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    }
    const group = firstGroup();
    if (!group || !hasText()) return;
    const stale = timelineTabs(uri).filter((t) => t.group === group).map((t) => t.tab);
    if (stale.length) await vscode.window.tabGroups.close(stale, true).then(undefined, () => undefined);
  };
}
