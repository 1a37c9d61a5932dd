// Runs a toolchain process (machin, tin) the only way Frozen Run ever does: an argument array
// (never a shell), a time limit, cancellation, and output collected for the caller. A cut trace
// makes machin wait forever, so the time limit is not optional.
import { RecordingError } from '../model/errors';

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
   * Write the child's stderr to this new file instead of a pipe, read it back when the child
   * ends (onOutput then gets it in one piece). For a child that makes many small unbuffered
   * writes (machin's probes): through a pipe each one wakes this process, which measured 1.4x
   * slower on 720k probe lines.
   */
  stderrFile?: string;
}

export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const KILL_GRACE_MS = 500;

export async function runProcess(command: string, args: string[], options: ProcessOptions): Promise<ProcessResult> {
  // Loaded on first use: a CLI run that starts no toolchain (--no-toolchain) never pays for it.
  const { spawn } = await import('node:child_process');
  const { openSync, closeSync, readFileSync } = await import('node:fs');
  const errFd = options.stderrFile ? openSync(options.stderrFile, 'wx', 0o600) : null;
  let errOpen = errFd !== null;
  const readErr = () => {
    if (!errOpen) return '';
    errOpen = false;
    closeSync(errFd!);
    return readFileSync(options.stderrFile!, 'utf8');
  };
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      readErr();
      reject(new RecordingError('cancelled', `${command}: cancelled before it started`));
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      shell: false,
      stdio: ['pipe', 'pipe', errFd ?? 'pipe'],
      detached: process.platform !== 'win32', // own process group, so a time limit kills its children too
    });
    let stdout = '';
    let stderr = '';
    let ended: 'timeout' | 'cancelled' | undefined;
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
      if (ended) return;
      ended = why;
      killTree(child.pid, 'SIGTERM');
      setTimeout(() => killTree(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => kill('timeout'), options.timeLimitMs);
    const onAbort = () => kill('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      readErr();
      options.signal?.removeEventListener('abort', onAbort);
      const code = err.code === 'ENOENT' ? 'toolchain-missing' : 'toolchain-failed';
      reject(new RecordingError(code, `${command}: ${err.code === 'ENOENT' ? 'not found' : err.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (errFd !== null) {
        stderr = readErr();
        if (stderr) options.onOutput?.('stderr', stderr);
      }
      if (ended === 'timeout') {
        reject(new RecordingError('toolchain-timeout', `${command} ${args[0] ?? ''}: no answer within ${limitText(options.timeLimitMs)}; stopped it (raise the time limit in settings if the run is long)`));
      } else if (ended === 'cancelled') {
        reject(new RecordingError('cancelled', `${command} ${args[0] ?? ''}: cancelled`));
      } else {
        resolve({ stdout, stderr, exitCode: code ?? (sig ? 128 : 1) });
      }
    });
  });
}

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
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
