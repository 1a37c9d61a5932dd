// The capsule size limit. A capsule is read whole into memory before anything is shown (its tag
// covers every byte before it, and the body is decrypted in place), so a file's size is checked
// against this limit before a byte of it is read: a sparse file of gigabytes that starts with the
// capsule magic costs nothing, and the memory a capsule can take is bounded. 2,047 MiB is the
// ceiling: Node reads a file into one buffer with an int32 length (2 GiB or more aborts it).
import { RecordingError } from '../model/errors';

export const DEFAULT_CAPSULE_LIMIT_MB = 1024;
export const MAX_CAPSULE_LIMIT_MB = 2047;
export const CAPSULE_LIMIT_ENV = 'FROZEN_RUN_CAPSULE_LIMIT_MB';
const MiB = 1024 * 1024;

export interface CapsuleLimitOptions {
  /** The limit in MiB (1 to 2047); else the environment variable; else 1,024. */
  capsuleSizeLimitMB?: number;
  env?: NodeJS.ProcessEnv;
}

/** Whether `mb` is a limit this reader takes. */
export function validCapsuleLimit(mb: number): boolean {
  return Number.isInteger(mb) && mb >= 1 && mb <= MAX_CAPSULE_LIMIT_MB;
}

/** The limit in bytes; a RecordingError ('usage') for a limit out of range. */
export function capsuleLimitBytes(options: CapsuleLimitOptions = {}): number {
  if (options.capsuleSizeLimitMB !== undefined) {
    if (!validCapsuleLimit(options.capsuleSizeLimitMB)) throw badLimit('the capsule size limit', String(options.capsuleSizeLimitMB));
    return options.capsuleSizeLimitMB * MiB;
  }
  const raw = (options.env ?? process.env)[CAPSULE_LIMIT_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_CAPSULE_LIMIT_MB * MiB;
  const mb = Number(raw.trim());
  if (!validCapsuleLimit(mb)) throw badLimit(CAPSULE_LIMIT_ENV, raw);
  return mb * MiB;
}

function badLimit(what: string, got: string): RecordingError {
  return new RecordingError('usage', `${what} wants a size in MiB from 1 to ${MAX_CAPSULE_LIMIT_MB}, got \`${got}\``);
}

/** The one-line refusal of a file larger than the limit: the file, its size, the limit, what to do. */
export function tooLargeError(file: string, size: number, limitBytes: number): RecordingError {
  return new RecordingError(
    'too-large',
    `${file}: the file is ${mib(size)} (${size.toLocaleString('en-US')} bytes), more than the capsule size limit of ${mib(limitBytes)}: ` +
      'a capsule is read whole into memory, so a larger file is refused before it is read. If it is a real capsule, raise the limit ' +
      `(setting frozenRun.capsuleSizeLimitMB; command line --capsule-limit-mb N or the ${CAPSULE_LIMIT_ENV} environment variable; at most ${MAX_CAPSULE_LIMIT_MB.toLocaleString('en-US')} MiB)`,
    { file, offset: 0 },
  );
}

function mib(bytes: number): string {
  return `${(bytes / MiB).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
}
