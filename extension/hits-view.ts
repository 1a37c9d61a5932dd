// The Hits view (issue 30, point 1): every log point set on a line of the program, with its hits
// in the whole run (frozenRun/logPointHits, the adapter evaluates them), their values, goroutine
// and place; filterable by text and goroutine; a page at a time (a "Show more…" row asks for the
// next); a click moves the session to the hit (frozenRun.goToStatement). A native tree in the Run
// and Debug side bar, shown for Frozen Run sessions. Asked again when the breakpoints change, the
// active session changes, or the session's statements arrive after its launch.
import * as vscode from 'vscode';
import type { LogHit } from '../debug-adapter/log-point-hits';
import type { DebugSessions } from './debug-sessions';
import { boundState, frozenSession, hitPage, inProgram, mflLogPoints, type HitFilter, type ProgramOf } from './log-points';
import { hitDescription, moreNote, noHitNote } from './view-models/hit-words';

/** Hits asked for at a time (the first page, and each "Show more…"). */
export const HITS_PAGE = 200;

/** The hits listed so far of one log point, and where the next page starts. */
interface Listed {
  hits: LogHit[];
  next: number;
  arrivals: number;
  verified: boolean;
  message?: string;
  error?: string;
}

type Node =
  | { kind: 'point'; bp: vscode.SourceBreakpoint }
  | { kind: 'hit'; hit: LogHit }
  | { kind: 'note'; text: string }
  | { kind: 'more'; bp: vscode.SourceBreakpoint; text: string };

export class HitsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private filter: HitFilter = {};
  /** Per log point (its id): what is listed, for the active session. Cleared whenever it may differ. */
  private readonly listed = new Map<string, Promise<Listed>>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(sessions: DebugSessions, private readonly programOf: ProgramOf) {
    this.subscriptions.push(
      vscode.window.registerTreeDataProvider('frozenRun.hits', this),
      vscode.debug.onDidChangeBreakpoints(() => this.refresh()),
      vscode.debug.onDidChangeActiveDebugSession(() => this.refresh()),
      sessions.onStatementsReady(() => this.refresh()),
      sessions.onDidEndSession(() => this.refresh()),
    );
  }

  refresh(): void {
    this.listed.clear();
    this.changed.fire();
  }

  /** Reveals the view in the Run and Debug side bar (Frozen Run: Show Log Point Hits). */
  async show(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.debug');
    await vscode.commands.executeCommand('frozenRun.hits.focus');
  }

  /** Asks for a text and a goroutine to keep (empty: all). */
  async askFilter(): Promise<void> {
    const text = await vscode.window.showInputBox({ title: 'Filter log point hits', prompt: 'Text the hit\'s line contains (empty: any)', value: this.filter.text ?? '' });
    if (text === undefined) return;
    const goroutine = await vscode.window.showInputBox({ title: 'Filter log point hits', prompt: 'Goroutine id, e.g. 0.2 (empty: all)', value: this.filter.goroutine ?? '' });
    if (goroutine === undefined) return;
    this.filter = { text: text || undefined, goroutine: goroutine || undefined };
    void vscode.commands.executeCommand('setContext', 'frozenRun.hitsFiltered', Boolean(this.filter.text || this.filter.goroutine));
    this.refresh();
  }

  /** The next page of a log point's hits ("Show more…"). */
  async more(bp: unknown): Promise<void> {
    const s = frozenSession();
    if (!(bp instanceof vscode.SourceBreakpoint) || !s) return;
    const before = await this.listed.get(bp.id);
    if (!before || before.next >= before.arrivals) return;
    this.listed.set(bp.id, this.page(s, bp, before));
    this.changed.fire();
  }

  getTreeItem(n: Node): vscode.TreeItem {
    if (n.kind === 'point') {
      const item = new vscode.TreeItem(`line ${n.bp.location.range.start.line + 1}: ${n.bp.logMessage}`, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `point:${n.bp.id}`;
      item.description = vscode.workspace.asRelativePath(n.bp.location.uri);
      item.iconPath = new vscode.ThemeIcon('debug-breakpoint-log');
      return item;
    }
    if (n.kind === 'note') return new vscode.TreeItem(n.text);
    if (n.kind === 'more') {
      const item = new vscode.TreeItem(n.text);
      item.iconPath = new vscode.ThemeIcon('fold-down');
      item.command = { command: 'frozenRun.hits.more', title: 'Show more hits', arguments: [n.bp] };
      return item;
    }
    const h = n.hit;
    const item = new vscode.TreeItem(h.text || '(empty)');
    item.description = hitDescription(h);
    item.tooltip = [`arrival ${h.arrival} at line ${h.line}`, ...h.problems].join('\n');
    item.command = { command: 'frozenRun.goToStatement', title: 'Go to this hit', arguments: [h.seq] };
    return item;
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) return mflLogPoints().map((bp) => ({ kind: 'point', bp }));
    if (n.kind !== 'point') return [];
    const s = frozenSession();
    if (!s) return [{ kind: 'note', text: 'Start a Frozen Run debug session to see the hits.' }];
    let listed = this.listed.get(n.bp.id);
    if (!listed) {
      listed = this.first(s, n.bp);
      this.listed.set(n.bp.id, listed);
    }
    const l = await listed;
    if (l.error) return [{ kind: 'note', text: l.error }];
    const nodes: Node[] = l.hits.map((hit) => ({ kind: 'hit', hit }));
    if (l.hits.length === 0 && l.next >= l.arrivals) nodes.push({ kind: 'note', text: noHitNote({ verified: l.verified, message: l.message, line: n.bp.location.range.start.line + 1, arrivals: l.arrivals }) });
    if (l.next < l.arrivals) nodes.push({ kind: 'more', bp: n.bp, text: moreNote(l.hits.length, l.next, l.arrivals) });
    return nodes;
  }

  private async first(s: vscode.DebugSession, bp: vscode.SourceBreakpoint): Promise<Listed> {
    const where = await inProgram(s, bp, this.programOf);
    if (!where.verified) return { hits: [], next: 0, arrivals: 0, ...where };
    const first = await this.page(s, bp, { hits: [], next: 0, arrivals: 0, ...where });
    // A line no statement starts on has no arrivals: say what the adapter said of it.
    return first.arrivals === 0 && !first.error ? { ...first, ...(await boundState(s, bp)) } : first;
  }

  private async page(s: vscode.DebugSession, bp: vscode.SourceBreakpoint, before: Listed): Promise<Listed> {
    try {
      const body = await hitPage(s, bp, before.next, HITS_PAGE, this.filter);
      return { ...before, hits: [...before.hits, ...body.hits], next: body.next, arrivals: body.arrivals };
    } catch (e) {
      return { ...before, error: (e as Error).message };
    }
  }

  dispose(): void {
    this.changed.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}
