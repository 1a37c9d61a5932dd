// The replay runtime: where the cursor is, how each command moves it, and why it stopped. No DAP
// types here (the session maps them), as in microsoft/vscode-mock-debug.
//
// The runtime's state is the *current record* m: every record up to and including m has happened,
// the rest has not. -1 is the start (nothing happened), recordCount the end (after everything: a
// breakpoint on the last record is met going back from there, as on any other record). The
// engine's cursor position (schedule ops completed) follows from it: positionOf(m). Moving by
// records rather than by ops means an I/O line is a place the cursor can stand on too, so the
// highlighted line in the trace always is the record that just happened.
//
// Units:  stepIn / stepBackIn   the next / previous record of any thread
//         next / stepBack       this thread's next / previous record
//         stepOut / stepBackOut this thread's last / first record
//         continue / reverseContinue, runTo / runBackTo, goto
// Every move but goto passes over the records in between and stops at the first breakpoint it
// meets, in either direction: forward over (m, target], backward over [target, m).
//
// The rules live here too: where a session starts (`start`), which record a request names
// (`targetOf`) and which way a run-to may go, whether a restart reads the recording anew
// (`needsReopen`), the breakpoints a restart carries over from the runtime it replaces, where the
// breakpoints set in a file go (`routing`, breakpoint-routing.ts), and what changes when the
// values of a deferred enrichment come (`awaitValues`); so the DAP session only translates. The
// values a frame sees are looked up in frame-values.ts (`values`).
//
// Source level (issue 14; docs/source-level.md): when the recording knows every statement each
// goroutine executed (recording.statements), the state can also stand *at a statement*: atSeq is
// that statement event's place in the one total order of events, and the record state is the last
// record done before it. The steps then move by statement in the goroutine (stepTarget), `.mfl`
// line breakpoints are met in that order between records, and the panic stops on the statement
// that panicked. Without statements every move is by record, as above.
import { basename } from 'node:path';
import type { EngineWarning } from '../replay-engine/model/errors';
import { readyStatements, type Recording } from '../replay-engine/model/recording';
import { BreakpointRouting, type Bound } from './breakpoint-routing';
import { BreakpointTable, type BreakpointHit } from './breakpoints';
import type { DivergenceBody, StatementTarget, TargetArguments } from './contract';
import { divergenceBody, replayDivergence } from './divergence';
import { FrameValues } from './frame-values';
import { ThreadIndex } from './thread-index';
import { SourceBreakpoints, type StatementHit } from './source-breakpoints';
import type { SourceStatements, StepKind } from '../replay-engine/model/source-level';
import { lowerBound } from '../replay-engine/model/lower-bound';
import { nothingAhead } from './run-end';

/** Where and why a move stopped: a breakpoint's hit, or a step's end described the same way. */
export type Stop = BreakpointHit;

/** A request the runtime refuses: `id` is the error number the session answers with. */
export class RuntimeRefusal extends Error {
  constructor(readonly id: number, message: string) {
    super(message);
  }
}

/** Where a session starts (the launch attributes that say so). */
export interface StartRules {
  stopOnEntry?: boolean;
  replayToPanic?: boolean;
  startPosition?: number;
  startRecord?: number;
}

/** How a session started: the first stop, and a line for the console when there is more to say. */
export interface Started {
  stop: Promise<Stop>;
  note?: string;
}

export type RunToward = 'runTo' | 'runBackTo' | 'goto';

/** What a run-to request without a target says (the extension passes the editor's line or the timeline's record). */
const NEEDS_TARGET: Record<RunToward, string> = {
  runBackTo: 'Run Back to Cursor needs a line of the recording: put the cursor on a record line (or select a record on the timeline). Arguments: { line } (1-based line of the recording), { position } or { record }.',
  runTo: 'Run to Cursor needs a line of the recording: put the cursor on a record line (or select a record on the timeline). Arguments: { line } (1-based line of the recording), { position } or { record }.',
  goto: 'Say where: { line } (1-based line of the recording), { position } (ops/effects done) or { record }.',
};

export interface RuntimeEvents {
  /** A log point's message, reached on `record`. */
  log(text: string, record: number): void;
}

/** What a recording was opened by (the launch attributes that say what was read and run). */
export interface OpenRules {
  recording: string;
  program?: string;
  noToolchain?: boolean;
}

/** Where a runtime comes from: what opened its recording, and the runtime it replaces (a restart). */
export interface RuntimeOrigin {
  openedBy?: OpenRules;
  /** Its breakpoints carry over: the client does not set them again after a restart. */
  previous?: ReplayRuntime;
}

/** What changed when the values of a deferred enrichment came. */
export interface ValuesArrived {
  /** The recording's warnings that came with them. */
  warnings: EngineWarning[];
  /** The program's breakpoints set while its statements were coming, bound now. */
  bound: Bound | null;
  /** A panic stop moved onto the statement that panicked. */
  moved: boolean;
  /** Why the program's statements did not come with them, when they did not. */
  noStatements: string | null;
}

/**
 * A long run yields to the event loop every SLICE_MS, so `pause` (and any other request: an MCP
 * `ping`) is heard during it (a kind breakpoint with a condition can make millions of candidates,
 * and one long condition can take a millisecond each). The clock is read after every candidate
 * (a read costs tens of nanoseconds; one record of a capsule of 4 MB effects can cost 100 ms, and
 * reading it every 64 candidates let a move run a minute past its 10 s budget: issue 31, 4).
 */
const SLICE_MS = 20;

export class ReplayRuntime {
  readonly breakpoints: BreakpointTable;
  readonly sourceBreakpoints: SourceBreakpoints;
  /** Where the breakpoints a client sets in a file go (the program's statements, waiting for them, the recording's lines). */
  readonly routing: BreakpointRouting;
  /** The values each thread's frames see at the cursor. */
  readonly values = new FrameValues(this);
  private readonly openedBy: OpenRules | null;
  /** While the values of a deferred enrichment are coming (awaitValues): settles once they are taken. */
  private arrival: Promise<ValuesArrived | null> | null = null;
  /** The recording's warnings told so far (those since are told when statements or values arrive). */
  private warningsTold: number | null = null;
  /** While the statements of a deferred enrichment are coming apart from its values (awaitStatements). */
  private statementsArrival: Promise<ValuesArrived | null> | null = null;
  /** A restart replaced this runtime (its breakpoints carried over): values coming later change nothing here. */
  private replaced = false;
  private current = -1;
  /** At a statement: its seq in the total order of statement events (null: at the record itself). */
  private atSeq: number | null = null;
  private index: ThreadIndex | null = null;
  private pauseRequested = false;
  private busy = false;
  lastStop: Stop;

  constructor(readonly recording: Recording, events: RuntimeEvents, origin: RuntimeOrigin = {}) {
    this.breakpoints = new BreakpointTable(recording, () => this.threads, () => recording.faults(), (t, r) => events.log(t, r));
    this.sourceBreakpoints = new SourceBreakpoints(recording, (text, seq) => events.log(text, this.recordOfSeq(seq)), () => this.breakpoints.dataBreakpoints, () => this.breakpoints.ids);
    const previous = origin.previous;
    this.routing = new BreakpointRouting(recording, this.breakpoints, this.sourceBreakpoints, previous?.routing);
    this.lastStop = { reason: 'entry', thread: this.firstThread(), description: 'Start of the recording', breakpointIds: [] };
    const o = origin.openedBy;
    this.openedBy = o ? { recording: o.recording, program: o.program, noToolchain: o.noToolchain } : null;
    if (previous) {
      this.breakpoints.carryOver(previous.breakpoints);
      previous.replaced = true;
    }
  }

  /** Whether a restart with `launch` reads the recording anew: it names another recording, program or use of the toolchain than what opened this one. */
  needsReopen(launch: OpenRules): boolean {
    const o = this.openedBy;
    return !o || launch.recording !== o.recording || launch.program !== o.program || launch.noToolchain !== o.noToolchain;
  }

  get timeline() {
    return this.recording.timeline;
  }

  /** The current record (-1: the start; recordCount: the end, after the last record). */
  get record(): number {
    return this.current;
  }

  get atEnd(): boolean {
    return this.current >= this.timeline.recordCount;
  }

  /**
   * At the very start: no record and no statement has happened. At source level a goroutine's
   * statements before the first op (a collector's first lines, main's `make` and `go`) come after
   * it, so standing at one of them is no start: there is something to go back to.
   */
  get atBeginning(): boolean {
    return this.current < 0 && this.passedStatements() === 0;
  }

  /** Steps completed at the current record. */
  get position(): number {
    return this.positionAt(this.current);
  }

  get running(): boolean {
    return this.busy;
  }

  get threads(): ThreadIndex {
    this.index ??= new ThreadIndex(this.timeline);
    return this.index;
  }

  /** The thread the start stands on: the one that runs first (at source level its first statement, else the first record). */
  private firstThread(): number {
    const s = this.statements;
    if (s && s.eventCount > 0) return s.eventAt(0).thread;
    return this.timeline.recordCount > 0 ? this.timeline.thread[0] : 0;
  }

  /** Cursor position of a record state m. */
  positionAt(m: number): number {
    const tl = this.timeline;
    return m < 0 ? 0 : m >= tl.recordCount ? tl.stepCount : tl.positionOf(m);
  }

  /** The record state for a cursor position: every record done at p has happened. */
  recordForPosition(p: number): number {
    const tl = this.timeline;
    const q = Math.max(0, Math.min(tl.stepCount, Math.trunc(p)));
    return tl.frontier(q) - 1;
  }

  /** Thread t's latest record that has happened, or -1 when it has not started. */
  currentRecordOf(t: number): number {
    return this.current < 0 ? -1 : this.threads.lastRecordAtOrBefore(t, Math.min(this.current, this.timeline.recordCount - 1));
  }

  private setState(m: number, atSeq: number | null = null): void {
    this.current = m;
    this.atSeq = atSeq;
  }

  // ----- source level -----

  /** The statements of the recording, once they are known (null: stepping is by record). */
  get statements(): SourceStatements | null {
    return readyStatements(this.recording);
  }

  /** How many statement events have run at the current state. */
  passedStatements(): number {
    const s = this.statements;
    if (!s) return 0;
    if (this.atSeq !== null) return this.atSeq + 1;
    return this.passedAt(this.current);
  }

  /** Statement events run at record state m (events placed at its position come after it). */
  private passedAt(m: number): number {
    const s = this.statements;
    if (!s || m < 0) return 0;
    if (m >= this.timeline.recordCount) return s.eventCount;
    return s.seqAtPosition(this.positionAt(m));
  }

  /** Where the cursor is in the order of statements: at one (its seq), or between two (x.5); null without statements. */
  statementCursor(): number | null {
    return this.statements ? this.atSeq ?? this.passedStatements() - 0.5 : null;
  }

  /** Thread t's current statement event at the cursor (-1: it has run none yet). */
  statementOf(t: number): number {
    const s = this.statements;
    if (!s || s.eventsOf(t) === 0) return -1;
    return s.currentEvent(t, this.passedStatements() - 1);
  }

  /** The record state a statement event stands at: the last record done before it. */
  private recordOfSeq(seq: number): number {
    const s = this.statements!;
    const { thread, event } = s.eventAt(seq);
    return s.recordBefore(thread, event);
  }

  /** The seq of the statement that panicked (the panicking goroutine's last), or null. */
  private panicSeq(): number | null {
    const s = this.statements;
    const p = this.recording.panic;
    if (!s || !p) return null;
    const e = s.lastEvent(p.thread);
    return e < 0 ? null : s.seqOf(p.thread, e);
  }

  /** While the values of a deferred enrichment are coming: settles once the runtime has taken them (null: none are coming). */
  get valuesPending(): Promise<unknown> | null {
    return this.arrival;
  }

  /** While the statements of a deferred enrichment are coming (its first stage at source level): settles once the runtime has taken them. */
  get statementsPending(): Promise<unknown> | null {
    return this.statementsArrival;
  }

  /** Whether a move reads variable values (a breakpoint's condition or log message, a data breakpoint): it then waits for them. */
  get movesReadValues(): boolean {
    return this.breakpoints.readsValues || this.sourceBreakpoints.readsValues;
  }

  /**
   * Takes the statements of a deferred enrichment when they come, before its values (a source-level
   * launch's first stage): the program's breakpoints set meanwhile are bound, a panic stop moves
   * onto the statement that panicked. Resolves with what changed (null: a restart replaced this
   * runtime first); null when no statements come apart from the values. Called once, before awaitValues.
   */
  awaitStatements(): Promise<ValuesArrived | null> | null {
    const pending = this.recording.statementsPending;
    if (!pending) return null;
    this.statementsArrival = this.arrived(pending, () => (this.statementsArrival = null), true);
    return this.statementsArrival;
  }

  /**
   * Takes the values of a deferred enrichment when they come (Replay to Panic stops before machin
   * has printed them): the program's breakpoints set meanwhile are bound, a panic stop moves onto
   * the statement that panicked. Resolves with what changed (null: a restart replaced this runtime
   * first); null when no values are coming. The front end that shows them calls it once.
   */
  awaitValues(): Promise<ValuesArrived | null> | null {
    const pending = this.recording.valuesPending;
    if (!pending) return null;
    // (when the statements come apart, their arrival says whether they came)
    this.arrival = this.arrived(pending, () => (this.arrival = null), !this.recording.statementsPending);
    return this.arrival;
  }

  /**
   * Once `pending` settles (`done` called first): what changed (the warnings since this call,
   * breakpoints bound, a panic stop moved, and when `saysStatements`, why no statements came).
   */
  private arrived(pending: Promise<void>, done: () => void, saysStatements: boolean): Promise<ValuesArrived | null> {
    const rec = this.recording;
    this.warningsTold ??= rec.warnings.length;
    return pending.then(() => {
      done();
      if (this.replaced) return null;
      const warnings = rec.warnings.slice(this.warningsTold!);
      this.warningsTold = rec.warnings.length;
      // (nothing left to bind or move when the statements came in an earlier stage)
      const bound = this.routing.bindWaiting();
      // The statements came: a panic stop moves onto the statement that panicked.
      const moved = this.placeOnPanicStatement();
      const status = rec.sourceLevel;
      const noStatements = saysStatements && status?.state === 'unavailable' && status.reason ? status.reason : null;
      return { warnings, bound, moved, noStatements };
    });
  }

  /** Once the statements have come (Replay to Panic stops before them): a panic stop moves onto the statement that panicked. */
  private placeOnPanicStatement(): boolean {
    const q = this.panicSeq();
    if (q === null || this.lastStop.exception !== 'panic' || this.atSeq !== null) return false;
    this.setState(this.recordOfSeq(q), q);
    return true;
  }

  /**
   * Where thread t waits at the cursor, when it is past its last statement event and the run ends
   * with it waiting in an op that never completed (`<-done` after `go worker(...)`): what it ran
   * between that event and the op touches nothing another goroutine sees, so the frames show it
   * there. Not the goroutine that panicked (it stands on its panic). Null otherwise.
   */
  blockedIn(t: number): ReturnType<SourceStatements['blockedIn']> {
    const s = this.statements;
    const e = s ? this.statementOf(t) : -1;
    const p = this.recording.panic;
    if (!s || e < 0 || e !== s.lastEvent(t) || (p !== null && p.thread === t)) return null;
    if ((this.statementCursor() ?? -1) <= s.seqOf(t, e)) return null;
    return s.blockedIn(t);
  }

  /** Go to statement event `seq` (a log point's hit, a link of a value's origin): no breakpoint is looked at. */
  gotoSeq(seq: number): Stop {
    const s = this.statements!;
    const { thread, event } = s.eventAt(seq);
    const loc = s.location(thread, event);
    return this.jump(this.recordOfSeq(seq), { reason: 'goto', thread, description: `Went to line ${loc.line} (${loc.function})` }, seq);
  }

  /** A step by statement in thread t, or null when t has no statements (the step is by record then). */
  private statementStep(t: number, kind: StepKind): Promise<Stop> | null {
    const s = this.statements;
    if (!s || s.eventsOf(t) === 0) return null;
    // Shown blocked in the statement after its last event: stepping back lands on that event.
    // (When its last event is that statement itself, machin printed it in this replay: step back from it.)
    const waiting = kind === 'backOver' || kind === 'backInto' ? this.blockedIn(t) : null;
    const here = waiting ? s.location(t, this.statementOf(t)) : null;
    const blocked = waiting !== null && !(here!.line === waiting.location.line && here!.column === waiting.location.column);
    const target = blocked ? this.statementOf(t) : s.stepTarget(t, this.statementOf(t), kind);
    const back = kind.startsWith('back');
    if (target < 0) {
      // Step Into past a goroutine's last statement goes on to the next statement of any
      // goroutine (as a step by record goes to the next record of any thread), not to the end.
      const q = kind === 'into' || kind === 'backInto' ? this.adjacentStatement(back) : null;
      if (q !== null) {
        const { thread, event } = s.eventAt(q);
        const loc = s.location(thread, event);
        return this.move(this.recordOfSeq(q), { reason: 'step', thread, description: `${back ? 'Step back into' : 'Step into'}: line ${loc.line} (${loc.function}), ${this.threadName(thread)} (${this.threadName(t)} runs no ${back ? 'earlier' : 'more'} statements)` }, q);
      }
      return back ? this.runToStart() : this.runToEnd(`${this.threadName(t)} runs no more statements`);
    }
    const seq = s.seqOf(t, target);
    const loc = s.location(t, target);
    const words: Record<StepKind, string> = { over: 'Step', into: 'Step into', out: 'Step out', backOver: 'Step back', backInto: 'Step back into', backOut: 'Step back out' };
    return this.move(this.recordOfSeq(seq), { reason: 'step', thread: t, description: `${words[kind]}: line ${loc.line} (${loc.function})` }, seq);
  }

  /** The seq of the next (back: previous) statement event of any thread from the cursor, entries passed over as Step Into does; null at either end. */
  private adjacentStatement(back: boolean): number | null {
    const s = this.statements!;
    const here = this.atSeq ?? this.passedStatements() - 0.5;
    for (let q = back ? Math.ceil(here) - 1 : Math.floor(here) + 1; q >= 0 && q < s.eventCount; q += back ? -1 : 1) {
      const { thread, event } = s.eventAt(q);
      if (s.location(thread, event).kind !== 'entry') return q;
    }
    return null;
  }

  /** Run Back to (or Run to) a line of the program: the previous (next) arrival there, breakpoints on the way stop it. */
  private towardProgramLine(line: number, back: boolean): Promise<Stop> {
    const s = this.statements;
    if (!s) throw new RuntimeRefusal(1074, 'The statements of the program are not known (machin has not replayed it against its instrumented copy): use a line of the recording.');
    const hits = s.lineHits(line);
    const cursor = this.atSeq ?? this.passedStatements() - 0.5;
    // Back: the last arrival before the cursor; forward: the first after it.
    const q = back ? hits[lowerBound(0, hits.length, (k) => hits[k] < cursor) - 1] : hits[lowerBound(0, hits.length, (k) => hits[k] <= cursor)];
    if (q === undefined) throw new RuntimeRefusal(back ? 1071 : 1072, `The run ${back ? 'never was' : 'never is'} on line ${line} ${back ? 'before' : 'after'} this point.`);
    this.ready();
    const { thread, event } = s.eventAt(q);
    const loc = s.location(thread, event);
    return this.move(this.recordOfSeq(q), { reason: 'step', thread, description: `${back ? 'Ran back' : 'Ran'} to line ${loc.line} (${loc.function})` }, q);
  }

  /** Move with no breakpoint checks (goto, replay to panic, restart). */
  jump(m: number, stop: Omit<Stop, 'breakpointIds'> & { breakpointIds?: number[] }, atSeq: number | null = null): Stop {
    this.setState(Math.max(-1, Math.min(this.timeline.recordCount, m)), atSeq);
    this.lastStop = { breakpointIds: [], ...stop };
    return this.lastStop;
  }

  pause(): void {
    if (this.busy) this.pauseRequested = true;
  }

  /** Refuses a move while another runs. */
  ready(): this {
    if (this.busy) throw new RuntimeRefusal(1040, 'The replay is already moving: pause it first.');
    return this;
  }

  /** Checks a thread index given by a client (as DAP id - 1). */
  checkThread(t: number): number {
    const n = this.timeline.threads.length;
    if (!(Number.isInteger(t) && t >= 0 && t < n)) throw new RuntimeRefusal(1041, `No thread ${t + 1}: threads are 1..${n}.`);
    return t;
  }

  // ----- rules: where to start, where a request points -----

  /** The record state `startRecord` / `startPosition` name (undefined: neither), or a refusal saying what is wrong. */
  startRecordOf(rules: StartRules): number | undefined {
    const tl = this.timeline;
    if (rules.startRecord !== undefined) {
      if (rules.startRecord >= tl.recordCount) {
        throw new RuntimeRefusal(1004, `\`startRecord\` ${rules.startRecord} is not a record of ${basename(tl.file)}: it has records 0..${tl.recordCount - 1} (-1 is the start).`);
      }
      return rules.startRecord;
    }
    if (rules.startPosition !== undefined) {
      if (rules.startPosition > tl.stepCount) {
        throw new RuntimeRefusal(1004, `\`startPosition\` ${rules.startPosition} is past the end of ${basename(tl.file)}: it has ${tl.stepCount} ${this.unitWord(2)} (positions 0..${tl.stepCount}).`);
      }
      return this.recordForPosition(rules.startPosition);
    }
    return undefined;
  }

  /**
   * Start (or start again): at the start record or position, at the panic (replayToPanic; the end
   * when there is none), stopped on entry, or running forward to the first breakpoint.
   */
  start(rules: StartRules): Started {
    const tl = this.timeline;
    const start = this.startRecordOf(rules);
    this.ready();
    this.jump(-1, { reason: 'entry', thread: this.firstThread(), description: 'Start of the recording' });
    if (start !== undefined) {
      const where = start < 0 ? 'the start of the recording' : `${this.unitWord(1)} ${this.positionAt(start)}, line ${tl.lineOf(start)}`;
      return { stop: Promise.resolve(this.jump(start, { reason: 'entry', thread: start < 0 ? this.lastStop.thread : tl.thread[start], description: `Started at ${where}` })) };
    }
    if (rules.replayToPanic) {
      if (this.recording.panic) return { stop: Promise.resolve(this.toPanic()) };
      const stop = this.toEnd();
      return { stop: Promise.resolve(stop), note: stop.text };
    }
    if (rules.stopOnEntry || tl.recordCount === 0) return { stop: Promise.resolve(this.lastStop) };
    return { stop: this.continueForward() };
  }

  /** The record a request names: { record } (-1 the start), { line } (1-based, of the recording's document) or { position } (steps done). */
  targetOf(a: TargetArguments, toward: RunToward): number {
    const tl = this.timeline;
    if (typeof a.record === 'number') {
      // The end state (recordCount) is a place to go to, not a record to run to.
      const last = toward === 'goto' ? tl.recordCount : tl.recordCount - 1;
      if (!Number.isInteger(a.record) || a.record < -1 || a.record > last) {
        throw new RuntimeRefusal(1070, `Record ${a.record} is outside the recording: records are -1 (the start) to ${tl.recordCount - 1}${toward === 'goto' ? ` and ${tl.recordCount} (the end)` : ''}.`);
      }
      return a.record;
    }
    if (typeof a.line === 'number') {
      const r = tl.recordAtLine(a.line);
      if (r < 0) throw new RuntimeRefusal(1070, `Line ${a.line} holds no record.`);
      return r;
    }
    if (typeof a.position === 'number') {
      if (!Number.isInteger(a.position) || a.position < 0 || a.position > tl.stepCount) {
        const where = a.position > tl.stepCount ? 'past the end' : 'outside the recording';
        throw new RuntimeRefusal(1070, `Position ${a.position} is ${where}: the run has ${tl.stepCount} ${this.unitWord(2)}, so positions are 0 to ${tl.stepCount}.`);
      }
      return this.recordForPosition(a.position);
    }
    throw new RuntimeRefusal(1073, NEEDS_TARGET[toward]);
  }

  /**
   * Run to Cursor goes forward, Run Back to Cursor back, Go To anywhere (without breakpoints). A
   * line of the program (`path` names its `.mfl` file: the editor's cursor there) is run to at its
   * next (back: previous) arrival.
   */
  toward(toward: RunToward, a: TargetArguments): Promise<Stop> {
    if (toward !== 'goto' && a.line !== undefined && a.path !== undefined && this.sourceBreakpoints.isProgram(a.path)) return this.towardProgramLine(a.line, toward === 'runBackTo');
    // (A session without statements, `sourceLevel: false`, goes to the position given beside it.)
    if (toward === 'goto' && a.statement && (this.statements || a.position === undefined)) return Promise.resolve(this.ready().gotoStatement(a.statement));
    const target = this.targetOf(a, toward);
    this.ready();
    if (toward === 'goto') return Promise.resolve(this.goto({ record: target }));
    if (toward === 'runBackTo' && target >= this.current) {
      throw new RuntimeRefusal(1071, `Run Back to Cursor: that record is not before the current one (line ${this.current >= 0 ? this.timeline.lineOf(Math.min(this.current, this.timeline.recordCount - 1)) : 'start'}); use Run to Cursor.`);
    }
    if (toward === 'runTo' && target <= this.current) throw new RuntimeRefusal(1072, 'Run to Cursor: that record is not after the current one; use Run Back to Cursor.');
    const where = target >= 0 ? `line ${this.timeline.lineOf(target)}` : 'the start';
    return this.runTo(target, toward === 'runBackTo' ? `Ran back to ${where}` : `Ran to ${where}`);
  }

  /** Go to a statement a goroutine ran (a variable history's row: just after the store), no breakpoint looked at. */
  gotoStatement(target: StatementTarget): Stop {
    const s = this.statements;
    if (!s) throw new RuntimeRefusal(1074, 'The statements of the program are not known (machin has not replayed it against its instrumented copy): go to a position or a record.');
    const t = this.timeline.threadIndex(String(target.thread));
    const n = t < 0 ? 0 : s.eventsOf(t);
    if (!Number.isInteger(target.event) || target.event < -1 || target.event >= n) {
      throw new RuntimeRefusal(1070, t < 0 ? `No goroutine ${target.thread} in this recording.` : `Goroutine ${target.thread} ran statements 0..${n - 1}; there is no statement ${target.event}.`);
    }
    // Just after it: on the goroutine's next statement (its last one has none: at it).
    const e = Math.max(0, target.after && target.event + 1 < n ? target.event + 1 : target.event);
    const q = s.seqOf(t, e);
    const loc = s.location(t, Math.max(0, target.event));
    const where = `${basename(loc.file)}:${loc.line}:${loc.column} (${loc.function})`;
    return this.jump(this.recordOfSeq(q), { reason: 'goto', thread: t, description: target.after ? `Went to just after ${where}` : `Went to ${where}` }, q);
  }

  /** The record a goto target on a 1-based document line is (-1: none). */
  recordAtLine(line: number): number {
    return this.timeline.recordAtLine(line);
  }

  /** Mark where a replay against another build diverged (`{ effect, message }`, effect null: clear it). */
  markDivergence(a: Record<string, unknown>): DivergenceBody {
    const d = replayDivergence(this.recording, a);
    if (typeof d === 'string') throw new RuntimeRefusal(1090, d);
    this.breakpoints.setDivergence(d);
    return divergenceBody(this.recording, this.breakpoints.currentDivergence);
  }

  /** A pause while nothing runs reports where the cursor already is. */
  pausedHere(): Stop {
    return { ...this.lastStop, reason: 'pause', description: 'Paused', breakpointIds: [] };
  }

  /** `op`/`ops` or `effect`/`effects`. */
  private unitWord(count: number): string {
    const units = this.timeline.units;
    return count === 1 ? units.step : units.steps;
  }

  // ----- the moves every client translates (the DAP session, the MCP server, the CLI) -----

  /**
   * `count` steps of `kind` (by statement at source level, else by record): the first on thread
   * `thread`, each next one on the thread the last stopped on, as a client stepping again from
   * each stop does. Ends early at a stop that is no step's own end (a breakpoint, the panic, either
   * end of the recording, a pause). A forward step from where nothing was recorded ahead is
   * refused with why (checked before anything moves, so the refusal is synchronous).
   */
  step(kind: StepKind, count = 1, thread = this.lastStop.thread): Promise<Stop> {
    if (!Number.isInteger(count) || count < 1) throw new RuntimeRefusal(1043, `A step count is a whole number from 1 (got ${count}).`);
    this.checkThread(thread);
    this.ready();
    const forward = !kind.startsWith('back');
    const why = forward ? nothingAhead(this) : undefined;
    if (why) throw new RuntimeRefusal(1042, why);
    return this.repeatStep(kind, count, thread, forward);
  }

  private async repeatStep(kind: StepKind, count: number, thread: number, forward: boolean): Promise<Stop> {
    let stop = await this.stepOnce(kind, thread);
    for (let i = 1; i < count && stop.reason === 'step' && !(forward && nothingAhead(this)); i++) stop = await this.stepOnce(kind, stop.thread);
    return stop;
  }

  private stepOnce(kind: StepKind, t: number): Promise<Stop> {
    switch (kind) {
      case 'into': return this.stepIn(t);
      case 'backInto': return this.stepBackIn(t);
      case 'over': return this.next(t);
      case 'backOver': return this.stepBack(t);
      case 'out': return this.stepOut(t);
      case 'backOut': return this.stepBackOut(t);
    }
  }

  /** Continue (forward) or Reverse Continue (back): to the first breakpoint met, else an end. Forward from where nothing is ahead is refused with why. */
  run(forward: boolean): Promise<Stop> {
    this.ready();
    const why = forward ? nothingAhead(this) : undefined;
    if (why) throw new RuntimeRefusal(1042, why);
    return forward ? this.continueForward() : this.reverseContinue();
  }

  /** To the panic, with no breakpoint looked at: on the statement that panicked when the statements are known, else after its goroutine's last op. */
  toPanic(): Stop {
    const p = this.recording.panic;
    if (!p) throw new RuntimeRefusal(1075, `${basename(this.timeline.file)}: no panic is known for this recording (${this.noPanicWhy()}).`);
    this.ready();
    const q = this.panicSeq();
    const m = q === null ? this.recordForPosition(p.position) : this.recordOfSeq(q);
    return this.jump(m, { reason: 'exception', thread: p.thread, exception: 'panic', description: `Panic: ${p.message}`, text: p.message }, q);
  }

  private noPanicWhy(): string {
    const rec = this.recording;
    if (rec.timeline.traits.endRecorded || rec.verify) return 'the run did not panic';
    if (rec.histories) return 'machin gave no --json / --verify answer';
    return 'machin did not run: trace only';
  }

  /** To the start of the recording (nothing has happened), with no breakpoint looked at. */
  toStart(): Stop {
    this.ready();
    return this.jump(-1, { reason: 'start', thread: this.firstThread(), description: 'Start of the recording' });
  }

  /** To the end of the recording (after everything), with no breakpoint looked at. */
  toEnd(): Stop {
    this.ready();
    return this.jump(this.timeline.recordCount, this.endStop());
  }

  /**
   * Go to a place the client names ({ record } -1..recordCount, { line } of the recording, or
   * { position } 0..steps), with no breakpoint looked at: the record state, not a statement.
   */
  goto(a: TargetArguments): Stop {
    const m = this.targetOf(a, 'goto');
    const tl = this.timeline;
    // Either end is the same stop however it is reached.
    if (m < 0) return this.toStart();
    if (m >= tl.recordCount) return this.toEnd();
    this.ready();
    return this.jump(m, { reason: 'goto', thread: tl.thread[m], description: `Went to line ${tl.lineOf(m)} (${this.unitWord(1)} ${this.positionAt(m)})` });
  }

  // ----- moves -----

  stepIn(t = this.lastStop.thread): Promise<Stop> {
    const bySource = this.statementStep(t, 'into');
    if (bySource) return bySource;
    const n = this.timeline.recordCount;
    if (this.current >= n) return Promise.resolve(this.stayAtEnd());
    if (this.current === n - 1) return this.runToEnd();
    const target = this.current + 1;
    return this.move(target, { reason: 'step', thread: this.timeline.thread[target], description: 'Step' });
  }

  stepBackIn(t = this.lastStop.thread): Promise<Stop> {
    const bySource = this.statementStep(t, 'backInto');
    if (bySource) return bySource;
    if (this.current < 0) return Promise.resolve(this.atStart());
    const n = this.timeline.recordCount;
    // From the end the last record is already done at the same op: step back over it.
    const target = this.current >= n ? n - 2 : this.current - 1;
    return this.move(target, { reason: target < 0 ? 'start' : 'step', thread: this.timeline.thread[Math.max(0, target)], description: target < 0 ? 'Start of the recording' : 'Step back' });
  }

  next(t: number): Promise<Stop> {
    const bySource = this.statementStep(t, 'over');
    if (bySource) return bySource;
    const idx = this.threads;
    const c = idx.lastIndexAtOrBefore(t, this.current);
    const from = c < 0 ? idx.start[t] : c + 1;
    if (from >= idx.start[t + 1]) return this.runToEnd(`${this.threadName(t)} has no more records`);
    return this.move(idx.records[from], { reason: 'step', thread: t, description: 'Step' });
  }

  stepBack(t: number): Promise<Stop> {
    const bySource = this.statementStep(t, 'backOver');
    if (bySource) return bySource;
    const idx = this.threads;
    const c = idx.lastIndexAtOrBefore(t, this.current);
    if (c < 0) return this.runToStart();
    // From the end (after everything) the thread's last record is the one to step back onto,
    // unless it is done at the end's own op: then, as from that record, to the one before it.
    if (this.atEnd && this.positionAt(idx.records[c]) < this.timeline.stepCount) {
      return this.move(idx.records[c], { reason: 'step', thread: t, description: 'Step back' });
    }
    const target = c > idx.start[t] ? idx.records[c - 1] : idx.records[c] - 1;
    return this.move(target, { reason: target < 0 ? 'start' : 'step', thread: t, description: target < 0 ? 'Start of the recording' : 'Step back' });
  }

  stepOut(t: number): Promise<Stop> {
    const bySource = this.statementStep(t, 'out');
    if (bySource) return bySource;
    const idx = this.threads;
    if (idx.countOf(t) === 0) return this.runToEnd(`${this.threadName(t)} has no records`);
    const last = idx.records[idx.start[t + 1] - 1];
    if (last <= this.current) return this.runToEnd(`${this.threadName(t)} has no more records`);
    return this.move(last, { reason: 'step', thread: t, description: `Last record of ${this.threadName(t)}` });
  }

  stepBackOut(t: number): Promise<Stop> {
    const bySource = this.statementStep(t, 'backOut');
    if (bySource) return bySource;
    const idx = this.threads;
    if (idx.countOf(t) === 0) return this.runToStart();
    const first = idx.records[idx.start[t]];
    if (first >= this.current) return this.runToStart();
    return this.move(first, { reason: 'step', thread: t, description: `First record of ${this.threadName(t)}` });
  }

  continueForward(): Promise<Stop> {
    return this.runToEnd();
  }

  reverseContinue(): Promise<Stop> {
    return this.runToStart();
  }

  /** Run (forward or back) to record state m, stopping at breakpoints on the way. */
  runTo(m: number, description: string): Promise<Stop> {
    const n = this.timeline.recordCount;
    const target = Math.max(-1, Math.min(n - 1, m));
    return this.move(target, { reason: 'step', thread: this.timeline.thread[Math.max(0, target)], description });
  }

  private runToEnd(why?: string): Promise<Stop> {
    return this.move(this.timeline.recordCount, this.endStop(why));
  }

  private runToStart(): Promise<Stop> {
    return this.move(-1, { reason: 'start', thread: this.firstThread(), description: 'Start of the recording' });
  }

  private stayAtEnd(): Stop {
    this.lastStop = { ...this.endStop(), breakpointIds: [] };
    return this.lastStop;
  }

  private atStart(): Stop {
    this.lastStop = { reason: 'start', thread: this.firstThread(), description: 'Start of the recording', breakpointIds: [] };
    return this.lastStop;
  }

  endStop(why?: string): Omit<Stop, 'breakpointIds'> {
    const rec = this.recording;
    const tl = this.timeline;
    const thread = rec.panic ? rec.panic.thread : tl.recordCount > 0 ? tl.thread[tl.recordCount - 1] : 0;
    const total = `${tl.stepCount} ${this.unitWord(2)}`;
    let text: string;
    if (rec.panic) text = `End of the recording (${total}); the run panicked after ${rec.panic.position} ${tl.units.steps}: ${rec.panic.message}`;
    else if (tl.traits.endRecorded || rec.verify) text = `End of the recording (${total}): the run did not panic`;
    else if (rec.histories) text = `End of the recording (${total}): no panic is known (machin gave no --json / --verify answer)`;
    else text = `End of the recording (${total}): no panic is known (machin did not run: trace only)`;
    return { reason: 'end', thread, description: why ? `${why}: end of the recording` : 'End of the recording', text };
  }

  private threadName(t: number): string {
    const tl = this.timeline;
    return `${tl.units.thread} ${tl.nameOf(t)}`;
  }

  /**
   * Move to record state `target` (at statement `atSeq` of it, when given), passing over the
   * records and the statements in between and stopping at the first breakpoint met. The loop
   * reads typed arrays only; candidates go to the breakpoint tables.
   */
  private async move(target: number, otherwise: Omit<Stop, 'breakpointIds'>, atSeq: number | null = null): Promise<Stop> {
    if (this.busy) throw new Error('the replay is already moving; pause it first');
    this.busy = true;
    this.pauseRequested = false;
    try {
      const n = this.timeline.recordCount;
      // Where the cursor is in the order of statements: at one, or between two (x.5).
      const here = this.atSeq ?? this.passedStatements() - 0.5;
      const forward = target !== this.current ? target > this.current : atSeq !== null ? atSeq > here : false;
      // Forward over (current, target], backward over [target, current): the end state n is no
      // record. At a statement the cursor is past its record, so going back meets that record; a
      // statement target comes after its own record, so going back does not.
      const from = forward ? this.current + 1 : Math.min(this.current + (this.atSeq !== null ? 1 : 0), n) - 1;
      const last = forward ? Math.min(target, n - 1) : Math.max(target + (atSeq !== null ? 1 : 0), 0);
      let recordHit: { r: number; hit: BreakpointHit } | null = null;
      // At source level the panic's place is the statement that panicked, not its record.
      const panicQ = this.panicSeq();
      const list = this.breakpoints.flagged();
      const perRecord = this.breakpoints.perRecord;
      if (perRecord && (forward ? from <= last : from >= last)) {
        // The flagged records of the range, nearest first: i walks up (forward) or down (backward).
        let i = firstAtOrAfter(list, forward ? from : from + 1) - (forward ? 0 : 1);
        let sliceEnd = performance.now() + SLICE_MS;
        while (forward ? i < list.length && list[i] <= last : i >= 0 && list[i] >= last) {
          const r = list[i];
          const hit = this.breakpoints.check(r, perRecord[r]);
          // The panic is met at its statement below, not at its record.
          const statementPanic = hit?.exception === 'panic' && panicQ !== null;
          if (hit && !statementPanic) {
            recordHit = { r, hit };
            break;
          }
          i += forward ? 1 : -1;
          if (performance.now() >= sliceEnd) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceEnd = performance.now() + SLICE_MS;
            if (this.pauseRequested) {
              this.setState(r);
              this.lastStop = { reason: 'pause', thread: this.timeline.thread[r], description: 'Paused', breakpointIds: [] };
              return this.lastStop;
            }
          }
        }
      }
      const to = atSeq ?? this.passedAt(target) - (forward ? 1 : 0);
      let statementHit = this.statementHit(here, forward, to);
      // The panic, at source level, is met at the statement that panicked.
      const panicStop = this.breakpoints.stopsOnPanic ? this.breakpoints.panicStop() : null;
      if (panicQ !== null && panicStop && (forward ? panicQ > here && panicQ <= to : panicQ < here && panicQ >= to)) {
        if (!statementHit || (forward ? panicQ <= statementHit.seq : panicQ >= statementHit.seq)) statementHit = { seq: panicQ, reason: panicStop.reason, breakpointIds: [], description: panicStop.description, stop: panicStop };
      }
      // Which comes first this way: a record sits between the events run before it and those after.
      const recordKey = recordHit ? this.passedAt(recordHit.r) - 0.5 : NaN;
      if (statementHit && (!recordHit || (forward ? statementHit.seq < recordKey : statementHit.seq > recordKey))) {
        const q = statementHit.seq;
        this.setState(this.recordOfSeq(q), q);
        this.lastStop = statementHit.stop
          ? toStop(statementHit.stop)
          : { reason: statementHit.reason, thread: this.statements!.eventAt(q).thread, description: statementHit.description, breakpointIds: statementHit.breakpointIds };
        return this.lastStop;
      }
      if (recordHit) {
        // (A value a statement stored is met at that statement, above; one met at a record
        // arrived with the record's op, as a received value does.)
        this.setState(recordHit.r);
        this.lastStop = toStop(recordHit.hit);
        return this.lastStop;
      }
      this.setState(target, atSeq);
      this.lastStop = { breakpointIds: [], ...otherwise };
      return this.lastStop;
    } finally {
      this.busy = false;
      this.pauseRequested = false;
    }
  }

  /**
   * The first `.mfl` line breakpoint met moving from `here` (a seq, or x.5 between two) towards
   * seq `to` (included), or null. Moving back, the cursor's own statement is not met again.
   */
  private statementHit(here: number, forward: boolean, to: number): StatementHit | null {
    if (!this.statements || !this.sourceBreakpoints.any) return null;
    const from = forward ? Math.floor(here) + 1 : Math.ceil(here) - 1;
    return this.sourceBreakpoints.first(from, to, forward);
  }

}

/** Index of the first entry >= r in an ascending list (list.length when none). */
function firstAtOrAfter(list: Uint32Array, r: number): number {
  return lowerBound(0, list.length, (i) => list[i] < r);
}

function toStop(hit: BreakpointHit): Stop {
  return { reason: hit.reason, thread: hit.thread, description: hit.description, text: hit.text, breakpointIds: hit.breakpointIds, exception: hit.exception };
}

