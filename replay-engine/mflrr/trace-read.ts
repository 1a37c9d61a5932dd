// What reading a `.mflrr` file gives: the timeline and what was counted on the way (the reader,
// read-trace.ts, and its scanner, trace-scanner.ts, both speak it).
import type { EngineWarning } from '../model/errors';
import type { Timeline } from '../model/timeline';
import type { FileStamp } from '../regular-file';
import type { MflrrHeader } from './header';

export interface TraceRead {
  timeline: Timeline;
  header: MflrrHeader;
  warnings: EngineWarning[];
  ioTotal: number;
  /** File bytes up to the end of the last line that was read (a cut last line excluded). */
  completeBytes: number;
  /** The 1-based line of an ignored cut last line, or null. */
  cutLine: number | null;
  /** `S` and `I` records per thread index (counted while reading). */
  opsPerThread: Uint32Array;
  ioPerThread: Uint32Array;
  /** The version of the file that was read (for noticing a later change). */
  stamp: FileStamp;
}
