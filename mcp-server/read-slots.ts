// How many recordings the server reads at once (issue 31, 6): each read holds its file in memory
// (a capsule whole, up to the capsule size limit), so 30 opens of distinct 20 MB files at once
// held 30 copies. A read takes a slot; the others wait in order for one, and a read cancelled
// while it waits leaves the queue without reading a byte.
import { RecordingError } from '../replay-engine/model/errors';

/** Reads of distinct files under way at once. */
export const READS_AT_ONCE = 2;

export class ReadSlots {
  private busy = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly size = READS_AT_ONCE) {}

  /** How many reads wait for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Run `read` in a slot, waiting for one first (`onWait` is told when it must); a cancel while waiting rejects. */
  async run<T>(read: () => Promise<T>, signal?: AbortSignal, onWait?: (ahead: number) => void): Promise<T> {
    if (this.busy >= this.size) {
      onWait?.(this.queue.length);
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        };
        const cancel = () => {
          const i = this.queue.indexOf(go);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new RecordingError('cancelled', 'open_recording: cancelled while waiting to be read'));
        };
        if (signal?.aborted) return cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        this.queue.push(go);
      });
    } else {
      this.busy++;
    }
    try {
      return await read();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.busy--;
    }
  }
}
