// The contract between the language server and the Frozen Run extension: custom notifications
// the extension sends, and the commands the server's code lenses invoke (the extension registers
// them). Imported by both sides so the names cannot drift. Plain method names, not
// NotificationType objects: the client and server libraries bundle different jsonrpc versions.

/** Language id of `.mflrr` trace text. */
export const MFLRR_LANGUAGE = 'mflrr';
/** URI scheme of a decoded capsule document the extension serves as text. */
export const CAPSULE_SCHEME = 'frozen-run-capsule';
/** Language id of a decoded capsule document (the debug adapter serves it with mimeType text/x-tcap-decoded). */
export const CAPSULE_LANGUAGE = 'tcap-decoded';

/**
 * Facts a debug session learned about a recording, which the text alone cannot tell: the panic
 * (from `machin replay --json` or the capsule) and thread labels (from the program).
 * Sent by the extension after a session learns them; `panic: null` clears a known panic.
 */
export interface RunFactsParams {
  /** The recording document (the `.mflrr` file, or the decoded capsule document). */
  uri: string;
  panic?: {
    /** How many schedule ops (steps) completed before the panic: machin's `scheduleOp`. */
    position: number;
    /** The goroutine or task id that panicked (`0.2`, `1`). */
    thread: string;
    message?: string;
  } | null;
  /** Thread id to label: `{"0": "main", "0.1": "feed"}`. */
  labels?: Record<string, string>;
}
export const RUN_FACTS_NOTIFICATION = 'frozenRun/runFacts';

/**
 * The debug session's cursor, forwarded by the extension from the adapter's cursor events: the
 * watched variables of the current thread as of the cursor, for inline values in the program.
 * `values: {}` (or a notification with no values) clears them, e.g. when the session ends.
 */
export interface CursorValuesParams {
  /** The program source the current thread runs (`file:///.../app.mfl`). */
  programUri: string;
  /** The current goroutine or task id. */
  thread: string;
  /** Variable name to its value as of the cursor (printed as machin prints it). */
  values: Record<string, string>;
  /** 0-based lines of the function the thread runs, inclusive; values are shown only there. */
  functionRange?: { startLine: number; endLine: number };
  /**
   * Or only the 0-based line where that function starts (a stack frame's line): the server
   * finds its end in the program text by matching braces.
   */
  functionLine?: number;
  /**
   * At source level (the adapter knows the statements): name to the 0-based line of the statement
   * that stored its value. The value is shown there, not wherever the name appears.
   */
  assignedLines?: Record<string, number>;
  /** Names whose value is this replay's only (machin may not print it in another): shown marked. */
  thisReplayOnly?: string[];
}
export const CURSOR_VALUES_NOTIFICATION = 'frozenRun/cursorValues';

/** Code lens commands, implemented by the extension. Arguments: [uri: string]. */
export const REPLAY_TO_PANIC_COMMAND = 'frozenRun.replayToPanic';
/** Arguments: [uri: string, line: number (0-based document line of the record)]. */
export const REPLAY_TO_HERE_COMMAND = 'frozenRun.replayToHere';
