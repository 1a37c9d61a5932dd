// Line breakpoints in the program's `.mfl` file (issue 14): verified where a statement starts, hit
// at every arrival at the line in the run (StatementIndex.lineHits, in the one total order of
// statement events), with conditions, hit counts and log points. A hit count counts arrivals in
// run order (the 3rd arrival is the 3rd whichever way the cursor moves), so it means the same
// forward and backward. Conditions and log messages see the goroutine's values as of that
// statement (StatementScope).
//
// A data breakpoint's changes that statements stored (data-changes.ts) are met here too, in the
// same order: several stores between two ops are several stops, each on its statement. Their
// conditions see the values just after the store, as a record-level data breakpoint's do.
import { resolve } from 'node:path';
import { readyStatements, type Recording } from '../replay-engine/model/recording';
import type { SourceStatements } from '../replay-engine/model/source-level';
import { parseLogMessage, type BreakpointIds, type BreakpointHit, type DataBreakpoint, type StopReason } from './breakpoints';
import { evaluate, parseExpression, truthy, type Expr, type Scope, type Value } from './expression';
import { hitMatches, parseHitCondition, type HitCondition } from './hit-condition';
import { lowerBound } from '../replay-engine/model/lower-bound';

export interface SourceBreakpointRequest {
  line: number;
  /** An inline breakpoint's column (1-based): met at every run of the statement there, not at each arrival at the line. */
  column?: number;
  /** Keep this id (a breakpoint answered unverified while the statements were coming). */
  id?: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface SourceBreakpointResult {
  id: number;
  verified: boolean;
  line: number;
  /** The column of the statement an inline breakpoint was bound to (absent for a line breakpoint). */
  column?: number;
  message?: string;
}

/** What is met at statements: a line's arrivals, or a data breakpoint's stores. */
interface Candidate {
  id: number;
  /** Seqs it is met at, ascending. */
  hits: Uint32Array;
  condition?: Expr;
  hit?: HitCondition;
  log?: Array<string | Expr>;
  /** A data breakpoint's: the variable, and each hit's 1-based change number and new value. */
  data?: { name: string; occurrences: Uint32Array; values: string[] };
}

export interface StatementHit {
  seq: number;
  reason: StopReason;
  breakpointIds: number[];
  description: string;
  /** A stop of another kind met at this statement (the panic), in place of a breakpoint's. */
  stop?: BreakpointHit;
}

/** Names at one statement event: the goroutine's values as it is about to run it, its id, the line and function. */
export class StatementScope implements Scope {
  /** A value read through this scope is this replay's only (machin may not print it in another). */
  readThisReplayOnly = false;

  constructor(
    private readonly recording: Recording,
    private readonly statements: SourceStatements,
    private readonly seq: number,
    /** The values just after the statement stored its own (a data breakpoint's), not before it ran. */
    private readonly after = false,
  ) {}

  lookup(name: string): Value {
    const { thread, event } = this.statements.eventAt(this.seq);
    if (name === 'thread' || name === 'goroutine') return this.recording.timeline.threads[thread].id;
    if (name === 'line') return this.statements.location(thread, event).line;
    if (name === 'function') return this.statements.location(thread, event).function;
    const s = this.statements;
    const anchor = s.positionOf(thread, event);
    // This frame's own values (a recursive call's locals of the same name are not its caller's).
    const h = this.recording.histories;
    const e = this.after ? event + 1 : event;
    const accept = (stored: number) => s.sameFrame(thread, name, stored, event);
    if (!h?.entryAtEvent) return h?.valueAtEvent?.(name, thread, e, anchor, anchor, accept);
    const entry = h.entryAtEvent(name, thread, e, anchor, anchor, accept);
    if (entry?.thisReplayOnly) this.readThisReplayOnly = true;
    return entry?.value;
  }
}

export class SourceBreakpoints {
  private list: Candidate[] = [];

  constructor(
    private readonly recording: Recording,
    private readonly log: (text: string, seq: number) => void,
    /** The data breakpoints (BreakpointTable's), whose stores by statements are met here. */
    private readonly dataBreakpoints: () => readonly DataBreakpoint[] = () => [],
    /** The session's breakpoint ids (BreakpointTable's). */
    private readonly ids: () => BreakpointIds,
  ) {}

  private get statements(): SourceStatements | null {
    return readyStatements(this.recording);
  }

  /** Whether `path` names the program the statements are in. */
  isProgram(path: string | undefined): boolean {
    const s = this.statements;
    return s !== null && path !== undefined && resolve(path) === resolve(s.file);
  }

  /** Whether meeting a breakpoint reads variable values (a condition or a log message). */
  get readsValues(): boolean {
    return this.list.some((c) => c.condition !== undefined || c.log !== undefined);
  }

  get any(): boolean {
    return this.list.length > 0 || this.dataBreakpoints().some((d) => d.atStatements.seqs.length > 0);
  }

  /** The line breakpoints and the data breakpoints' stores, together. */
  private candidates(): Candidate[] {
    const data = this.dataBreakpoints().filter((d) => d.atStatements.seqs.length > 0);
    if (data.length === 0) return this.list;
    return [
      ...this.list,
      ...data.map((d): Candidate => ({ id: d.id, hits: d.atStatements.seqs, condition: d.condition, hit: d.hit, log: d.log, data: { name: d.name, occurrences: d.atStatements.occurrences, values: d.atStatements.values } })),
    ];
  }

  /** Replaces the breakpoints of the program file. */
  set(wanted: SourceBreakpointRequest[]): SourceBreakpointResult[] {
    const s = this.statements;
    this.list = [];
    if (!s) return wanted.map((b) => ({ id: this.ids().take(), verified: false, line: b.line, message: 'Statements are not known (machin has not replayed the program against its instrumented copy).' }));
    const breakable = s.breakableLines();
    return wanted.map((b) => {
      const id = b.id ?? this.ids().take();
      const at = lowerBound(0, breakable.length, (i) => breakable[i] < b.line);
      if (breakable[at] !== b.line) {
        const next = breakable[at];
        return { id, verified: false, line: b.line, message: `No statement starts on line ${b.line}${next !== undefined ? ` (the next one is on line ${next})` : ''}.` };
      }
      const at2 = b.column !== undefined ? s.statementAt(b.line, b.column) : null;
      const bp: Candidate = { id, hits: s.lineHits(b.line, at2 ? at2.column : undefined) };
      try {
        if (b.condition?.trim()) bp.condition = parseExpression(b.condition);
        if (b.hitCondition?.trim()) {
          const h = parseHitCondition(b.hitCondition);
          if (typeof h === 'string') return { id, verified: false, line: b.line, message: h };
          bp.hit = h;
        }
        if (b.logMessage) bp.log = parseLogMessage(b.logMessage);
      } catch (e) {
        return { id, verified: false, line: b.line, message: `condition: ${(e as Error).message}` };
      }
      this.list.push(bp);
      return { id, verified: true, line: b.line, ...(at2 ? { column: at2.column } : {}), message: bp.hits.length === 0 ? `The run never reaches this ${at2 ? 'statement' : 'line'}.` : undefined };
    });
  }

  /**
   * The first statement hit going forward from seq `from` (inclusive) up to `to` (inclusive), or
   * going back from `from` (inclusive) down to `to` (inclusive). Log points print and go on.
   */
  first(from: number, to: number, forward: boolean): StatementHit | null {
    const s = this.statements;
    const list = this.candidates();
    if (!s || list.length === 0 || (forward ? from > to : from < to)) return null;
    // Candidates of all breakpoints, merged by walking each one's sorted hits from its start.
    const cursors = list.map((bp) => {
      const i = lowerBound(0, bp.hits.length, (k) => bp.hits[k] < from + (forward ? 0 : 1));
      return forward ? i : i - 1;
    });
    for (;;) {
      let best = -1;
      let bestSeq = forward ? Infinity : -Infinity;
      list.forEach((bp, k) => {
        const q = bp.hits[cursors[k]];
        if (q === undefined) return;
        if (forward ? q <= to && q < bestSeq : q >= to && q > bestSeq) {
          best = k;
          bestSeq = q;
        }
      });
      if (best < 0) return null;
      const met: Array<{ bp: Candidate; k: number }> = [];
      list.forEach((bp, k) => {
        const i = cursors[k];
        if (bp.hits[i] !== bestSeq) return;
        if (this.passes(bp, s, bestSeq, i)) met.push({ bp, k: i });
        cursors[k] += forward ? 1 : -1;
      });
      if (met.length > 0) return this.hitAt(s, bestSeq, met);
    }
  }

  /** The stop at seq for what was met there: a line breakpoint's words, else the first data breakpoint's. */
  private hitAt(s: SourceStatements, seq: number, met: Array<{ bp: Candidate; k: number }>): StatementHit {
    const { thread, event } = s.eventAt(seq);
    const loc = s.location(thread, event);
    const breakpointIds = met.map((m) => m.bp.id);
    const store = met.every((m) => m.bp.data) ? met[0] : null;
    if (!store) return { seq, reason: 'breakpoint', breakpointIds, description: `Breakpoint at line ${loc.line} (${loc.function})` };
    const { name, values } = store.bp.data!;
    return { seq, reason: 'data breakpoint', breakpointIds, description: `Value changed: ${name} becomes ${values[store.k]} by this statement (line ${loc.line})` };
  }

  /** Condition, hit count, log message; `i` is the hit's index in the candidate's list. */
  private passes(bp: Candidate, s: SourceStatements, seq: number, i: number): boolean {
    const scope = new StatementScope(this.recording, s, seq, bp.data !== undefined);
    if (bp.condition) {
      let ok = false;
      try {
        ok = truthy(evaluate(bp.condition, scope));
      } catch {
        ok = false;
      }
      if (!ok) return false;
    }
    if (bp.hit && !hitMatches(bp.hit, bp.data ? bp.data.occurrences[i] : i + 1)) return false;
    // A log point printed every hit of the run when it was set (run-questions.ts): passing it stops nowhere and prints nothing again.
    if (bp.log && !bp.data) return false;
    if (bp.log) {
      this.log(bp.log.map((p) => (typeof p === 'string' ? p : show(p, scope))).join(''), seq);
      return false;
    }
    return true;
  }
}

function show(e: Expr, scope: Scope): string {
  try {
    const v = evaluate(e, scope);
    return v === undefined ? 'undefined' : String(v);
  } catch (err) {
    return `<${(err as Error).message}>`;
  }
}
