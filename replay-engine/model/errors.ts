// The one error type the engine lets escape. Every message names the file, the place (line or
// byte offset) and what to do, and is shown to the user as it is.

export type ErrorCode =
  | 'empty'
  | 'not-a-recording'
  | 'unsupported-version'
  | 'malformed'
  | 'wrong-key-or-damaged'
  | 'damaged'
  | 'no-key'
  | 'needs-identity'
  | 'unknown-kind'
  | 'unsupported-schema'
  | 'io'
  | 'toolchain-missing'
  | 'toolchain-failed'
  | 'toolchain-timeout'
  | 'cancelled'
  | 'program-missing'
  | 'usage'
  /** A file larger than a size limit (the capsule size limit), refused before it is read. */
  | 'too-large'
  /** Two recordings that cannot be compared (different formats or programs). */
  | 'not-comparable';

export interface ErrorPlace {
  file?: string;
  line?: number;
  column?: number;
  offset?: number;
}

export class RecordingError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly place: ErrorPlace = {},
  ) {
    super(message);
    this.name = 'RecordingError';
  }
}

/** A problem that does not stop reading (a cut last line, a best-effort boundary). */
export interface EngineWarning {
  code: string;
  message: string;
  line?: number;
  column?: number;
  offset?: number;
}

/** A command or tool called with arguments of the wrong form (the CLI's exit 2; an MCP tool error). */
export class UsageError extends Error {}
