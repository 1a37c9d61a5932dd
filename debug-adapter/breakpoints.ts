// Every kind of breakpoint over a recording, compiled into flags the run loop can test without
// allocating: a byte per kind and per thread (function breakpoints), folded with line, data,
// panic, divergence and fault flags into a byte per record; the non-zero bytes are listed once
// per change, so a run visits only candidate records (binary search to the first, then in order).
// Conditions, hit counts and log messages are looked at only for those candidates.
import { readyStatements, type Recording } from '../replay-engine/model/recording';
import { dataChanges, type DataChanges } from './data-changes';
import { evaluate, parseExpression, truthy, ExpressionError, type Expr } from './expression';
import { hitMatches, parseHitCondition, type HitCondition } from './hit-condition';
import { RecordScope } from './record-scope';
import type { ThreadIndex } from './thread-index';
import { lowerBound } from '../replay-engine/model/lower-bound';

export const FLAG_LINE = 1;
export const FLAG_DATA = 2;
export const FLAG_PANIC = 4;
export const FLAG_DIVERGENCE = 8;
export const FLAG_FAULT = 16;
export const FLAG_FUNCTION = 32;
/** A kind or thread function breakpoint, folded into the record's byte from kindFlags / threadFlags. */
export const FLAG_KIND_THREAD = 64;

export type ExceptionFilter = 'panic' | 'divergence' | 'fault';
export const EXCEPTION_FILTERS: ReadonlyArray<{ filter: ExceptionFilter; label: string; description: string; default: boolean }> = [
  { filter: 'panic', label: 'Panic', description: 'Stop where the run panicked (from machin replay --json, or the capsule\'s recorded panic).', default: true },
  { filter: 'divergence', label: 'Divergence', description: 'Stop where replaying the recording diverged from it (machin --verify).', default: true },
  { filter: 'fault', label: 'Faulted effects', description: 'Stop on every effect of a capsule whose outcome is a fault.', default: false },
];

export type StopReason = 'entry' | 'step' | 'breakpoint' | 'function breakpoint' | 'data breakpoint' | 'exception' | 'goto' | 'pause' | 'start' | 'end';

/** Why the run loop stopped on a record. */
export interface BreakpointHit {
  reason: StopReason;
  /** Thread to report as stopped. */
  thread: number;
  description: string;
  text?: string;
  breakpointIds: number[];
  exception?: ExceptionFilter;
}

/** A divergence marked on a record: what the stop's description and the exception widget say. */
export interface Divergence {
  record: number;
  /** `verify`: machin replay --verify; `replay`: a replay against another build (tin replay --against). */
  source: 'verify' | 'replay';
  description: string;
  text: string;
}

export interface BreakpointOptions {
  /** The id to keep (a restart that reads the recording again re-applies breakpoints under their ids). */
  id?: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface BreakpointResult {
  id: number;
  verified: boolean;
  message?: string;
  line?: number;
}

interface Common {
  id: number;
  condition?: Expr;
  hit?: HitCondition;
  log?: Array<string | Expr>;
}

interface LineBreakpoint extends Common { record: number }

type FunctionTarget = { type: 'kinds'; kinds: number[] } | { type: 'thread'; thread: number } | { type: 'panic' };
interface FunctionBreakpoint extends Common { name: string; target: FunctionTarget; matches?: Uint32Array }

/** A data breakpoint: its changes as positions, and (source level) those met at statements. */
export interface DataBreakpoint extends Common {
  thread: number;
  name: string;
  changes: number[];
  atStatements: DataChanges['atStatements'];
}

/**
 * The breakpoint ids of one debug session (record-level and in the program): each new breakpoint
 * takes the next. Per session, so that sessions side by side never change each other's ids; a
 * restart's table takes the previous table's (carryOver), so the ids the client holds stay unique.
 */
export class BreakpointIds {
  private next = 1;

  take(): number {
    return this.next++;
  }
}

/** Compile a log message: text with `{expression}` parts. */
export function parseLogMessage(text: string): Array<string | Expr> {
  const parts: Array<string | Expr> = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(parseExpression(m[1]));
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export class BreakpointTable {
  /** One byte per record; allocated on the first record-level breakpoint. */
  private recordFlags: Uint8Array | null = null;
  readonly kindFlags = new Uint8Array(256);
  readonly threadFlags: Uint8Array;
  private lines = new Map<number, LineBreakpoint>();
  private functions: FunctionBreakpoint[] = [];
  private data = new Map<number, Array<{ bp: DataBreakpoint; occurrence: number }>>();
  private dataList: DataBreakpoint[] = [];
  private exceptions = new Set<ExceptionFilter>();
  private panicRecord = -1;
  /** Where replaying stopped matching the recording: machin --verify's, or one the client reported. */
  private divergence: Divergence | null = null;
  private readonly verifyDivergence: Divergence | null = null;
  private faultRecords: number[] | null = null;
  private readonly scope: RecordScope;
  /** The records whose byte is non-zero, ascending; rebuilt after a change (null: stale). */
  private flaggedList: Uint32Array | null = null;
  /** Whether record bytes hold FLAG_KIND_THREAD bits. */
  private folded = false;
  /**
   * What the client asked for last, under the ids it was given: a table over the same recording
   * read anew (a restart) takes it over with `carryOver`, since the client does not send it again
   * and matches `hitBreakpointIds` against the ids it was told.
   */
  private asked: {
    lines?: Array<BreakpointOptions & { line: number }>;
    functions?: Array<BreakpointOptions & { name: string }>;
    data?: Array<BreakpointOptions & { dataId: string }>;
    filters?: string[];
  } = {};
  /** The divergence a replay against another build reported (setDivergence), null when none. */
  private reported: Divergence | null = null;
  /** This session's breakpoint ids (SourceBreakpoints takes its ids here too). */
  ids = new BreakpointIds();

  constructor(
    private readonly recording: Recording,
    private readonly threads: () => ThreadIndex,
    /** Records whose outcome is a fault (capsules), found on first use. */
    private readonly findFaults: () => number[],
    private readonly log: (text: string, record: number) => void,
  ) {
    this.threadFlags = new Uint8Array(recording.timeline.threads.length);
    this.scope = new RecordScope(recording);
    const tl = recording.timeline;
    if (recording.panic) this.panicRecord = tl.frontier(recording.panic.position) - 1;
    const v = recording.verify;
    if (v && v.verdict === 'DIVERGED' && v.scheduleDone < v.scheduleTotal) {
      const record = tl.frontier(v.scheduleDone) - 1;
      if (record >= 0) {
        this.verifyDivergence = {
          record, source: 'verify', text: divergenceText(v),
          description: `Divergence: machin replayed ${v.scheduleDone} of ${v.scheduleTotal} ops`,
        };
      }
    }
    this.divergence = this.verifyDivergence;
    // Defaults apply until the client says otherwise (not every client sends setExceptionBreakpoints).
    this.setExceptionFilters(EXCEPTION_FILTERS.filter((f) => f.default).map((f) => f.filter));
  }

  /** The per-record flag array (null when no record-level breakpoint exists), for the run loop. */
  get perRecord(): Uint8Array | null {
    return this.recordFlags;
  }

  /** Whether the Panic exception filter is on. */
  get stopsOnPanic(): boolean {
    return this.exceptions.has('panic') && this.recording.panic !== null;
  }

  /** The panic as a stop (the Panic filter's hit). */
  panicStop(): BreakpointHit | null {
    const p = this.recording.panic;
    return p ? { reason: 'exception', thread: p.thread, exception: 'panic', breakpointIds: [], description: `Panic: ${p.message}`, text: p.message } : null;
  }

  get panicAt(): number {
    return this.panicRecord;
  }

  get divergenceAt(): number {
    return this.divergence?.record ?? -1;
  }

  get recordCount(): number {
    return this.recording.timeline.recordCount;
  }

  get currentDivergence(): Divergence | null {
    return this.divergence;
  }

  /**
   * Mark where a replay against another build diverged (a record of this recording), or with null
   * go back to what the recording itself says (machin --verify's divergence, or none). The
   * `divergence` exception filter stops there in both directions.
   */
  setDivergence(d: Divergence | null): void {
    this.reported = d;
    const old = this.divergence;
    if (old && this.recordFlags) this.flags()[old.record] &= ~FLAG_DIVERGENCE;
    this.divergence = d ?? this.verifyDivergence;
    this.markDivergence();
  }

  private markDivergence(): void {
    const d = this.divergence;
    if (!d) return;
    const f = this.flags();
    f[d.record] = (f[d.record] & ~FLAG_DIVERGENCE) | (this.exceptions.has('divergence') ? FLAG_DIVERGENCE : 0);
  }

  private flags(): Uint8Array {
    if (!this.recordFlags) this.recordFlags = new Uint8Array(this.recording.timeline.recordCount);
    this.flaggedList = null;
    return this.recordFlags;
  }

  /** The flagged records (non-zero bytes) in ascending order: the only records a run looks at. */
  flagged(): Uint32Array {
    if (this.flaggedList) return this.flaggedList;
    const f = this.recordFlags;
    if (!f) return (this.flaggedList = new Uint32Array(0));
    let n = 0;
    for (let r = 0; r < f.length; r++) if (f[r] !== 0) n++;
    const list = new Uint32Array(n);
    n = 0;
    for (let r = 0; r < f.length; r++) if (f[r] !== 0) list[n++] = r;
    return (this.flaggedList = list);
  }

  private compile(o: BreakpointOptions, target: Common): string | undefined {
    try {
      if (o.condition && o.condition.trim()) target.condition = parseExpression(o.condition);
    } catch (e) {
      return `condition: ${(e as ExpressionError).message}`;
    }
    if (o.hitCondition && o.hitCondition.trim()) {
      const h = parseHitCondition(o.hitCondition);
      if (typeof h === 'string') return h;
      target.hit = h;
    }
    try {
      if (o.logMessage) target.log = parseLogMessage(o.logMessage);
    } catch (e) {
      return `log message: ${(e as ExpressionError).message}`;
    }
    return undefined;
  }

  setLineBreakpoints(requests: Array<BreakpointOptions & { line: number }>): BreakpointResult[] {
    if (this.lines.size > 0) {
      const f = this.flags();
      for (const r of this.lines.keys()) f[r] &= ~FLAG_LINE;
    }
    this.lines.clear();
    const results = requests.map((req) => this.addLineBreakpoint(req));
    this.asked.lines = requests.map((req, i) => ({ ...req, id: results[i].id }));
    return results;
  }

  private addLineBreakpoint(req: BreakpointOptions & { line: number }): BreakpointResult {
    const tl = this.recording.timeline;
    const id = req.id ?? this.ids.take();
    const r = tl.recordAtLine(req.line);
    if (r < 0) {
      return { id, verified: false, line: req.line, message: `line ${req.line} holds no record: breakpoints bind to lines with ${tl.units.record}` };
    }
    const bp: LineBreakpoint = { id, record: r };
    const problem = this.compile(req, bp);
    if (problem) return { id, verified: false, line: req.line, message: problem };
    this.lines.set(r, bp);
    this.flags()[r] |= FLAG_LINE;
    return { id, verified: true, line: req.line };
  }

  setFunctionBreakpoints(requests: Array<BreakpointOptions & { name: string }>): BreakpointResult[] {
    const results = this.compileFunctionBreakpoints(requests);
    this.foldKindThreadFlags();
    this.asked.functions = requests.map((req, i) => ({ ...req, id: results[i].id }));
    return results;
  }

  /** Copy the per-kind and per-thread flags into the record bytes (one pass over the records). */
  private foldKindThreadFlags(): void {
    const any = this.kindFlags.some((x) => x !== 0) || this.threadFlags.some((x) => x !== 0);
    if (!any && !this.folded) return;
    const tl = this.recording.timeline;
    const f = this.flags();
    const kind = tl.kind;
    const thread = tl.thread;
    const kf = this.kindFlags;
    const tf = this.threadFlags;
    for (let r = 0; r < f.length; r++) {
      const hit = (kf[kind[r]] | tf[thread[r]]) !== 0 ? FLAG_KIND_THREAD : 0;
      f[r] = (f[r] & ~FLAG_KIND_THREAD) | hit;
    }
    this.folded = any;
  }

  private compileFunctionBreakpoints(requests: Array<BreakpointOptions & { name: string }>): BreakpointResult[] {
    this.kindFlags.fill(0);
    this.threadFlags.fill(0);
    if (this.panicRecord >= 0 && this.recordFlags) this.flags()[this.panicRecord] &= ~FLAG_FUNCTION;
    this.functions = [];
    return requests.map((req) => {
      const id = req.id ?? this.ids.take();
      const target = this.resolveFunction(req.name.trim());
      if (typeof target === 'string') return { id, verified: false, message: target };
      const bp: FunctionBreakpoint = { id, name: req.name.trim(), target };
      const problem = this.compile(req, bp);
      if (problem) return { id, verified: false, message: problem };
      this.functions.push(bp);
      if (target.type === 'kinds') for (const k of target.kinds) this.kindFlags[k] |= FLAG_FUNCTION;
      else if (target.type === 'thread') this.threadFlags[target.thread] |= FLAG_FUNCTION;
      else if (this.panicRecord >= 0) this.flags()[this.panicRecord] |= FLAG_FUNCTION;
      const verified = target.type !== 'panic' || this.recording.panic !== null;
      return { id, verified, message: verified ? undefined : 'no panic is known for this recording (the run did not panic, or no toolchain ran)' };
    });
  }

  private resolveFunction(name: string): FunctionTarget | string {
    const tl = this.recording.timeline;
    if (name === 'panic') return { type: 'panic' };
    const m = /^(goroutine|task|thread)\s+(.+)$/i.exec(name);
    if (m) {
      const want = m[2].trim();
      let t = tl.threadIndex(want);
      if (t < 0) t = tl.threads.findIndex((x) => x.label === want);
      if (t < 0) return `no ${m[1].toLowerCase()} '${want}' in this recording; threads: ${tl.threads.map((_, i) => tl.label(i)).slice(0, 20).join(', ')}`;
      return { type: 'thread', thread: t };
    }
    const kinds: number[] = [];
    tl.kinds.forEach((k, i) => {
      if (k === name || k.split('@')[0] === name) kinds.push(i);
    });
    if (kinds.length === 0) {
      return `'${name}' is neither a record kind of this recording (${tl.kinds.slice(0, 20).join(', ')}), 'goroutine ID', 'task N' nor 'panic'`;
    }
    return { type: 'kinds', kinds };
  }

  setExceptionFilters(filters: string[]): string | undefined {
    this.asked.filters = [...filters];
    // The per-record bytes are allocated only when a filter has a record to mark.
    const needed = this.panicRecord >= 0 || this.divergence !== null || filters.includes('fault') || this.faultRecords !== null;
    const f = needed ? this.flags() : new Uint8Array(0);
    const unknown = filters.filter((x) => !EXCEPTION_FILTERS.some((e) => e.filter === x));
    this.exceptions = new Set(filters.filter((x): x is ExceptionFilter => EXCEPTION_FILTERS.some((e) => e.filter === x)));
    if (this.panicRecord >= 0) f[this.panicRecord] = (f[this.panicRecord] & ~FLAG_PANIC) | (this.exceptions.has('panic') ? FLAG_PANIC : 0);
    this.markDivergence();
    if (this.exceptions.has('fault') || this.faultRecords) {
      this.faultRecords ??= this.findFaults();
      const on = this.exceptions.has('fault');
      for (const r of this.faultRecords) f[r] = (f[r] & ~FLAG_FAULT) | (on ? FLAG_FAULT : 0);
    }
    return unknown.length ? `unknown exception filter(s): ${unknown.join(', ')}` : undefined;
  }

  exceptionEnabled(filter: ExceptionFilter): boolean {
    return this.exceptions.has(filter);
  }

  /** Data breakpoint ids are `THREAD_ID|NAME` so they stay valid across sessions. */
  static dataId(threadId: string, name: string): string {
    return `${threadId}|${name}`;
  }

  setDataBreakpoints(requests: Array<BreakpointOptions & { dataId: string }>): BreakpointResult[] {
    const tl = this.recording.timeline;
    if (this.recordFlags) {
      const f = this.flags();
      for (const r of this.data.keys()) f[r] &= ~FLAG_DATA;
    }
    this.data.clear();
    this.dataList = [];
    const histories = this.recording.histories;
    const results = requests.map((req): BreakpointResult => {
      const id = req.id ?? this.ids.take();
      const bar = req.dataId.lastIndexOf('|');
      const t = bar > 0 ? tl.threadIndex(req.dataId.slice(0, bar)) : -1;
      const name = req.dataId.slice(bar + 1);
      if (t < 0 || !histories) {
        return { id, verified: false, message: histories ? `unknown data breakpoint '${req.dataId}'` : 'no variable values are known (machin --print did not run)' };
      }
      const found = dataChanges(histories, readyStatements(this.recording), t, name);
      const bp: DataBreakpoint = { id, thread: t, name, changes: found.positions, atStatements: found.atStatements };
      const problem = this.compile(req, bp);
      if (problem) return { id, verified: false, message: problem };
      this.dataList.push(bp);
      for (const { position, occurrence } of found.atRecords) {
        // A change after p ops is reached when op p-1 completes; a change at op 0 precedes every move.
        if (position === 0) continue;
        const r = tl.recordOfStep(position - 1);
        let list = this.data.get(r);
        if (!list) this.data.set(r, (list = []));
        list.push({ bp, occurrence });
        this.flags()[r] |= FLAG_DATA;
      }
      return { id, verified: true };
    });
    this.asked.data = requests.map((req, i) => ({ ...req, id: results[i].id }));
    return results;
  }

  /**
   * Take over what the client set on `previous`, a table over the same recording read before (a
   * restart that read it anew): its breakpoints under the same ids, its exception filters, and a
   * divergence a replay against a build reported, when it still names a record of this one.
   */
  carryOver(previous: BreakpointTable): void {
    this.ids = previous.ids;
    const a = previous.asked;
    if (a.filters) this.setExceptionFilters(a.filters);
    if (a.lines) this.setLineBreakpoints(a.lines);
    if (a.functions) this.setFunctionBreakpoints(a.functions);
    if (a.data) this.setDataBreakpoints(a.data);
    const d = previous.reported;
    if (d && previous.recording.timeline.file === this.recording.timeline.file && d.record < this.recordCount) this.setDivergence(d);
  }

  /** The data breakpoints, whose changes met at statements SourceBreakpoints merges with the program's line breakpoints. */
  /** Whether meeting a breakpoint reads variable values (a condition, a log message, a data breakpoint). */
  get readsValues(): boolean {
    const reads = (b: Common) => b.condition !== undefined || b.log !== undefined;
    return this.dataList.length > 0 || [...this.lines.values()].some(reads) || this.functions.some(reads);
  }

  get dataBreakpoints(): readonly DataBreakpoint[] {
    return this.dataList;
  }

  /** Value changes of a data breakpoint, as positions (for tests and the history view). */
  dataChanges(): Array<{ thread: number; name: string; positions: number[] }> {
    return this.dataList.map((d) => ({ thread: d.thread, name: d.name, positions: d.changes }));
  }

  /**
   * Condition, then hit count, then log message. `position` is computed only when a condition or a
   * log message needs it; `occurrence` only when there is a hit count (-1: compute for a function
   * breakpoint). Hot: called for every candidate record a run meets.
   */
  private passes(bp: Common, record: number, thread: number, occurrence: number, fn: FunctionBreakpoint | null): boolean {
    let position = -1;
    if (bp.condition) {
      position = this.recording.timeline.positionOf(record);
      let ok = false;
      try {
        ok = truthy(evaluate(bp.condition, this.scope.at(record, position, thread)));
      } catch {
        ok = false;
      }
      if (!ok) return false;
    }
    if (bp.hit && !hitMatches(bp.hit, fn ? this.occurrence(fn, record) : occurrence)) return false;
    if (bp.log) {
      if (position < 0) position = this.recording.timeline.positionOf(record);
      const scope = this.scope.at(record, position, thread);
      const text = bp.log
        .map((p) => {
          if (typeof p === 'string') return p;
          try {
            const v = evaluate(p, scope);
            return v === undefined ? 'undefined' : String(v);
          } catch (e) {
            return `<${(e as Error).message}>`;
          }
        })
        .join('');
      this.log(text, record);
      return false;
    }
    return true;
  }

  /** Decide whether reaching candidate record r stops; log points print and never stop. */
  check(r: number, flags: number): BreakpointHit | null {
    const rec = this.recording;
    const tl = rec.timeline;
    const thread = tl.thread[r];
    if (flags & FLAG_PANIC && rec.panic) {
      return {
        reason: 'exception', thread: rec.panic.thread, exception: 'panic', breakpointIds: [],
        description: `Panic: ${rec.panic.message}`, text: rec.panic.message,
      };
    }
    if (flags & FLAG_DIVERGENCE && this.divergence) {
      const d = this.divergence;
      return { reason: 'exception', thread, exception: 'divergence', breakpointIds: [], description: d.description, text: d.text };
    }
    if (flags & FLAG_FAULT) {
      const view = rec.describe(r);
      return {
        reason: 'exception', thread, exception: 'fault', breakpointIds: [],
        description: `Fault: ${view.summary}`, text: view.value.text,
      };
    }
    let ids: number[] | null = null;
    let reason: StopReason = 'breakpoint';
    let stopThread = thread;
    if (flags & FLAG_LINE) {
      const bp = this.lines.get(r);
      if (bp && this.passes(bp, r, thread, 1, null)) ids = [bp.id];
    }
    if (flags & FLAG_DATA) {
      for (const { bp, occurrence } of this.data.get(r) ?? []) {
        if (this.passes(bp, r, bp.thread, occurrence, null)) {
          if (!ids) { ids = []; reason = 'data breakpoint'; stopThread = bp.thread; }
          ids.push(bp.id);
        }
      }
    }
    if (flags & (FLAG_FUNCTION | FLAG_KIND_THREAD)) {
      for (const bp of this.functions) {
        if (!this.functionMatches(bp, r)) continue;
        const stopOn = bp.target.type === 'panic' && rec.panic ? rec.panic.thread : thread;
        if (this.passes(bp, r, stopOn, -1, bp)) {
          if (!ids) { ids = []; reason = 'function breakpoint'; stopThread = stopOn; }
          ids.push(bp.id);
        }
      }
    }
    if (!ids) return null;
    const what = reason === 'data breakpoint' ? 'Value changed' : reason === 'function breakpoint' ? 'Function breakpoint' : 'Breakpoint';
    return { reason, thread: stopThread, breakpointIds: ids, description: `${what} (${rec.describe(r).summary})` };
  }

  private functionMatches(bp: FunctionBreakpoint, r: number): boolean {
    const tl = this.recording.timeline;
    switch (bp.target.type) {
      case 'kinds': return bp.target.kinds.includes(tl.kind[r]);
      case 'thread': return tl.thread[r] === bp.target.thread;
      default: return r === this.panicRecord;
    }
  }

  /** 1-based occurrence of record r among the records a function breakpoint matches, in recording order. */
  private occurrence(bp: FunctionBreakpoint, r: number): number {
    const target = bp.target;
    if (target.type === 'panic') return 1;
    if (target.type === 'thread') return this.threads().lastIndexAtOrBefore(target.thread, r) - this.threads().start[target.thread] + 1;
    if (!bp.matches) {
      const tl = this.recording.timeline;
      const want = new Uint8Array(256);
      for (const k of target.kinds) want[k] = 1;
      let n = 0;
      for (let i = 0; i < tl.recordCount; i++) n += want[tl.kind[i]];
      const matches = new Uint32Array(n);
      n = 0;
      for (let i = 0; i < tl.recordCount; i++) if (want[tl.kind[i]]) matches[n++] = i;
      bp.matches = matches;
    }
    const matches = bp.matches;
    return lowerBound(0, matches.length, (i) => matches[i] <= r);
  }
}

export function divergenceText(v: NonNullable<Recording['verify']>): string {
  return `machin replay --verify: schedule ${v.scheduleDone}/${v.scheduleTotal} ops, io-underrun=${v.ioUnderrun ? 'yes' : 'no'}, boundary=${v.boundary} -> ${v.verdict}`;
}
