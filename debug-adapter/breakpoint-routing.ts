// Where the breakpoints a client sets in one file go (the runtime's rule; the DAP session converts
// lines, columns and paths and answers): in the program's `.mfl` file to its statements
// (source-breakpoints.ts); in that file while machin still replays the program to a waiting list,
// answered unverified and bound once the statements are in; in the recording's document to its
// lines (breakpoints.ts); anywhere else nowhere, each answered unverified with why. Which log
// points print their hits once set (issue 30) is decided here too.
import { readyStatements, type Recording } from '../replay-engine/model/recording';
import type { BreakpointOptions, BreakpointTable } from './breakpoints';
import { LogPointChanges, type PrintedLogPoint } from './log-point-changes';
import type { SourceBreakpointResult, SourceBreakpoints } from './source-breakpoints';
import { isRecordingSource } from './sources';

/** The file a request names, as the client named it (handed back as it is when its waiting breakpoints are bound). */
export interface BreakpointFile {
  path?: string;
  name?: string;
  sourceReference?: number;
}

/** A breakpoint asked for, in the debugger's lines and columns (1-based). */
export interface WantedBreakpoint extends BreakpointOptions {
  line: number;
  column?: number;
}

/** A breakpoint's answer, in the debugger's lines and columns; no id when it went nowhere. */
export interface PlacedBreakpoint {
  id?: number;
  verified: boolean;
  message?: string;
  line?: number;
  column?: number;
}

export interface Routed {
  /** The program's statements, the list waiting for them, the recording's lines, or nowhere. */
  to: 'program' | 'waiting' | 'recording' | 'nowhere';
  breakpoints: PlacedBreakpoint[];
  /** The verified log points whose hits print now: new or changed since the last request (log-point-changes.ts). */
  logPoints: PrintedLogPoint[];
}

/** Breakpoints that waited for the statements, bound now, with the file they were asked for in. */
export interface Bound {
  file: BreakpointFile;
  breakpoints: SourceBreakpointResult[];
  logPoints: PrintedLogPoint[];
}

interface Waiting {
  file: BreakpointFile;
  /** The program's path, in the debugger's form. */
  path: string | undefined;
  wanted: WantedBreakpoint[];
  /** The ids they were answered with, kept when they are bound. */
  ids: number[];
}

const WAITING = 'Waiting for the program\'s statements (machin is replaying it).';

export class BreakpointRouting {
  /** The program's breakpoints asked for while its statements were coming (bound when they are in). */
  private waiting: Waiting | null;
  /** The log points whose hits were printed, so a request prints only new or changed ones. */
  private readonly printed: LogPointChanges;

  constructor(
    private readonly recording: Recording,
    private readonly table: BreakpointTable,
    private readonly program: SourceBreakpoints,
    /** The routing of the runtime this one replaces (a restart): what waits and what was printed carry over. */
    previous?: BreakpointRouting,
  ) {
    this.waiting = previous?.waiting ?? null;
    this.printed = previous?.printed ?? new LogPointChanges();
  }

  /** Sets the breakpoints of `file` (`path`: its path in the debugger's form), replacing those set there before. */
  set(file: BreakpointFile, path: string | undefined, wanted: WantedBreakpoint[]): Routed {
    const rec = this.recording;
    const statements = readyStatements(rec);
    const mfl = /\.mfl$/i.test(file.path ?? '');
    if (path && this.program.isProgram(path)) {
      // The program's `.mfl` file: verified where a statement starts (docs/source-level.md).
      this.waiting = null;
      const placed = this.program.set(wanted);
      return { to: 'program', breakpoints: placed, logPoints: this.freshLogPoints(wanted, placed) };
    }
    if (statements === null && rec.sourceLevel?.state === 'pending' && mfl) {
      // The statements are coming: answered unverified now, bound (and log points printed) when they are in.
      const ids = wanted.map(() => this.table.ids.take());
      this.waiting = { file, path, wanted, ids };
      return { to: 'waiting', breakpoints: wanted.map((b, k) => ({ id: ids[k], verified: false, line: b.line, message: WAITING })), logPoints: [] };
    }
    if (!isRecordingSource(rec, file)) {
      const message = statements === null && mfl
        ? `Breakpoints in the program need its statements: ${sourceLevelWhy(rec)}. Meanwhile they bind to lines of the recording.`
        : 'Frozen Run breakpoints bind to lines of the recording (the trace or the decoded capsule) and of its program.';
      return unplaced(wanted, message);
    }
    return { to: 'recording', breakpoints: this.table.setLineBreakpoints(wanted), logPoints: [] };
  }

  /** Once the statements are in: the waiting breakpoints bound to them under their ids (null: none waited for the program). */
  bindWaiting(): Bound | null {
    const w = this.waiting;
    this.waiting = null;
    if (!w || !w.path || !this.program.isProgram(w.path)) return null;
    const placed = this.program.set(w.wanted.map((b, k) => ({ ...b, id: w.ids[k] })));
    return { file: w.file, breakpoints: placed, logPoints: this.freshLogPoints(w.wanted, placed) };
  }

  /** The verified log points among `wanted` (on the line and column they were bound to) not printed as they are now. */
  private freshLogPoints(wanted: WantedBreakpoint[], placed: SourceBreakpointResult[]): PrintedLogPoint[] {
    const logPoints = wanted.flatMap((b, k) => (b.logMessage && placed[k].verified ? [{ ...b, line: placed[k].line, column: placed[k].column, logMessage: b.logMessage }] : []));
    return this.printed.fresh(logPoints);
  }
}

/** Breakpoints that go nowhere: each unverified, with why. */
export function unplaced(wanted: WantedBreakpoint[], message: string): Routed {
  return { to: 'nowhere', breakpoints: wanted.map((b) => ({ verified: false, line: b.line, message })), logPoints: [] };
}

/** Why the program's statements are not known, in a few words. */
function sourceLevelWhy(rec: Recording): string {
  const status = rec.sourceLevel;
  if (!status) return 'this recording has none';
  if (status.state === 'pending') return 'machin is still replaying the program';
  if (status.state === 'unavailable') return status.reason;
  return 'they are known';
}
