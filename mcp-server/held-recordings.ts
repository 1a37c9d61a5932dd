// The recordings the server holds open between tool calls, each with its own replay runtime (the
// debug adapter's cursor and breakpoint table), named by a short handle (`r1`) or by path. A
// recording is read once per file content: opening the same unchanged file again returns the
// same handle, a changed file is read again. At most MAX_HELD stay open (least recently used
// goes), so a long agent session does not grow without bound.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ReplayRuntime } from '../debug-adapter/runtime';
import { fileError } from '../replay-engine/file-error';
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording } from '../replay-engine/model/recording';
import { openRecording } from '../replay-engine/open';
import type { OpenOptions } from '../replay-engine/open-options';
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

interface Entry extends HeldRecording {
  stamp: string;
  /** The move under way, or a settled promise. */
  pending: Promise<unknown>;
}

export class HeldRecordings {
  private readonly byHandle = new Map<string, Entry>();
  private next = 1;

  constructor(private readonly options: OpenOptions) {}

  /** Open (or return the held copy of) the recording at `path`. */
  async open(path: string): Promise<HeldRecording> {
    const file = resolve(path);
    const stamp = await fileStamp(file);
    for (const e of this.byHandle.values()) {
      if (e.file === file && e.stamp === stamp) return this.settled(this.touch(e));
    }
    const recording = await openRecording(file, this.options);
    for (const [h, e] of this.byHandle) if (e.file === file) this.byHandle.delete(h);
    let io: ThreadIo | null = null;
    const entry: Entry = {
      handle: `r${this.next++}`,
      file,
      stamp,
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
    return entry;
  }

  /** A handle from open_recording, or a path (opened on first use). */
  async get(ref: string): Promise<HeldRecording> {
    const held = this.byHandle.get(ref);
    if (held) return this.settled(this.touch(held));
    if (/^r\d+$/.test(ref)) {
      throw new RecordingError('usage', `no open recording ${ref} (open: ${[...this.byHandle.keys()].join(', ') || 'none'}); call open_recording with the file's path`);
    }
    return this.open(ref);
  }

  close(ref: string): boolean {
    for (const [h, e] of this.byHandle) {
      if (h === ref || e.file === resolve(ref)) {
        this.byHandle.delete(h);
        return true;
      }
    }
    return false;
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
    const s = await stat(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch (err) {
    throw fileError(file, err);
  }
}
