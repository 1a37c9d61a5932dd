// Writes chunks to standard output as fast as it takes them (waiting for 'drain', so memory stays
// at one chunk however slow the reader). A reader that goes away (`| head`: EPIPE) ends the
// output quietly; that is not an error of the recording.

export async function writeChunks(chunks: Iterable<string>, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  let closed = false;
  let failure: Error | undefined;
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else failure = e;
  };
  out.on('error', onError);
  try {
    for (const chunk of chunks) {
      if (failure) throw failure;
      if (closed) return;
      if (!out.write(chunk)) await writable(out);
    }
  } finally {
    // Keep swallowing EPIPE for writes still queued when the reader went away.
    if (!closed) out.removeListener('error', onError);
  }
}

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
