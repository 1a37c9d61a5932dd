// Writes a JSON document to standard output in chunks as fast as the reader takes them (waiting
// for 'drain', so memory stays at a few chunks however slow the reader; the chunk buffers are
// reused once written). A reader that goes away (`| head`: EPIPE) ends the output quietly; that
// is not an error of the recording.
import { ByteSink, type ChunkTarget } from '../byte-sink';
import { writeJson } from '../json-chunks';

export async function writeJsonDocument(doc: unknown, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  let closed = false;
  let failure: Error | undefined;
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else failure = e;
  };
  out.on('error', onError);
  let needDrain = false;
  // Chunks handed to the stream whose write has not called back yet. A file or /dev/null is a
  // synchronous stream that never asks for 'drain', and calls back only on the next tick: waiting
  // here then is what lets the chunk buffers come back to be reused.
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const target: ChunkTarget = {
    write(chunk, done) {
      if (closed) return done();
      inFlight++;
      const written = out.write(chunk, () => {
        inFlight--;
        done();
        wake?.();
      });
      if (!written) needDrain = true;
    },
  };
  const sink = new ByteSink(target);
  try {
    for (const _ of writeJson(doc, sink)) {
      if (failure) throw failure;
      if (closed) return;
      if (needDrain) {
        needDrain = false;
        await writable(out);
      }
      while (inFlight > MAX_IN_FLIGHT && !closed && !failure) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.removeListener('close', done);
            wake = undefined;
            resolve();
          };
          wake = done;
          out.on('close', done);
        });
      }
    }
    sink.flush();
    if (failure) throw failure;
  } finally {
    // Keep swallowing EPIPE for writes still queued when the reader went away.
    if (!closed) out.removeListener('error', onError);
  }
}

/** Chunks the stream may hold at once before the writer waits for it. */
const MAX_IN_FLIGHT = 2;

function writable(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.removeListener('drain', done);
      out.removeListener('close', done);
      out.removeListener('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}
