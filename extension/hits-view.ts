// The Hits view (issue 30, point 1): every log point set on a line of the program, with its hits
// in the whole run (frozenRun/logPointHits, the adapter evaluates them), their values, goroutine
// and place; filterable by text and goroutine; a click moves the session to the hit
// (frozenRun.goToStatement). A native tree in the Run and Debug side bar, shown for Frozen Run sessions.
import * as vscode from 'vscode';
import { REQUEST } from '../debug-adapter/contract';
import type { LogHit } from '../debug-adapter/log-point-hits';
import type { LogPointHitsBody } from '../debug-adapter/run-questions';

/** Hits listed per log point (the rest: `frozen-run hits`, the console's closing line says how many). */
const SHOWN = 500;

type Node = { kind: 'point'; bp: vscode.SourceBreakpoint } | { kind: 'hit'; hit: LogHit } | { kind: 'note'; text: string };

export class HitsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private filter: { text?: string; goroutine?: string } = {};
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      vscode.window.registerTreeDataProvider('frozenRun.hits', this),
      vscode.debug.onDidChangeBreakpoints(() => this.changed.fire()),
      vscode.debug.onDidChangeActiveDebugSession(() => this.changed.fire()),
    );
  }

  /** Asks for a text and a goroutine to keep (empty: all). */
  async askFilter(): Promise<void> {
    const text = await vscode.window.showInputBox({ title: 'Filter log point hits', prompt: 'Text the hit\'s line contains (empty: any)', value: this.filter.text ?? '' });
    if (text === undefined) return;
    const goroutine = await vscode.window.showInputBox({ title: 'Filter log point hits', prompt: 'Goroutine id, e.g. 0.2 (empty: all)', value: this.filter.goroutine ?? '' });
    if (goroutine === undefined) return;
    this.filter = { text: text || undefined, goroutine: goroutine || undefined };
    void vscode.commands.executeCommand('setContext', 'frozenRun.hitsFiltered', Boolean(this.filter.text || this.filter.goroutine));
    this.changed.fire();
  }

  getTreeItem(n: Node): vscode.TreeItem {
    if (n.kind === 'point') {
      const item = new vscode.TreeItem(`line ${n.bp.location.range.start.line + 1}: ${n.bp.logMessage}`, vscode.TreeItemCollapsibleState.Expanded);
      item.description = vscode.workspace.asRelativePath(n.bp.location.uri);
      item.iconPath = new vscode.ThemeIcon('debug-breakpoint-log');
      return item;
    }
    if (n.kind === 'note') return new vscode.TreeItem(n.text);
    const h = n.hit;
    const item = new vscode.TreeItem(h.text || '(empty)');
    item.description = `goroutine ${h.goroutine} · ${h.function} ${h.line}:${h.column} · op ${h.position}${h.thisReplayOnly ? ' · this replay only' : ''}`;
    item.tooltip = [`arrival ${h.arrival} at line ${h.line}`, ...h.problems].join('\n');
    item.command = { command: 'frozenRun.goToStatement', title: 'Go to this hit', arguments: [h.seq] };
    return item;
  }

  async getChildren(n?: Node): Promise<Node[]> {
    const s = vscode.debug.activeDebugSession;
    if (!n) {
      const points = vscode.debug.breakpoints.filter((b): b is vscode.SourceBreakpoint => b instanceof vscode.SourceBreakpoint && b.enabled && !!b.logMessage && /\.mfl$/i.test(b.location.uri.fsPath));
      return points.map((bp) => ({ kind: 'point', bp }));
    }
    if (n.kind !== 'point') return [];
    if (s?.type !== 'frozen-run') return [{ kind: 'note', text: 'Start a Frozen Run debug session to see the hits.' }];
    try {
      const body = (await s.customRequest(REQUEST.logPointHits, {
        line: n.bp.location.range.start.line + 1, logMessage: n.bp.logMessage, condition: n.bp.condition, hitCondition: n.bp.hitCondition, limit: SHOWN, ...this.filter,
      })) as LogPointHitsBody;
      const nodes: Node[] = body.hits.map((hit) => ({ kind: 'hit', hit }));
      if (body.hits.length === 0) nodes.push({ kind: 'note', text: body.arrivals ? 'No hit passes the condition, hit count or filter.' : 'The run never reaches this line.' });
      if (body.next < body.arrivals) nodes.push({ kind: 'note', text: `… the first ${body.hits.length} shown; ${body.arrivals - body.next} more arrivals (frozen-run hits lists all)` });
      return nodes;
    } catch (e) {
      return [{ kind: 'note', text: (e as Error).message }];
    }
  }

  dispose(): void {
    this.changed.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}
