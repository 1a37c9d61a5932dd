// The recordings the server holds open between tool calls, each with its own replay runtime (the
// debug adapter's cursor and breakpoint table), named by a short handle (`r1`) or by path. A
// recording is read once per file content: opening the same unchanged file again returns the
// same handle, a changed file is read again, and opens of one unchanged file that come while it is
// being read share that one read (30 concurrent opens of a 20 MB capsule hold one copy). A file is
// known by what it is, not by its path: its device and inode, size and modification time, so 30
// links to one capsule share one read too; reads of distinct files take turns (read-slots.ts). At most
// MAX_HELD stay open (least recently used goes), so a long agent session does not grow without
// bound. An open is cancelled (machin's process group ended, its temporary copies removed, no
// handle made) when every request waiting for it is cancelled, or when the server stops.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ReplayRuntime } from '../debug-adapter/runtime';
import { fileError } from '../replay-engine/file-error';
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording } from '../replay-engine/model/recording';
import { openRecording } from '../replay-engine/open';
import type { OpenOptions } from '../replay-engine/open-options';
import type { ClientRoots } from './client-roots';
import { ReadSlots, READS_AT_ONCE } from './read-slots';
import { ThreadIo } from './thread-io';

const MAX_HELD = 8;

export interface HeldRecording {
  handle: string;
  file: string;
  recording: Recording;
  runtime: ReplayRuntime;
  /** Per-thread I/O lists, built on first use. */
  io(): ThreadIo;
  /**
   * Run a move alone: calls on this recording that come meanwhile (a get_state while a long
   * continue runs, a second move) wait for it, so every answer sees a cursor at rest.
   */
  exclusive<T>(run: () => Promise<T>): Promise<T>;
}

/** How an open is asked for: the request's cancel and where its progress goes. */
export interface OpenRequest {
  signal?: AbortSignal;
  progress?: (message: string) => void;
  /** The program to replay a trace against (open_recording's `program`), instead of its `program` line. */
  program?: string;
}

/** A read under way, shared by every request for the same unchanged file. */
interface Reading {
  file: string;
  done: Promise<Entry>;
  controller: AbortController;
  waiters: Set<OpenRequest>;
}

interface Entry extends HeldRecording {
  stamp: string;
  program?: string;
  /** The move under way, or a settled promise. */
  pending: Promise<unknown>;
}

export class HeldRecordings {
  private readonly byHandle = new Map<string, Entry>();
  private readonly reading = new Map<string, Reading>();
  private readonly slots = new ReadSlots();
  private next = 1;
  private stopping = false;
  /** Called when a recording is added or let go (the resource list changed). */
  onChange?: () => void;

  /** `roots`, when given, place a path and bound what may be opened and run (client-roots.ts). */
  constructor(private readonly options: OpenOptions, private readonly roots?: ClientRoots) {}

  /** Open (or return the held copy of) the recording at `path` (a path, `~/…` or a file:// URI). */
  async open(path: string, req: OpenRequest = {}): Promise<HeldRecording> {
    await this.roots?.asking;
    const file = this.roots ? this.roots.resolvePath(path) : resolve(path);
    // The roots first: outside them, whether a file exists is not told (no existence oracle).
    this.roots?.checkOpen(file);
    const stamp = await fileStamp(file);
    let program: string | undefined;
    if (req.program !== undefined) {
      program = this.roots ? this.roots.resolvePath(req.program) : resolve(req.program);
      this.roots?.checkProgram(program, file);
    }
    for (const e of this.byHandle.values()) {
      if (e.stamp === stamp && (program === undefined || e.program === program)) return this.settled(this.touch(e));
    }
    if (this.stopping) throw new RecordingError('cancelled', `${file}: the server is stopping`, { file });
    const key = `${stamp}\0${program ?? ''}`;
    let r = this.reading.get(key);
    if (!r) {
      const controller = new AbortController();
      const waiters = new Set<OpenRequest>();
      const progress = (message: string) => {
        for (const w of waiters) w.progress?.(message);
      };
      const done = this.read(file, stamp, program, controller.signal, progress).finally(() => this.reading.delete(key));
      r = { file, done, controller, waiters };
      this.reading.set(key, r);
    }
    return this.wait(r, req);
  }

  /** Wait for a shared read; a cancelled request leaves it, and the last one to leave cancels it. */
  private wait(r: Reading, req: OpenRequest): Promise<Entry> {
    if (req.signal?.aborted) throw new RecordingError('cancelled', 'open_recording: cancelled');
    r.waiters.add(req);
    req.progress?.(`reading ${r.file}`);
    return new Promise<Entry>((resolveOpen, reject) => {
      const leave = () => {
        r.waiters.delete(req);
        if (r.waiters.size === 0) r.controller.abort();
        reject(new RecordingError('cancelled', 'open_recording: cancelled'));
      };
      req.signal?.addEventListener('abort', leave, { once: true });
      r.done.then(
        (e) => {
          req.signal?.removeEventListener('abort', leave);
          r.waiters.delete(req);
          resolveOpen(e);
        },
        (err: unknown) => {
          req.signal?.removeEventListener('abort', leave);
          r.waiters.delete(req);
          reject(err);
        },
      );
    });
  }

  private async read(file: string, stamp: string, program: string | undefined, signal: AbortSignal, progress: (message: string) => void): Promise<Entry> {
    const programRoots = this.roots ? this.roots.programRoots() : this.options.programRoots;
    await Promise.resolve(); // the first request has joined the read, so it hears that it waits
    const onWait = (ahead: number) => progress(`waiting to be read: ${READS_AT_ONCE} reads under way, ${ahead} waiting before this one`);
    const recording = await this.slots.run(() => openRecording(file, { ...this.options, programRoots, program, signal, onToolchainProgress: progress }), signal, onWait);
    // A cancel that came while machin was ending: no handle is made.
    if (signal.aborted) throw new RecordingError('cancelled', `${file}: open_recording cancelled`, { file });
    progress('indexed: ready');
    // The same file (by path or as the same real file) read before against the same program is let
    // go (it changed); against another program it stays open under its own handle.
    for (const [h, e] of this.byHandle) if ((e.file === file || sameFile(e.stamp, stamp)) && e.program === program) this.byHandle.delete(h);
    let io: ThreadIo | null = null;
    const entry: Entry = {
      handle: `r${this.next++}`,
      file,
      stamp,
      program,
      recording,
      runtime: new ReplayRuntime(recording, { log: () => undefined }),
      io: () => (io ??= new ThreadIo(recording.timeline)),
      pending: Promise.resolve(),
      exclusive<T>(run: () => Promise<T>): Promise<T> {
        const p = this.pending.then(run);
        this.pending = p.catch(() => undefined);
        return p;
      },
    };
    this.byHandle.set(entry.handle, entry);
    while (this.byHandle.size > MAX_HELD) this.byHandle.delete(this.byHandle.keys().next().value as string);
    this.onChange?.();
    return entry;
  }

  /** Where a path an agent gives points: a file:// URI, `~/…`, absolute, or relative to the client's first root (client-roots.ts). */
  resolvePath(path: string): string {
    return this.roots ? this.roots.resolvePath(path) : resolve(path);
  }

  /** A handle from open_recording, or a path (opened on first use). */
  async get(ref: string): Promise<HeldRecording> {
    const held = this.byHandle.get(ref);
    if (held) {
      this.checkStillInRoots(held);
      return this.settled(this.touch(held));
    }
    if (/^r\d+$/.test(ref)) {
      throw new RecordingError('usage', `no open recording ${ref} (open: ${[...this.byHandle.keys()].join(', ') || 'none'}); call open_recording with the file's path`);
    }
    return this.open(ref);
  }

  /**
   * A handle opened before the client's roots narrowed, whose file is now outside them, is closed
   * on its next use, with an error that says so (as a new open of it would be refused).
   */
  private checkStillInRoots(e: Entry): void {
    try {
      this.roots?.checkOpen(e.file);
    } catch (err) {
      this.byHandle.delete(e.handle);
      this.onChange?.();
      const why = err instanceof Error ? err.message : String(err);
      throw new RecordingError('usage', `${e.handle} is closed: the client's roots changed since it was opened, and ${why}`, { file: e.file });
    }
  }

  close(ref: string): boolean {
    let file: string | null = null;
    try {
      file = this.roots ? this.roots.resolvePath(ref) : resolve(ref);
    } catch {
      // not a path: only a handle can match
    }
    for (const [h, e] of this.byHandle) {
      if (h === ref || e.file === file) {
        this.byHandle.delete(h);
        this.onChange?.();
        return true;
      }
    }
    return false;
  }

  /** The server is stopping: cancel every open under way (machin's groups end) and wait for them. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    const all = [...this.reading.values()];
    for (const r of all) r.controller.abort();
    await Promise.all(all.map((r) => r.done.catch(() => undefined)));
  }

  /** How many opens are under way. */
  get opening(): number {
    return this.reading.size;
  }

  /** The open recordings, most recently used last (for resources/list). */
  get held(): HeldRecording[] {
    return [...this.byHandle.values()];
  }

  get handles(): string[] {
    return [...this.byHandle.keys()];
  }

  private async settled(e: Entry): Promise<Entry> {
    await e.pending;
    return e;
  }

  private touch(e: Entry): Entry {
    this.byHandle.delete(e.handle);
    this.byHandle.set(e.handle, e);
    return e;
  }
}

async function fileStamp(file: string): Promise<string> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    throw fileError(file, err);
  }
}

/** Two stamps of one file (device and inode), whatever its size and time. */
function sameFile(a: string, b: string): boolean {
  return a.split(':', 2).join(':') === b.split(':', 2).join(':');
}
