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
import { open } from 'node:fs/promises';
import { fileError } from '../file-error';
import { RecordingError, type EngineWarning } from '../model/errors';
import type { Timeline } from '../model/timeline';
import type { MflrrHeader } from './header';
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
}

const CHUNK = 1 << 20;
const LF = 10;

export async function readTrace(file: string): Promise<TraceRead> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw fileError(file, err);
  }
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    const size = (await handle.stat()).size;
    if (size === 0) {
      throw new RecordingError(
        'empty',
        `${file}: the trace is empty (0 bytes): the recording process died before it wrote anything (machin exits that way on a deadlock), so there is nothing to replay; re-record the run, or run the program to see the deadlock report`,
        { file, line: 1 },
      );
    }
    warmUp();
    const reader = new TraceScanner(file, size);
    // While one chunk is scanned, the next is read (the copy from the page cache runs on libuv's
    // thread pool). `buf` holds the unfinished line of the previous chunk followed by the new one.
    const next = new Uint8Array(Math.min(CHUNK, size + 1));
    let buf = new Uint8Array(Math.min(CHUNK * 2, size + 1));
    let carry = 0;
    let filePos = 0;
    /** The carry is one line with no end yet (no need to scan it again until a `\n` arrives). */
    let openLine = false;
    pending = handle.read(next, 0, next.length, 0);
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) {
        reader.finishCut(buf, carry, filePos);
        break;
      }
      if (carry + bytesRead > buf.length) {
        // Only a long line gets here (an `I` line with a large payload): refuse garbage before growing.
        reader.checkCutPrefix(buf, 0, carry);
        const grown = new Uint8Array(Math.max(buf.length * 2, carry + bytesRead));
        grown.set(buf.subarray(0, carry));
        buf = grown;
      }
      buf.set(next.subarray(0, bytesRead), carry);
      const first = filePos === 0;
      filePos += bytesRead;
      pending = handle.read(next, 0, next.length, filePos);
      const end = carry + bytesRead;
      if (first) reader.checkMagic(buf, end);
      const lf = openLine ? buf.indexOf(LF, carry) : 0;
      if (lf < 0 || lf >= end) {
        carry = end;
        continue;
      }
      const stop = reader.scan(buf, end);
      carry = end - stop;
      openLine = carry > 0;
      if (carry > 0 && stop > 0) buf.copyWithin(0, stop, end);
    }
    return reader.finish();
  } finally {
    // A read may still be under way when a damaged line stops the scan: let it end first.
    await pending?.catch(() => undefined);
    await handle.close().catch(() => undefined);
  }
}

/**
 * Every line shape the scanner has a path for, in a few hundred bytes. Reading it once before the
 * first real trace gives V8 type feedback for every branch, so the optimised scan is not thrown
 * away ("deoptimised") the first time a rare branch runs, which would send the rest of a 1 MB chunk
 * through the interpreter.
 */
const WARM_UP =
  'MFLRR 1\nboundary faithful\nprogram /warm/up.mfl\nsafe 1\nS 0\nS 0.1\nI 0.1 3031\nI 0 \nS 0.1\nI 0.1 ABcd\n' +
  'S 0.12.345\nS 0.1.2.3.4\nI 0.1.2.3.4 30\nI 0.12 30\r\nS 0.1\r\n\nS 0.12.345\nI 0\nS 0.2\nS 0.1.2.3.4\nI 0.2 ff\nS 0';
let warm = false;

function warmUp(): void {
  if (warm) return;
  warm = true;
  const bytes = new TextEncoder().encode(WARM_UP);
  for (let i = 0; i < 3; i++) {
    const scanner = new TraceScanner('(warm-up)', bytes.length);
    scanner.checkMagic(bytes, bytes.length);
    scanner.scan(bytes, bytes.length);
  }
}
