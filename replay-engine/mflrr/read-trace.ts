// The streaming `.mflrr` reader. The file is read in 1 MB chunks into reused buffers (the next
// chunk is read while one is scanned) and scanned as bytes: `S` and `I` records go straight into
// the TimelineBuilder's arrays (goroutine ids interned from their bytes, hex decoded straight into
// the payload pool), so a 100 MB trace never exists as one JS string and no line makes a string or
// an object. Plain records are read by a WebAssembly kernel (scan-kernel.ts); header lines, blank
// lines, the first line of each goroutine and errors by trace-scanner.ts.
//
// A line counts only once its `\n` was written. machin writes every record with its line end, so
// a last line without one means the recording process was killed mid-write: even `S 0.1` may be
// the start of `S 0.12`. Such a line is ignored with a warning naming it (when its bytes can be the
// start of a valid line), or is an error like any damaged line (when they cannot).
import { RecordingError, type EngineWarning } from '../model/errors';
import { openRegularFile, type FileStamp } from '../regular-file';
import type { Timeline } from '../model/timeline';
import type { MflrrHeader } from './header';
import { LF } from './trace-bytes';
import { TraceScanner } from './trace-scanner';

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

const CHUNK = 1 << 20;
/** Room before each chunk for the unfinished last line of the one before. */
const HEAD = 64 * 1024;

export async function readTrace(file: string): Promise<TraceRead> {
  // A regular file only, read up to the size it had when opened (a link to /dev/zero is refused).
  const { handle, size, stamp } = await openRegularFile(file);
  let pending: Promise<{ bytesRead: number }> | undefined;
  const readAt = (into: Uint8Array, length: number, at: number) =>
    at >= size ? Promise.resolve({ bytesRead: 0 }) : handle.read(into, HEAD, Math.min(length, size - at), at);
  try {
    if (size === 0) {
      throw new RecordingError(
        'empty',
        `${file}: the trace is empty (0 bytes): the recording process died before it wrote anything (machin exits that way on a deadlock), so there is nothing to replay; re-record the run, or run the program to see the deadlock report`,
        { file, line: 1 },
      );
    }
    const reader = new TraceScanner(file, size);
    // Two slots: the next chunk is read into one while the other is scanned (the copy from the page
    // cache runs on libuv's thread pool). A chunk lands HEAD bytes into its slot, after the
    // unfinished last line of the chunk before, so every line is scanned where it was read (with
    // the WebAssembly kernel the slots are in its memory). A line longer than HEAD is gathered in
    // `long`, a growing array, until its end arrives.
    const slots = reader.readSlots(Math.min(CHUNK, size + 1) + HEAD);
    const chunk = slots[0].length - HEAD;
    let slot = 0;
    /** The unfinished line: slots[slot][start, HEAD), or long[0, longEnd) when `long` is set. */
    let start = HEAD;
    let long: Uint8Array | null = null;
    let longEnd = 0;
    let filePos = 0;
    pending = readAt(slots[0], chunk, 0);
    for (;;) {
      const { bytesRead } = await pending;
      const here = slots[slot];
      if (bytesRead === 0) {
        if (long) reader.finishCut(long, longEnd, filePos);
        else reader.finishCut(here.subarray(start, HEAD), HEAD - start, filePos);
        break;
      }
      const first = filePos === 0;
      filePos += bytesRead;
      const other = slots[1 - slot];
      pending = readAt(other, chunk, filePos);
      let buf: Uint8Array;
      if (long !== null) {
        let line: Uint8Array = long;
        if (longEnd + bytesRead > line.length) {
          // Refuse garbage before growing: the line so far must be the start of a valid one.
          reader.checkCutPrefix(line, 0, longEnd);
          line = new Uint8Array(Math.max(line.length * 2, longEnd + bytesRead));
          line.set(long.subarray(0, longEnd));
          long = line;
        }
        line.set(here.subarray(HEAD, HEAD + bytesRead), longEnd);
        const from = longEnd;
        longEnd += bytesRead;
        const lf = line.indexOf(LF, from);
        if (lf < 0 || lf >= longEnd) {
          slot = 1 - slot;
          continue; // still inside the long line: nothing to scan yet
        }
        buf = line.subarray(0, longEnd);
      } else {
        buf = here.subarray(start, HEAD + bytesRead);
      }
      if (first) reader.checkMagic(buf, buf.length);
      const stop = reader.scan(buf, buf.length);
      const carry = buf.length - stop;
      if (carry <= HEAD) {
        other.set(buf.subarray(stop), HEAD - carry);
        start = HEAD - carry;
        long = null;
      } else {
        reader.checkCutPrefix(buf, stop, buf.length);
        if (long !== null) long.copyWithin(0, stop, longEnd);
        else {
          long = new Uint8Array(Math.max(2 * carry, 2 * chunk));
          long.set(buf.subarray(stop));
        }
        longEnd = carry;
      }
      slot = 1 - slot;
    }
    return { ...reader.finish(), stamp };
  } finally {
    // A read may still be under way when a damaged line stops the scan: let it end first.
    await pending?.catch(() => undefined);
    await handle.close().catch(() => undefined);
  }
}
