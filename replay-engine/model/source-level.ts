// Source-level facts of a recording (docs/source-level.md): every statement each thread executed,
// with its call stack, placed among the timeline's steps. For machin traces these come from the
// replay against an instrumented copy of the program (replay-engine/machin/source/). The debug
// adapter translates them to DAP; nothing here knows DAP.
//
// Vocabulary (besides the timeline's record, step and position):
// - event (t, i): the i-th statement thread t executed, 0-based, in the order it executed them.
// - seq: an event's place in the one total order of all threads' events, 0..eventCount-1. It is
//   the same in every replay: events are ordered by the position they are placed at (right after
//   their thread's last completed own step, the rule of docs/value-positions.md), then by thread
//   (parents before the goroutines they start: the threads' listing order), then by their own order. Events placed at position p come after step p-1 and before
//   step p.

export type StatementKind = 'entry' | 'statement' | 'return' | 'exit';

export interface StatementRef {
  thread: number;
  event: number;
}

/** Where a statement is; lines and columns 1-based, `end` just past its text. */
export interface StatementLocation {
  /** Absolute path of the program source. */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** `entry`: a function's start (`func ... {`); `exit`: its closing `}`; `statement`, `return`. */
  kind: StatementKind;
  /** The function it is in (`worker`, `main.func1` for a function literal). */
  function: string;
  /** The schedule op it waits its turn for, when it does one (a `select`: the case it took is an I/O record after its op). */
  op?: 'receive' | 'send' | 'select' | 'print';
}

/**
 * One stack frame: the function and the statement it is at. The innermost frame's statement is
 * the event asked about; a caller's is the statement that made the call.
 */
export interface SourceFrame extends StatementLocation {
  /** The event of the thread that statement is. */
  event: number;
}

/**
 * Stepping by statement in one thread. over: the next statement in the same frame or a caller
 * (never inside a call it makes); into: the next statement; out: the next statement in a caller.
 * The back* kinds mirror them towards the start.
 */
export type StepKind = 'over' | 'into' | 'out' | 'backOver' | 'backInto' | 'backOut';

export interface SourceStatements {
  /** The program the statements are in. */
  readonly file: string;
  /** Events of all threads. */
  readonly eventCount: number;
  /** Events of thread t (0 for a thread that ran no statement). */
  eventsOf(thread: number): number;
  /**
   * Whether event i of thread t surely ran: it happens before the run's end, so machin prints it in
   * every replay of the trace. The others (a tail of each thread's events) are this replay's only,
   * shown marked; the index, positions and values of the sure ones are the same on every launch.
   */
  isSure(thread: number, event: number): boolean;
  /** How many of thread t's first events surely ran. */
  sureEventsOf(thread: number): number;
  /** Events of this replay only, over all threads. */
  readonly unsure: number;
  location(thread: number, event: number): StatementLocation;
  /** The call stack at event i, innermost first (recursion: one frame per active call). */
  stack(thread: number, event: number): SourceFrame[];
  /** Frames below the innermost at event i (0 for the thread's first function). */
  depth(thread: number, event: number): number;

  /** The event's place in the total order. */
  seqOf(thread: number, event: number): number;
  eventAt(seq: number): StatementRef;
  /** Thread t's last event at or before seq (-1: none yet). */
  currentEvent(thread: number, seq: number): number;
  /** The timeline position an event is placed at (steps completed before it, as the rule counts them). */
  positionOf(thread: number, event: number): number;
  /** Events done when the cursor arrives at position p (the seq of the first event placed at p or later). */
  seqAtPosition(position: number): number;
  /** Thread t's statement when the cursor stands on record r (done), -1 at the start: the performer of a step is at the statement that did it. */
  currentEventAtRecord(thread: number, record: number): number;
  /** The last record done before the event ran (-1: none), for showing the trace alongside. */
  recordBefore(thread: number, event: number): number;

  /** The event a step of `kind` from event i of thread t lands on, -1 when there is none; from i = -1 (nothing run yet) forward kinds look from the first event. */
  stepTarget(thread: number, event: number, kind: StepKind): number;

  /** Lines of the program where a statement starts, ascending (a line breakpoint is verified there). */
  breakableLines(): number[];
  /**
   * Every arrival at `line` in the run, as seqs ascending: an event of a statement starting on the
   * line that is not a continuation of the same line in the same frame (a one-line loop body is
   * one hit per iteration, also in a one-line function where the loop begins mid-line; a statement
   * after a call returns on the same line is no new hit: machin/source/line-arrivals.ts). With a
   * `column` (an inline breakpoint): every run of the statement it names (`statementAt`).
   */
  lineHits(line: number, column?: number): Uint32Array;
  /** The statement a column of a line names: the last one starting at or before it, else the line's first; null when none starts on the line. */
  statementAt(line: number, column: number): { id: number; column: number } | null;
  /**
   * How often each line ran, per thread, counted as lineHits counts arrivals (one pass over all
   * events; one integer per line per thread, plus the few hits of this replay only).
   */
  lineHitCounts(): LineHitCounts;

  /** The statement that performed step k (a channel op, a select, a print), or null when not known. */
  performerOfStep(step: number): StatementRef | null;
  /** Thread t's last event (-1: none): for the thread that panicked, the statement that panicked. */
  lastEvent(thread: number): number;
  /**
   * Where thread t waits once past its last event, when the run ends with it waiting: it did no
   * op after that event (the trace has none), and that statement, or the next one in its block,
   * does an op (`<-done` after `go worker(...)`), which never completed. Null when it finished,
   * went on to an op, or the next statement is not known to do one.
   */
  blockedIn(thread: number): { location: StatementLocation; op: 'receive' | 'send' | 'select' | 'print' } | null;
  /**
   * The statement that stored a value machin printed after event i: i itself, or, when i ends a
   * call (a return, the end of a body), the caller's statement that made the call, as far up as
   * calls end (`d := depth(3)` stores what depth's innermost `return 0` was the last probe before).
   */
  storedBy(thread: number, event: number): number;
  /**
   * Whether what event `stored` of the thread stored (as storedBy says) is a value of the frame
   * event `at` is in: stored by the same call, or by a function literal (which may store what it
   * captured), or `name` is a global. A recursive call's locals of the same name are not the caller's.
   */
  sameFrame(thread: number, name: string, stored: number, at: number): boolean;
  /** The variables a function sees: its own, a function literal's enclosing ones, then the globals; null when not known. */
  localsOf(fn: string): readonly string[] | null;
  /**
   * Whose variable `name` is that event `stored` of the thread stored (as storedBy says; -1: before
   * the thread's first statement): the function that binds it (a function literal's store to a
   * captured name: the enclosing function that binds it), '' for a global, null when not known.
   * Two functions' variables of one name are two variables (`collector.base`, `place.base`).
   */
  ownerOf(thread: number, name: string, stored: number): string | null;
}

/** Every line's arrivals, per thread (SourceStatements.lineHitCounts). */
export interface LineHitCounts {
  /** The lines where a statement starts, ascending (breakableLines). */
  readonly lines: readonly number[];
  /** By thread: arrivals at each of `lines` (same index); empty for a thread with no statements. */
  readonly byThread: readonly Uint32Array[];
  /** By thread: of those, the arrivals of this replay only (index into `lines` to count); they are a tail of the thread's events. */
  readonly thisReplayOnly: ReadonlyArray<ReadonlyMap<number, number>>;
  /** By index into `lines`: the functions with a statement on that line (several for one-line functions). */
  readonly functions: ReadonlyArray<readonly string[]>;
  /** By index into `lines`: arrivals per function (only functions that arrived). */
  readonly byFunction: ReadonlyArray<ReadonlyMap<string, number>>;
}

/** Which variables each function binds: the program's, read from its source. */
export interface ProgramVariables {
  /** By function name (`worker`, `main.func1`): its parameters and every name it binds. */
  locals: ReadonlyMap<string, readonly string[]>;
  globals: ReadonlySet<string>;
}

export type SourceLevelStatus =
  | { state: 'pending' }
  | { state: 'ready' }
  /** Why stepping stays at record level, in one line for the user. */
  | { state: 'unavailable'; reason: string };
