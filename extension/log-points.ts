// The `.mfl` log points VS Code holds and what the active Frozen Run session says of them: whether
// the adapter bound each (DAP `verified`: a line of its program where a statement starts) and
// their hits, a page at a time (frozenRun/logPointHits, evaluated by the adapter). Shared by the
// Log Point Hits view, the Go to Log Point Hit picker and the timeline's marks.
import * as vscode from 'vscode';
import { REQUEST } from '../debug-adapter/contract';
import { samePath } from './debug-sessions';
import type { LogPointHitsBody } from '../debug-adapter/run-questions';

/** Enabled log points in `.mfl` files, in VS Code's order. */
export function mflLogPoints(): vscode.SourceBreakpoint[] {
  return vscode.debug.breakpoints.filter((b): b is vscode.SourceBreakpoint => b instanceof vscode.SourceBreakpoint && b.enabled && !!b.logMessage && /\.mfl$/i.test(b.location.uri.fsPath));
}

export interface BoundState {
  /** The adapter bound it: a statement of the session's program starts on its line. */
  verified: boolean;
  message?: string;
}

/** The program a session's statements are in, when the extension knows it (Ctx.programOf). */
export type ProgramOf = (session: vscode.DebugSession) => string | undefined;

/**
 * Whether to ask the session about this log point: it is in the session's program when that is
 * known (the hits answer takes the message itself, so this does not wait for the adapter's
 * setBreakpoints answer), else when the adapter bound it.
 */
export async function inProgram(session: vscode.DebugSession, bp: vscode.SourceBreakpoint, programOf: ProgramOf): Promise<BoundState> {
  const program = programOf(session);
  if (program) return samePath(bp.location.uri.fsPath, program) ? { verified: true } : { verified: false, message: `Not in the session's program (${program}).` };
  return boundState(session, bp);
}

/**
 * What the session's adapter answered for the breakpoint. A log point in another `.mfl` file than
 * the session's program is answered unverified (the adapter binds only its program's lines), so
 * its line number is never asked about in the program.
 */
export async function boundState(session: vscode.DebugSession, bp: vscode.SourceBreakpoint): Promise<BoundState> {
  try {
    const dap = (await session.getDebugProtocolBreakpoint(bp)) as { verified?: boolean; message?: string } | undefined;
    if (!dap) return { verified: false, message: 'The session has not bound this log point (not a line of its program).' };
    return { verified: dap.verified === true, message: dap.message };
  } catch {
    return { verified: false };
  }
}

export interface HitFilter {
  text?: string;
  goroutine?: string;
}

/** A page of the log point's hits from arrival `offset` on. */
export async function hitPage(session: vscode.DebugSession, bp: vscode.SourceBreakpoint, offset: number, limit: number, filter: HitFilter = {}): Promise<LogPointHitsBody> {
  return (await session.customRequest(REQUEST.logPointHits, {
    path: bp.location.uri.fsPath,
    line: bp.location.range.start.line + 1,
    logMessage: bp.logMessage,
    condition: bp.condition,
    hitCondition: bp.hitCondition,
    offset,
    limit,
    ...filter,
  })) as LogPointHitsBody;
}

/** The active session, when it is a Frozen Run one. */
export function frozenSession(): vscode.DebugSession | undefined {
  const s = vscode.debug.activeDebugSession;
  return s?.type === 'frozen-run' ? s : undefined;
}
