// Which frozen-run debug sessions run, on which recording, and where their cursor is. The views
// (timeline, variable history, status bar, language server) follow the cursor through here; the
// adapter reports it with its cursor event (debug-adapter/contract.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EVENT, type CursorEventBody } from '../debug-adapter/contract';

export const DEBUG_TYPE = 'frozen-run';

export interface SessionCursor {
  session: vscode.DebugSession;
  /** Absolute path of the recording. */
  recording: string;
  /** Steps completed (the engine's position p). */
  position: number;
  /** Total steps of the recording. */
  total: number;
  /** Thread index in the timeline (-1 at the start). */
  thread: number;
  /** The current record (-1 before the first). */
  record: number;
  /** The adapter's cursor event as it came (thread id and label, watched values, ...). */
  body: CursorEventBody;
}

export class DebugSessions implements vscode.Disposable {
  private readonly cursors = new Map<string, SessionCursor>();
  /** Sessions from their start (before their first cursor event). */
  private readonly started = new Map<string, vscode.DebugSession>();
  private readonly cursorChanged = new vscode.EventEmitter<SessionCursor>();
  private readonly ended = new vscode.EventEmitter<{ session: vscode.DebugSession; recording: string }>();
  private readonly custom = new vscode.EventEmitter<vscode.DebugSessionCustomEvent>();
  /** Sessions whose cursor event has said a statement (their program's statements are in). */
  private readonly withStatements = new Set<string>();
  private readonly statementsReady = new vscode.EventEmitter<vscode.DebugSession>();
  private readonly disposables: vscode.Disposable[] = [this.cursorChanged, this.ended, this.custom, this.statementsReady];
  readonly onDidMoveCursor = this.cursorChanged.event;
  readonly onDidEndSession = this.ended.event;
  /** Every custom event of a frozen-run session (causal chain, toolchain status, ...). */
  readonly onCustomEvent = this.custom.event;
  /**
   * A session's program statements are in (its first cursor event with a `statementSeq`: the
   * adapter sends the cursor again when machin's statements arrive after the launch's stop).
   * The whole-run views (hits, line counts) ask again then.
   */
  readonly onStatementsReady = this.statementsReady.event;

  constructor() {
    this.disposables.push(
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== DEBUG_TYPE) return;
        if (e.event === EVENT.cursor && e.body) this.onCursor(e.session, e.body as CursorEventBody);
        this.custom.fire(e);
      }),
      vscode.debug.onDidStartDebugSession((s) => {
        if (s.type === DEBUG_TYPE) this.started.set(s.id, s);
      }),
      vscode.debug.onDidTerminateDebugSession((s) => {
        if (s.type !== DEBUG_TYPE) return;
        const c = this.cursors.get(s.id);
        this.cursors.delete(s.id);
        this.started.delete(s.id);
        this.withStatements.delete(s.id);
        this.ended.fire({ session: s, recording: c?.recording ?? recordingOf(s) });
      }),
    );
  }

  private onCursor(session: vscode.DebugSession, body: CursorEventBody): void {
    const c: SessionCursor = { session, recording: recordingOf(session), position: body.position, total: body.total, thread: body.threadId - 1, record: body.record, body };
    this.cursors.set(session.id, c);
    this.cursorChanged.fire(c);
    if (body.statementSeq !== null && body.statementSeq !== undefined && !this.withStatements.has(session.id)) {
      this.withStatements.add(session.id);
      this.statementsReady.fire(session);
    }
  }

  /** Whether the session's program statements are known (its cursor has said a statement). */
  hasStatements(session: vscode.DebugSession): boolean {
    return this.withStatements.has(session.id);
  }

  /** The latest cursor of a session on this recording (the active session first). */
  cursorFor(recording: string): SessionCursor | undefined {
    const active = vscode.debug.activeDebugSession;
    const all = [...this.cursors.values()].filter((c) => samePath(c.recording, recording));
    return all.find((c) => c.session.id === active?.id) ?? all[all.length - 1];
  }

  /** A running frozen-run session on this recording (active first), if any. */
  sessionFor(recording: string): vscode.DebugSession | undefined {
    return this.cursorFor(recording)?.session ?? this.sessionsFor(recording)[0];
  }

  sessionsFor(recording: string): vscode.DebugSession[] {
    return [...this.started.values()].filter((s) => samePath(recordingOf(s), recording));
  }

  /** The next cursor event of a session on this recording (undefined after `timeoutMs`). */
  waitForCursor(recording: string, timeoutMs: number): Promise<SessionCursor | undefined> {
    return new Promise((resolveCursor) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolveCursor(undefined);
      }, timeoutMs);
      const sub = this.onDidMoveCursor((c) => {
        if (!samePath(c.recording, recording)) return;
        clearTimeout(timer);
        sub.dispose();
        resolveCursor(c);
      });
    });
  }

  /** True while any frozen-run session runs. */
  any(): boolean {
    return this.started.size > 0;
  }

  /** The active frozen-run session, if the active session is one. */
  active(): vscode.DebugSession | undefined {
    const s = vscode.debug.activeDebugSession;
    return s?.type === DEBUG_TYPE ? s : undefined;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

export function recordingOf(session: vscode.DebugSession): string {
  const r = session.configuration.recording;
  return typeof r === 'string' ? path.resolve(r) : '';
}

export function samePath(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}
