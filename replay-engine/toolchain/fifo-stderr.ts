// A child's stderr through a FIFO read by a worker thread (ProcessOptions.stderrPath).
//
// machin writes every probe line with its own unbuffered write(2), under its replay lock, so
// whatever each write costs is paid per line on the replay's critical path. Measured on a
// 600k-op instrumented replay (3.9 million lines, 128 MB) on the 2-core machine:
//   - to /dev/null: as fast as a replay that prints nothing (the printing itself is free);
//   - to a file: 1.5 to 1.6 times slower (a file write is the dearest kind);
//   - to a pipe read by Node's event loop: 1.8 times slower (each line wakes the loop, and
//     the loop takes ~10 µs a wake-up on the same two cores machin needs);
//   - to a pipe read by a thread that blocks in read(2), then after a short read waits ~50 µs
//     busy before the next one: 0.85 to 0.9 times a replay that prints nothing. The next read
//     then takes many lines at once, and a core kept busy is woken at once: machin's goroutine
//     hand-offs wait on a core that was idle otherwise, and on this virtual machine a
//     halted core takes tens of µs to wake (a plain replay alone, 10 s; beside any busy
//     process, 2.5 s). Waiting by sleeping instead (Atomics.wait) measured as slow as the file.
// So the reader is a worker thread: a blocking read, a short busy wait after a short read (the
// core it takes is taken only while machin prints), chunks of up to 256 KiB of whole lines posted
// to this thread (transferred, not copied; so this thread joins no pieces of lines), handed back
// once handled and posted again (on this kind of host memory first written costs more than the
// copy into it), and never more than 16 MiB posted and not yet handled: when this thread falls
// behind, the worker stops reading and machin waits on the full pipe, so memory never grows with
// what machin printed. The thread is started ahead (warm-up.ts, as the trace is read, while the
// other core is idle: starting one takes some 40 ms of a CPU, which machin's compiles would have
// paid) and reads one FIFO after another.
//
// The FIFO is made with `mkfifo` in the caller's private folder and unlinked once both ends are
// open. Where it cannot be made, `FifoStderr.make` answers null and the caller writes a file.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { LineBytes, LineDecoder } from './line-decoder';

/** Who takes the stderr as it is read: text in whole lines, or (`bytes`) whole lines of bytes, undecoded. */
export type StderrTaker = ((text: string) => void) | { bytes: (lines: Uint8Array) => void };

/** Posted but not yet handled, at most (then the worker waits, and machin with it). */
const IN_FLIGHT_LIMIT = 16 << 20;
/** Bytes of posted chunks handled in one turn of the event loop. */
const HANDLED_PER_TURN = 1 << 20;
/** How long the end of the output may take once the child has exited (a grandchild may hold the pipe). */
export const FIFO_DRAIN_MS = 2_000;

// Plain JavaScript (it runs in a worker of its own, `eval`, so the bundles need no second file).
// A thread reads one FIFO after another: it waits for a job (the FIFO's path and how to post),
// reads that FIFO to its end, then waits for the next (readerThread).
const WORKER = `(() => {
const { parentPort, receiveMessageOnPort } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const micros = () => Number(process.hrtime.bigint() / 1000n);
const buffer = Buffer.allocUnsafe(1 << 20);
// Chunks the parent has handled come back (spares) and are posted again: memory first written
// costs more than the copy into it, and a long output would be one fresh chunk after another.
const free = [];
const read = ({ path, flight, limit, spinMicros, spares }) => {
  const chunkOf = (n) => {
    for (let m; (m = receiveMessageOnPort(spares)) !== undefined; ) if (free.length < 16) free.push(m.message);
    for (let i = 0; i < free.length; i++) {
      if (free[i].byteLength < n) continue;
      const b = free[i];
      free[i] = free[free.length - 1];
      free.pop();
      return new Uint8Array(b, 0, n);
    }
    return new Uint8Array(new ArrayBuffer(Math.max(n, 320 << 10)), 0, n);
  };
  const inFlight = new Int32Array(flight);
  let fd;
  try {
    fd = openSync(path, 'r'); // blocks only until the writer is open: the parent holds it already
  } catch (err) {
    parentPort.postMessage({ error: err.message });
    spares.close();
    return;
  }
  parentPort.postMessage({ opened: true });
  let used = 0;
  let posted = micros();
  // Whole lines only (the part of a line read last waits here for its end), so this thread joins
  // no pieces; all of it at the end, or when the buffer holds no line end at all.
  const post = (all) => {
    let end = used;
    if (!all) {
      const nl = buffer.lastIndexOf(10, used - 1);
      if (nl >= 0) end = nl + 1;
      else if (used < buffer.length) return;
    }
    if (end === 0) return;
    while (Atomics.load(inFlight, 0) > limit) Atomics.wait(inFlight, 0, Atomics.load(inFlight, 0), 50);
    const chunk = chunkOf(end);
    chunk.set(buffer.subarray(0, end));
    Atomics.add(inFlight, 0, end);
    parentPort.postMessage(chunk, [chunk.buffer]);
    buffer.copyWithin(0, end, used);
    used -= end;
    posted = micros();
  };
  try {
    for (;;) {
      let n;
      try {
        n = readSync(fd, buffer, used, buffer.length - used, null);
      } catch (err) {
        if (err.code === 'EINTR' || err.code === 'EAGAIN') continue;
        throw err;
      }
      if (n === 0) break;
      used += n;
      if (used >= (256 << 10) || micros() - posted >= 5000) post(false);
      if (n < 16384) {
        const until = micros() + spinMicros;
        while (micros() < until);
      }
    }
    post(true);
    parentPort.postMessage({ end: true });
  } catch (err) {
    parentPort.postMessage({ error: err.message });
  } finally {
    closeSync(fd);
    spares.close();
    free.length = 0; // (a thread waiting for its next FIFO holds no chunks)
  }
};
parentPort.on('message', read);
})();
`;

/** Reader threads started and waiting for a FIFO (at most one is kept waiting). */
const idleReaders: Worker[] = [];
let readersStarted = 0;

/** How many reader threads this process has started (for tests). */
export function fifoReaderThreadsStarted(): number {
  return readersStarted;
}

/**
 * A reader thread, started now (about 40 ms of a CPU, and some on this thread) unless one is
 * waiting: warm-up.ts starts one as a trace is read, while the second core has nothing to do,
 * so an instrumented replay's reader does not take that time from machin's compiles.
 */
function readerThread(): Worker {
  const waiting = idleReaders.pop();
  if (waiting) return waiting;
  readersStarted++;
  const worker = new Worker(WORKER, { eval: true });
  worker.unref(); // a waiting thread, or a grandchild holding the pipe, must not keep this process alive
  return worker;
}

/** Starts a reader thread to wait for the next FIFO (none where one is waiting already). */
export function warmUpFifoReader(): void {
  if (process.platform === 'win32' || idleReaders.length > 0) return;
  idleReaders.push(readerThread());
}

/** A reader thread whose FIFO has ended goes back to wait for the next (one is kept). */
function readerDone(worker: Worker): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  if (idleReaders.length === 0) {
    // (a thread that dies while waiting is dropped, never handed out)
    worker.once('exit', () => idleReaders.splice(idleReaders.indexOf(worker) >>> 0, 1));
    idleReaders.push(worker);
  } else void worker.terminate();
}

export class FifoStderr {
  private readonly decoder = new LineDecoder();
  private readonly inFlight = new Int32Array(new SharedArrayBuffer(4));
  private worker: Worker | null = null;
  private whole = '';
  private ended = false;
  private endWaiters: Array<() => void> = [];
  /** Resolves once the reader has its end open (or failed to): only then may the write end close. */
  private started: Promise<void> | null = null;
  private writeOpen = true;
  /** Chunks posted by the worker, not yet handled (handleSome). */
  private pending: Uint8Array[] = [];
  private handling = false;
  /** The worker has read the end: the text ends once the pending chunks are handled. */
  private endSeen = false;
  /** The first error: reading failed, or the taker threw. */
  error: unknown;

  private constructor(
    private readonly path: string,
    /** The write end, for the child's stderr (read-write, so the FIFO's open never waits). */
    readonly fd: number,
    private readonly take: StderrTaker | undefined,
    private readonly onOutput: ((text: string) => void) | undefined,
  ) {}

  /** Whole lines of bytes for a taker of bytes (it gets no text, and onOutput none either). */
  private readonly lineBytes = new LineBytes();

  private handChunk(m: Uint8Array): void {
    if (typeof this.take === 'object') {
      const lines = this.lineBytes.write(m);
      if (lines.length > 0) this.take.bytes(lines);
    } else this.hand(this.decoder.write(m));
  }

  /** A posted chunk is handled (or dropped): the worker may post that much more. */
  private release(m: Uint8Array): void {
    Atomics.sub(this.inFlight, 0, m.byteLength);
    Atomics.notify(this.inFlight, 0);
  }

  private handRest(): void {
    if (typeof this.take === 'object') {
      const rest = this.lineBytes.end();
      if (rest.length > 0) this.take.bytes(rest);
    } else this.hand(this.decoder.end());
  }

  /**
   * A FIFO at `path` (in a private folder) and its write end; null where no FIFO can be made
   * (no `mkfifo`, another platform): the caller then writes a file.
   */
  static make(path: string, take?: StderrTaker, onOutput?: (text: string) => void): FifoStderr | null {
    if (process.platform === 'win32') return null;
    const made = spawnSync('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
    if (made.status !== 0) return null;
    try {
      return new FifoStderr(path, openSync(path, constants.O_RDWR), take, onOutput);
    } catch {
      unlinkSync(path);
      return null;
    }
  }

  /**
   * Starts the reader. `stop` is called when reading fails or the taker throws (the caller stops
   * the child). Resolves once the reader has its end open; the write end is then closed here
   * (the child has its own copy), so the reader sees the end of the output when the child's
   * group has closed it.
   */
  start(stop: () => void): Promise<void> {
    this.started = new Promise((opened) => {
      const { port1, port2 } = new MessageChannel();
      this.spares = port1;
      port1.unref();
      const worker = readerThread();
      this.worker = worker;
      worker.postMessage({ path: this.path, flight: this.inFlight.buffer, limit: IN_FLIGHT_LIMIT, spinMicros: 50, spares: port2 }, [port2]);
      const failed = (err: unknown) => {
        this.fail(err);
        stop();
      };
      // The chunks are handled from setImmediate, a few at a time, never in the message handler:
      // Node's port handler goes on while messages keep coming, and a worker that is never behind
      // would keep this thread there, so that nothing else is heard (another replay's exit, which
      // waited up to the end of this one).
      const handleSome = () => {
        let bytes = 0;
        while (this.pending.length > 0 && bytes < HANDLED_PER_TURN) {
          const m = this.pending.shift()!;
          bytes += m.byteLength;
          this.release(m);
          if (this.error !== undefined) continue;
          try {
            this.handChunk(m);
          } catch (err) {
            failed(err);
          }
          this.giveBack(m);
        }
        if (this.pending.length > 0) setImmediate(handleSome);
        else {
          this.handling = false;
          if (this.endSeen) this.finishText();
        }
      };
      worker.on('message', (m: Uint8Array | { opened?: true; end?: true; error?: string }) => {
        if (m instanceof Uint8Array) {
          this.pending.push(m);
          if (!this.handling) {
            this.handling = true;
            setImmediate(handleSome);
          }
        } else if (m.opened) {
          this.closeWriteEnd();
          opened();
        } else if (m.end) {
          this.giveUpReader(worker);
          this.endSeen = true;
          if (!this.handling) this.finishText();
        } else if (m.error) {
          this.giveUpReader(worker);
          failed(new Error(`reading the toolchain's output failed: ${m.error}`));
          this.closeWriteEnd();
          opened();
          this.finishText();
        }
      });
      worker.on('error', (err) => {
        failed(err);
        this.closeWriteEnd();
        opened();
        this.finishText();
      });
      worker.on('exit', () => {
        this.closeWriteEnd();
        opened();
        this.finishText();
      });
    });
    return this.started;
  }

  /** The reader has read this FIFO to its end: it waits for another (this one never stops it now). */
  private giveUpReader(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    readerDone(worker);
  }

  /** The worker's way to get handled chunks back (chunkOf in WORKER). */
  private spares: MessagePort | null = null;

  /**
   * A chunk handled: its memory goes back to the worker, to be posted again. Nothing read from it
   * is kept by then: the takers copy what they keep (probe-bytes.ts, LineBytes, the text decoded).
   */
  private giveBack(m: Uint8Array): void {
    if (this.spares === null || this.ended) return;
    try {
      this.spares.postMessage(m.buffer, [m.buffer as ArrayBuffer]);
    } catch {
      // (the worker is gone: the chunk is only garbage)
    }
  }

  private closeWriteEnd(): void {
    if (!this.writeOpen) return;
    this.writeOpen = false;
    closeSync(this.fd);
    try {
      unlinkSync(this.path);
    } catch {
      // already gone with its folder
    }
  }

  private hand(text: string): void {
    if (!text) return;
    if (typeof this.take === 'function') this.take(text);
    else this.whole += text;
    this.onOutput?.(text);
  }

  private finishText(): void {
    if (this.ended) return;
    this.ended = true;
    this.spares?.close();
    this.spares = null;
    // (the end can be heard before the chunks posted ahead of it are handled: they come first)
    const pending = this.pending.splice(0);
    for (const m of pending) this.release(m);
    if (this.error === undefined) {
      try {
        for (const m of pending) this.handChunk(m);
        this.handRest();
      } catch (err) {
        this.fail(err);
      }
    }
    for (const w of this.endWaiters.splice(0)) w();
  }

  fail(err: unknown): void {
    this.error ??= err;
  }

  /**
   * The child has exited: waits for the rest of the output and answers the whole text when there
   * is no taker (`stopped`: the run was stopped, its group killed, so no wait is long). A process the child started may still hold the pipe: after `ms`, `linger` is
   * called (the caller kills the child's group), and after another `ms` reading gives up with
   * an error (a process outside the group holds it).
   */
  async finish(ms = FIFO_DRAIN_MS, linger?: () => void, stopped = false): Promise<string> {
    // (closed before the reader opened its end, the FIFO's path would be gone, and the output with it)
    if (this.started) await this.started;
    else this.ended = true; // never started: nothing was read
    this.closeWriteEnd();
    if (!(await this.ends(ms)) && linger) {
      linger();
      await this.ends(ms);
    }
    if (!this.ended) {
      // (a stopped run's output is cut by the stop anyway: the caller says it was stopped)
      if (!stopped) this.fail(new Error(`the toolchain's output did not end within ${(2 * ms) / 1000} s of its exit: a process it started and that left its group still holds it`));
      void this.worker?.terminate();
      this.finishText();
    }
    const text = this.whole;
    this.whole = '';
    return text;
  }

  /** Whether the output ends within `ms`. */
  private ends(ms: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(true);
    return new Promise((r) => {
      const timer = setTimeout(() => r(this.ended), ms);
      this.endWaiters.push(() => {
        clearTimeout(timer);
        r(true);
      });
    });
  }
}
