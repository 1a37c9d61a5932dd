// Replay to Panic, Replay to Here, and moving the session from the timeline: one click from an
// opened recording to a session stopped where the user asked.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REQUEST, type StatementTarget, type TargetArguments } from '../../debug-adapter/contract';
import type { Ctx } from '../ctx';
import { launchFor } from '../debug-configuration';
import { showTimelineBesideSource } from '../layout';
import type { DebugSessions } from '../debug-sessions';
import { explainRestricted, isTrusted } from '../trust';
import { pickRecording, recordingFromArg, type ActiveTimeline } from './recording-arg';

/** Where to move a session: a cursor position (steps done), a record, or a 1-based line of the recording's document. */
export type GotoTarget = TargetArguments;

export class ReplayCommands {
  private readonly sessions: DebugSessions;
  private readonly activeTimeline: ActiveTimeline;

  constructor(ctx: Ctx) {
    this.sessions = ctx.sessions;
    this.activeTimeline = ctx.activeRecording;
  }

  /** The timeline's click (internal: not in the palette). */
  gotoPosition(uri: unknown, position: unknown, record: unknown, statement?: unknown): Promise<boolean> {
    const target: GotoTarget = { position: num(position), record: num(record) };
    // A variable history's row at source level: the statement that stored the value.
    if (statement && typeof statement === 'object') target.statement = statement as StatementTarget;
    return this.goto(uri, target);
  }

  /** Starts a session on the recording that runs to the panic (a fresh one if one was running). */
  async replayToPanic(arg?: unknown): Promise<boolean> {
    const uri = await pickRecording(arg, this.activeTimeline, 'Replay to Panic');
    if (!uri) return false;
    if (!isTrusted()) {
      await explainRestricted('Replay to Panic');
      return false;
    }
    for (const s of this.sessions.sessionsFor(uri.fsPath)) await vscode.debug.stopDebugging(s);
    return this.start(uri, launchFor(uri, 'panic'));
  }

  /** "Replay to here" on a record line (code lens): moves the running session, or starts one there. */
  async replayToHere(uriArg?: unknown, lineArg?: unknown): Promise<boolean> {
    const uri = recordingFromArg(uriArg, this.activeTimeline);
    const line0 = num(lineArg) ?? vscode.window.activeTextEditor?.selection.active.line;
    if (!uri || line0 === undefined) return false;
    return this.goto(uri.toString(), { line: line0 + 1 });
  }

  /** Moves the session on `uriArg` to `target`, starting a session (stopped on entry) when none runs. */
  async goto(uriArg: unknown, target: GotoTarget): Promise<boolean> {
    const uri = recordingFromArg(uriArg, this.activeTimeline);
    if (!uri) return false;
    let session = this.sessions.sessionFor(uri.fsPath);
    if (!session) {
      if (!isTrusted()) {
        await explainRestricted('Moving a replay');
        return false;
      }
      const started = this.sessions.waitForCursor(uri.fsPath, 120_000);
      if (!(await this.start(uri, launchFor(uri, 'start')))) return false;
      session = (await started)?.session;
      if (!session) return false;
    }
    try {
      await session.customRequest(REQUEST.goto, target);
      return true;
    } catch (err) {
      void vscode.window.showErrorMessage(`Frozen Run: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  private async start(uri: vscode.Uri, config: vscode.DebugConfiguration): Promise<boolean> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const tidy = await showTimelineBesideSource(uri);
    const ok = await vscode.debug.startDebugging(folder, config, { noDebug: false });
    if (ok) void tidy();
    if (!ok) void vscode.window.showErrorMessage(`Frozen Run: could not start a replay of ${path.basename(uri.fsPath)} (see the Debug Console and the "Frozen Run" output).`);
    return ok;
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
