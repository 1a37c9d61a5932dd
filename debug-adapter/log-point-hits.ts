// Print statements after the fact (issue 30): a log point on a `.mfl` line evaluated at every
// arrival at that line in the whole run, without moving the cursor. The arrivals are the line
// breakpoint's (SourceStatements.lineHits, in run order); the message, condition and hit count are
// read and evaluated as a line breakpoint's are (parseLogMessage, StatementScope, expression.ts),
// so a log point says at each hit what it would say when passed. Pages are evaluated on demand: a
// line hit 500,000 times costs its arrivals' list and the page asked for.
import type { Recording } from '../replay-engine/model/recording';
import type { SourceStatements } from '../replay-engine/model/source-level';
import { statementPlace } from '../replay-engine/model/step-words';
import { parseLogMessage } from './breakpoints';
import { evaluate, namesIn, parseExpression, truthy, type Expr } from './expression';
import { hitMatches, parseHitCondition, type HitCondition } from './hit-condition';
import { StatementScope } from './source-breakpoints';

export interface LogPointSpec {
  line: number;
  /** An inline log point's column: hits are the runs of the statement there (SourceStatements.statementAt). */
  column?: number;
  logMessage: string;
  condition?: string;
  hitCondition?: string;
}

/** One hit of a log point: where the run was and what the message said there. */
export interface LogHit {
  /** The statement event's place in the one total order (what "go to this hit" takes). */
  seq: number;
  /** 1-based number of the arrival at the line, in run order (what a hit count counts). */
  arrival: number;
  thread: number;
  goroutine: string;
  event: number;
  line: number;
  column: number;
  function: string;
  /** Ops done when the statement ran (the timeline position it is placed at). */
  position: number;
  text: string;
  /** The statement, or a value the message read, ran in this replay only (machin may not print it in another). */
  thisReplayOnly: boolean;
  /** Why parts of the message could not be evaluated here, once per reason. */
  problems: string[];
}

export interface LogHitPage {
  hits: LogHit[];
  /** Arrivals at the line in the whole run (before condition and hit count). */
  arrivals: number;
  /** The arrival index to go on from (arrivals: every arrival was looked at). */
  next: number;
  /** Why the condition could not be evaluated at some arrivals looked at (those left out), once per reason. */
  conditionProblems: string[];
}

/** Names a message, a condition may use besides the program's variables (StatementScope's). */
const SCOPE_NAMES = new Set(['thread', 'goroutine', 'line', 'function']);

export class LogPointError extends Error {}

export class LogPoint {
  private readonly parts: Array<string | Expr>;
  private readonly condition?: Expr;
  private readonly hit?: HitCondition;
  /** The run's arrivals at the line, as seqs ascending. */
  readonly seqs: Uint32Array;
  /** Why the condition had no value at an arrival looked at so far, once per reason. */
  private readonly conditionProblems = new Set<string>();

  constructor(
    private readonly recording: Recording,
    private readonly statements: SourceStatements,
    readonly spec: LogPointSpec,
  ) {
    try {
      this.parts = parseLogMessage(spec.logMessage);
      if (spec.condition?.trim()) this.condition = parseExpression(spec.condition);
    } catch (e) {
      throw new LogPointError(`line ${spec.line}: ${(e as Error).message}`);
    }
    if (spec.hitCondition?.trim()) {
      const h = parseHitCondition(spec.hitCondition);
      if (typeof h === 'string') throw new LogPointError(`line ${spec.line}: ${h}`);
      this.hit = h;
    }
    const at = spec.column !== undefined ? statements.statementAt(spec.line, spec.column) : null;
    this.seqs = statements.lineHits(spec.line, at ? at.column : undefined);
  }

  /**
   * Up to `limit` hits that pass the condition and hit count, from arrival index `from` on, in run
   * order; `goroutine` keeps one goroutine's, `text` those whose line contains it (case-insensitive).
   */
  page(from: number, limit: number, filter: { goroutine?: string; text?: string } = {}): LogHitPage {
    const hits: LogHit[] = [];
    const s = this.statements;
    const tl = this.recording.timeline;
    const only = filter.goroutine !== undefined ? tl.threadIndex(filter.goroutine) : -1;
    if (filter.goroutine !== undefined && only < 0) throw new LogPointError(`no goroutine ${filter.goroutine} in this recording (it has ${tl.threads.map((t) => t.id).slice(0, 10).join(', ')}${tl.threads.length > 10 ? ', …' : ''})`);
    const needle = filter.text?.toLowerCase();
    let i = Math.max(0, from);
    for (; i < this.seqs.length && hits.length < limit; i++) {
      const seq = this.seqs[i];
      const { thread, event } = s.eventAt(seq);
      if (only >= 0 && thread !== only) continue;
      const h = this.at(seq, i, thread, event);
      if (!h) continue;
      if (needle && !h.text.toLowerCase().includes(needle)) continue;
      hits.push(h);
    }
    return { hits, arrivals: this.seqs.length, next: i, conditionProblems: [...this.conditionProblems] };
  }

  /** Every hit (for the CLI and tests; the views page). */
  all(filter: { goroutine?: string; text?: string } = {}): LogHit[] {
    return this.page(0, Infinity, filter).hits;
  }

  /** The hit at arrival index i, or null when the condition or the hit count leaves it out. */
  private at(seq: number, i: number, thread: number, event: number): LogHit | null {
    const s = this.statements;
    const scope = new StatementScope(this.recording, s, seq);
    const loc = s.location(thread, event);
    if (this.condition) {
      let ok = false;
      try {
        const v = evaluate(this.condition, scope);
        ok = v !== undefined && truthy(v);
        // A comparison with a name that has no value is false: say which name, as the message parts do.
        const why = ok ? null : v === undefined ? this.whyUnknown(this.condition, scope, loc.function) : this.missingName(this.condition, scope, loc.function);
        if (why) this.conditionProblems.add(why);
      } catch (e) {
        this.conditionProblems.add((e as Error).message);
      }
      if (!ok) return null;
    }
    if (this.hit && !hitMatches(this.hit, i + 1)) return null;
    const problems: string[] = [];
    const text = this.parts
      .map((p) => {
        if (typeof p === 'string') return p;
        try {
          const v = evaluate(p, scope);
          if (v !== undefined) return String(v);
          const why = this.whyUnknown(p, scope, loc.function);
          if (!problems.includes(why)) problems.push(why);
        } catch (e) {
          const why = (e as Error).message;
          if (!problems.includes(why)) problems.push(why);
        }
        return '?';
      })
      .join('');
    return {
      seq,
      arrival: i + 1,
      thread,
      goroutine: this.recording.timeline.threads[thread].id,
      event,
      line: loc.line,
      column: loc.column,
      function: loc.function,
      position: s.positionOf(thread, event),
      text,
      thisReplayOnly: !s.isSure(thread, event) || scope.readThisReplayOnly,
      problems,
    };
  }

  /** Why an expression has no value at this statement, in one line: the first name that has none. */
  private whyUnknown(e: Expr, scope: StatementScope, fn: string): string {
    return this.missingName(e, scope, fn) ?? 'no value (a division by zero, or arithmetic on text)';
  }

  /** The first name the expression reads that has no value here, and why; null when every one has a value. */
  private missingName(e: Expr, scope: StatementScope, fn: string): string | null {
    const locals = this.statements.localsOf(fn);
    for (const name of namesIn(e)) {
      if (SCOPE_NAMES.has(name)) continue;
      if (scope.lookup(name) !== undefined) continue;
      if (locals && !locals.includes(name)) return `${name}: not a variable of ${fn}`;
      return `${name}: no value yet at this statement (or not a scalar machin prints)`;
    }
    return null;
  }
}

/** The line a hit says in the Debug Console and the CLI: where (in the status bar's words for `total` steps), then what. */
export function hitLine(h: LogHit, total: number, unit = 'op'): string {
  const marks = [h.thisReplayOnly ? 'this replay only' : '', ...h.problems].filter(Boolean);
  return `[goroutine ${h.goroutine} ${h.function} line ${h.line}:${h.column} ${statementPlace(h.position, total, unit)}] ${h.text}${marks.length ? `  (${marks.join('; ')})` : ''}`;
}
