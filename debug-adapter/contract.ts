// The contract between the Frozen Run debug adapter and whoever drives it (the extension, a test,
// another DAP client): the names of the custom requests and events and their typed bodies. Both
// sides import this module, so a name or a field cannot drift; facts the extension needs (thread
// labels, watched values at the cursor) travel here as data, never as display text to parse.
// Documented for other clients in docs/debug-adapter.md. No vscode and no DAP library imports.

/** Custom requests the adapter answers (`session.customRequest(REQUEST.goto, args)`). */
export const REQUEST = {
  stepBackIn: 'frozenRun/stepBackIn',
  stepBackOut: 'frozenRun/stepBackOut',
  runBackTo: 'frozenRun/runBackTo',
  runTo: 'frozenRun/runTo',
  goto: 'frozenRun/goto',
  timeline: 'frozenRun/timeline',
  divergence: 'frozenRun/divergence',
  setKey: 'frozenRun/setKey',
  /** Issue 30 (run-questions.ts): a log point's hits, paged; every line's hit counts; a value's origin; go to a statement event. */
  logPointHits: 'frozenRun/logPointHits',
  lineCounts: 'frozenRun/lineCounts',
  valueOrigin: 'frozenRun/valueOrigin',
  gotoStatement: 'frozenRun/gotoStatement',
} as const;

/** Custom events the adapter sends. */
export const EVENT = {
  cursor: 'frozenRun/cursor',
  threads: 'frozenRun/threads',
  causalChain: 'frozenRun/causalChain',
  toolchain: 'frozenRun/toolchain',
  divergence: 'frozenRun/divergence',
  /** A source-level launch's statement index is in (steps go by statement), before its values. */
  statements: 'frozenRun/statements',
} as const;

export type CustomRequest = (typeof REQUEST)[keyof typeof REQUEST];
export type CustomEvent = (typeof EVENT)[keyof typeof EVENT];

/** Where a goto / runTo / runBackTo goes: one of a 1-based line of the recording, a position (steps done) or a record (-1: the start). */
export interface TargetArguments {
  /** 1-based line: of the recording, or of the program when `path` names the program's `.mfl` file. */
  line?: number;
  /** The file `line` is in (the program's, for Run (Back) to Cursor in a `.mfl` editor); default the recording. */
  path?: string;
  position?: number;
  record?: number;
  /** Goto only: a statement the thread ran (source level), as the variable history names a store. */
  statement?: StatementTarget;
}

/** A statement event: the i-th statement (0-based) goroutine `thread` ran, as recording.statements counts them. */
export interface StatementTarget {
  /** The goroutine id ("0.2"). */
  thread: string;
  event: number;
  /** Stand just after it (on the goroutine's next statement: what it stored is in), rather than at it. */
  after?: boolean;
}

/** stepBackIn, stepBackOut: the thread (DAP id, 1-based; default the thread of the last stop). */
export interface ThreadArguments {
  threadId?: number;
}

export interface SetKeyArguments {
  /** 64 hex digits. Never logged by the adapter. */
  keyHex: string;
}

export interface SetKeyResponseBody {
  accepted: true;
  /** A capsule is open: it must be read again (a restart) for the key to count. */
  reopenNeeded: boolean;
}

/** divergence: the N of `divergence at effect N` from `tin replay --against`, or null to clear it. */
export interface DivergenceArguments {
  effect: number | null;
  message?: string;
}

export interface DivergenceInfo {
  record: number;
  line: number;
  position: number;
  source: 'verify' | 'replay';
  description: string;
  message: string;
}

/** The divergence request's response and the divergence event's body. */
export interface DivergenceBody {
  /** null: no divergence is known (or it was cleared and the recording says none). */
  divergence: DivergenceInfo | null;
}

/** The watched variables of the stopped thread as of the cursor, where its program runs. */
export interface WatchedAtCursor {
  /** Absolute path of the program source the thread runs. */
  programPath: string;
  /** 0-based line where the thread's function starts. */
  functionLine: number;
  /** Name to value, as machin printed it. */
  values: Record<string, string>;
  /** At source level: name to the 0-based line of the statement that stored its value. */
  assignedLines?: Record<string, number>;
  /** Names whose value machin printed in this replay but may not in another (shown marked). */
  thisReplayOnly?: string[];
}

/** Sent before every `stopped` event: where the cursor is now. */
export interface CursorEventBody {
  /** Steps completed (0..total). */
  position: number;
  /** The current record's step number (0-based), -1 when it is no step (an I/O line) or at the start. */
  step: number;
  /** What a step is called: `op` or `effect`. */
  unit: string;
  /** What a thread is called: `goroutine` or `task`. */
  threadUnit: string;
  total: number;
  /** The current record (-1 before the first). */
  record: number;
  /** 1-based line of the current record in the recording's document, null at the start. */
  line: number | null;
  /** Nothing has happened yet: no record and (source level) no statement; the reverse moves are disabled here. */
  atStart: boolean;
  atEnd: boolean;
  /** The stopped thread's id in the recording ("0.2", "1"), null when the recording has none. */
  thread: string | null;
  /** The stopped thread's DAP id (thread index + 1). */
  threadId: number;
  /** The stopped thread's label from the program or the capsule ("feed"), "" when it has none. */
  threadLabel: string;
  reason: string;
  description: string;
  exception: string | null;
  /** Null when no values are known (no machin --print) or the thread's program place is unknown. */
  watched: WatchedAtCursor | null;
  /**
   * Source level: where the cursor is in the run's one order of statements: the seq of the
   * statement it stands at, or x.5 between two (-0.5 before the first); null without statements.
   */
  statementSeq: number | null;
}

/** Sent once a recording is open (and again when a restart reads it anew). */
export interface ThreadsEventBody {
  /** The threads that have a label (from the program or the capsule), the first 10,000 of them. */
  threads: Array<{ dapId: number; id: string; label: string }>;
  /** How many threads the recording has. */
  threadCount: number;
}

/** Sent once a recording with a known panic is open. */
export interface CausalChainEventBody {
  /** Steps done at the panic. */
  position: number;
  /** The panicking thread's id in the recording. */
  thread: string;
  threadId: number;
  message: string;
  source: string;
  /** Number of steps in the causal chain (position). */
  length: number;
  /** The thread id of each step of the chain, when it has at most 10,000 steps. */
  steps?: string[];
}

/** The statement index of a source-level launch: in (its values follow), or why not. */
export interface StatementsEventBody {
  state: 'ready' | 'unavailable';
  message: string;
  /** Statement events indexed (ready). */
  events?: number;
}

export type ToolchainState = 'off' | 'running' | 'output' | 'failed' | 'done' | 'unavailable';

export interface ToolchainEventBody {
  state: ToolchainState;
  /** A line for the output channel (for `output`: the toolchain's own output). */
  message: string;
}
