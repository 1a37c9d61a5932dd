// Runs a toolchain process (machin, tin) the only way Frozen Run ever does: an argument array
// (never a shell), a time limit, cancellation, and output collected for the caller. A cut trace
// makes machin wait forever, so the time limit is not optional.
//
// Every child is the leader of its own process group (detached), and every way of stopping it
// (time limit, cancel, stopAllProcesses on a CLI signal or an adapter disconnect) stops the whole
// group: SIGTERM, then SIGKILL after a grace period for a child that ignores SIGTERM, and the
// caller hears of it only once the child has exited, so a temporary copy the child reads is
// removed after it is gone, never while it runs.
import { closeSync, openSync, readSync } from 'node:fs';
import { LineDecoder } from './line-decoder';
import { RecordingError } from '../model/errors';
import { toolchainEnv } from './child-env';
import { FifoStderr } from './fifo-stderr';

export interface ProcessOptions {
  cwd?: string;
  /** Extra environment for the child only (a capsule key goes here, never into argv). */
  env?: Record<string, string>;
  timeLimitMs: number;
  signal?: AbortSignal;
  /** Called with each chunk of output as it arrives (for an output channel). Never gets `env`. */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Bytes written to the child's stdin, then closed. Default: stdin closed at once. */
  stdin?: string;
  /**
   * A path in a private folder for the child's stderr: a FIFO made there, read by a worker thread
   * (fifo-stderr.ts: for a child that makes many small unbuffered writes, machin's probes, it is
   * the fastest way measured), or, where no FIFO can be made, a new file read back as it grows.
   * onOutput gets the stderr in chunks as it comes.
   */
  stderrPath?: string;
  /** Where stderrPath goes: 'fifo' (the default) or 'file' (the fallback, for tests). */
  stderrVia?: 'fifo' | 'file';
  /**
   * With stderrPath: the child's stderr handed over in chunks as it is read, never kept whole:
   * ProcessResult.stderr is then ''. A throw stops the child and rejects with that error.
   */
  streamStderr?: (text: string) => void;
  /**
   * Instead of streamStderr: the stderr as whole lines of bytes, undecoded (the last piece may
   * lack its line end); onOutput then gets none of the stderr (the taker shows what it wants).
   * Through the FIFO; a run without one decodes and encodes again (the fallback only).
   */
  streamStderrBytes?: (lines: Uint8Array) => void;
  /** Called once the child is spawned and its stderr reader started (an error may still follow: the 'error' event comes later). */
  onStarted?: () => void;
}

export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const KILL_GRACE_MS = 500;
/** How long a stopped run's output may take to end once its group is gone. */
const STOPPED_DRAIN_MS = 250;

interface Running {
  /** Stops the group (TERM, then KILL); resolves once the child has exited. */
  stop(): Promise<void>;
  /** SIGKILL to the group now, for a process about to exit. */
  killNow(): void;
}

/** The children under way, for stopAllProcesses. */
const running = new Set<Running>();
/** Set by stopAllProcesses: the process is shutting down, so no new child is started. */
let shuttingDown = false;

/**
 * Stops every toolchain child of this process (and their groups) and waits until each has
 * exited. From then on runProcess starts nothing: the process is on its way out.
 */
export async function stopAllProcesses(): Promise<void> {
  shuttingDown = true;
  await Promise.all(Array.from(running, (r) => r.stop()));
}

/** SIGKILL to every child's group at once, for an exit that cannot wait. */
export function killAllProcessesNow(): void {
  shuttingDown = true;
  for (const r of running) r.killNow();
}

/** How many toolchain children are under way (for tests). */
export function runningProcessCount(): number {
  return running.size;
}

export async function runProcess(command: string, args: string[], options: ProcessOptions): Promise<ProcessResult> {
  // Loaded on first use: a CLI run that starts no toolchain (--no-toolchain) never pays for it.
  const { spawn } = await import('node:child_process');
  const { openSync, closeSync, readFileSync } = await import('node:fs');
  const bytesTaker = options.streamStderrBytes;
  const fifo = options.stderrPath && options.stderrVia !== 'file' ? FifoStderr.make(options.stderrPath, bytesTaker ? { bytes: bytesTaker } : options.streamStderr, bytesTaker ? undefined : options.onOutput && ((text) => options.onOutput!('stderr', text))) : null;
  // (without a FIFO, a taker of bytes gets the text again as bytes, and onOutput none of it)
  if (!fifo && bytesTaker) {
    const shown = options.onOutput;
    options = { ...options, streamStderr: (text) => bytesTaker(Buffer.from(text, 'utf8')), onOutput: shown && ((from, text) => from === 'stdout' && shown(from, text)) };
  }
  const errFd = fifo ? fifo.fd : options.stderrPath ? openSync(options.stderrPath, 'wx', 0o600) : null;
  const tail = !fifo && errFd !== null && options.streamStderr ? new StderrTail(options.stderrPath!, options.streamStderr, options.onOutput) : null;
  let errOpen = errFd !== null;
  /** The child is gone: its stderr (whole, or '' when streamed; the chunks went to onOutput as they came). */
  const readErr = async (pid?: number, stopped = false): Promise<string> => {
    if (!errOpen) return '';
    errOpen = false;
    // (what the child started and left running may hold the pipe: its group is killed then)
    // A stopped run's group was killed already: a short wait (a CLI stopped by Ctrl-C exits within 5 s).
    if (fifo) return fifo.finish(stopped ? STOPPED_DRAIN_MS : undefined, () => killGroup(pid, 'SIGKILL'), stopped);
    closeSync(errFd!);
    let text = '';
    if (tail) tail.finish();
    else text = readFileSync(options.stderrPath!, 'utf8');
    if (text) options.onOutput?.('stderr', text);
    return text;
  };
  const readFailed = () => fifo?.error ?? tail?.error;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted || shuttingDown) {
      void readErr();
      reject(new RecordingError('cancelled', `${command}: cancelled before it started`));
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: toolchainEnv(process.env, options.env),
      shell: false,
      stdio: ['pipe', 'pipe', errFd ?? 'pipe'],
      detached: process.platform !== 'win32', // own process group, so every stop reaches its children too
    });
    let stdout = '';
    let stderr = '';
    let ended: 'timeout' | 'cancelled' | undefined;
    let exited = false;
    let released = false;
    const waiters: Array<() => void> = [];
    let graceTimer: NodeJS.Timeout | undefined;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.onOutput?.('stdout', d);
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      options.onOutput?.('stderr', d);
    });
    child.stdin!.on('error', () => undefined); // the child may exit before reading stdin
    child.stdin!.end(options.stdin ?? '');

    const kill = (why: 'timeout' | 'cancelled') => {
      if (ended || exited) return;
      ended = why;
      killGroup(child.pid, 'SIGTERM');
      // Not unref'd: a process that is shutting down must stay until a child that ignores SIGTERM is killed.
      graceTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const entry: Running = {
      stop: () =>
        new Promise<void>((done) => {
          if (released) return done();
          waiters.push(done);
          kill('cancelled');
        }),
      killNow: () => killGroup(child.pid, 'SIGKILL'),
    };
    running.add(entry);
    const timer = setTimeout(() => kill('timeout'), options.timeLimitMs);
    tail?.start(() => kill('cancelled'));
    void fifo?.start(() => kill('cancelled'));
    options.onStarted?.();
    const onAbort = () => kill('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      exited = true;
      clearTimeout(timer);
      if (graceTimer) {
        clearTimeout(graceTimer);
        // The leader is gone; anything left in its group gets no grace.
        if (ended) killGroup(child.pid, 'SIGKILL');
      }
      options.signal?.removeEventListener('abort', onAbort);
      running.delete(entry);
    };
    /** stop() answers here: once the child and, for a stopped one, the rest of its group are gone. */
    const release = () => {
      released = true;
      for (const w of waiters.splice(0)) w();
    };

    child.on('error', (err: NodeJS.ErrnoException) => {
      settle();
      release();
      void readErr();
      const code = err.code === 'ENOENT' ? 'toolchain-missing' : 'toolchain-failed';
      reject(new RecordingError(code, `${command}: ${err.code === 'ENOENT' ? 'not found' : err.message}`));
    });
    child.on('close', async (code, sig) => {
      settle();
      // A stopped run answers once the rest of its group is gone too (SIGKILL is delivered at once
      // but a loaded machine takes a moment to end a process), so nothing it started outlives it.
      if (ended) await groupGone(child.pid);
      release();
      if (errFd !== null) {
        try {
          stderr = await readErr(child.pid, ended !== undefined);
        } catch (err) {
          tail?.fail(err);
          fifo?.fail(err);
        }
      }
      if (readFailed() !== undefined) {
        reject(readFailed());
      } else if (ended === 'timeout') {
        reject(new RecordingError('toolchain-timeout', `${command} ${args[0] ?? ''}: no answer within ${limitText(options.timeLimitMs)}; stopped it (raise the time limit in settings if the run is long)`));
      } else if (ended === 'cancelled') {
        reject(new RecordingError('cancelled', `${command} ${args[0] ?? ''}: cancelled`));
      } else {
        resolve({ stdout, stderr, exitCode: code ?? (sig ? 128 : 1) });
      }
    });
  });
}

/** Longest a stopped run waits for its group to be gone (a zombie nobody reaps never is). */
const GROUP_GONE_WAIT_MS = 2_000;

async function groupGone(pid: number | undefined): Promise<void> {
  if (pid === undefined || process.platform === 'win32') return;
  const end = Date.now() + GROUP_GONE_WAIT_MS;
  for (;;) {
    try {
      process.kill(-pid, 0);
    } catch {
      return; // ESRCH: no process is left in the group
    }
    if (Date.now() > end) return;
    killGroup(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // already gone
  }
}

function limitText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * Reads a child's stderr file as it grows and hands it over in chunks (ProcessOptions.streamStderr):
 * the reader keeps up with the child on the other core, and only a chunk is held at a time.
 */
class StderrTail {
  private fd = -1;
  private at = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly decoder = new LineDecoder();
  private readonly buffer = Buffer.allocUnsafe(TAIL_CHUNK);
  error: unknown;

  constructor(
    private readonly file: string,
    private readonly take: (text: string) => void,
    private readonly onOutput: ProcessOptions['onOutput'],
  ) {}

  start(stop: () => void): void {
    this.fd = openSync(this.file, 'r');
    this.timer = setInterval(() => {
      try {
        this.drain(TAIL_TURN);
      } catch (err) {
        this.fail(err);
        stop();
      }
    }, TAIL_EVERY_MS);
  }

  fail(err: unknown): void {
    this.error ??= err;
  }

  /** Reads what the child wrote so far, at most `limit` bytes. */
  private drain(limit: number): void {
    if (this.fd < 0 || this.error !== undefined) return;
    for (let got = 0; got < limit; ) {
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, this.at);
      if (n <= 0) return;
      this.at += n;
      got += n;
      this.hand(this.decoder.write(this.buffer.subarray(0, n)));
    }
  }

  private hand(text: string): void {
    if (!text) return;
    this.take(text);
    this.onOutput?.('stderr', text);
  }

  /** The child is gone: the rest of the file, then the file closed. */
  finish(): void {
    clearInterval(this.timer);
    if (this.fd < 0) return;
    try {
      if (this.error === undefined) {
        this.drain(Number.MAX_SAFE_INTEGER);
        this.hand(this.decoder.end());
      }
    } finally {
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}

const TAIL_CHUNK = 1 << 20;
/** Bytes read in one turn of the event loop at most (~10 ms of parsing), so the host stays responsive. */
const TAIL_TURN = 4 << 20;
const TAIL_EVERY_MS = 20;
