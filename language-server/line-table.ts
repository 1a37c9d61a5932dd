// Per-line facts of a document in growable typed arrays, spliced in place when lines are
// edited, so an edit costs a rescan of the edited lines plus one memmove, never a re-parse.
import type { LineProblem } from './trace-line';

export class LineTable {
  private kinds: Uint8Array;
  private threads: Int32Array;
  private count = 0;
  /** Problems found by scanning a line, keyed by line. Sparse: most lines have none. */
  problems = new Map<number, LineProblem[]>();

  constructor(capacity = 1024) {
    this.kinds = new Uint8Array(capacity);
    this.threads = new Int32Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  kind(line: number): number {
    return this.kinds[line];
  }

  /** Interned thread of the line, or -1. */
  thread(line: number): number {
    return this.threads[line];
  }

  /** Views of the live arrays (valid until the next splice). */
  get kindArray(): Uint8Array {
    return this.kinds.subarray(0, this.count);
  }

  get threadArray(): Int32Array {
    return this.threads.subarray(0, this.count);
  }

  set(line: number, kind: number, thread: number, problems: LineProblem[] | null): void {
    this.kinds[line] = kind;
    this.threads[line] = thread;
    if (problems) this.problems.set(line, problems);
    else if (this.problems.size > 0) this.problems.delete(line);
  }

  /** Replace `removed` lines at `at` by `added` lines whose facts are then set with set(). */
  splice(at: number, removed: number, added: number): void {
    const delta = added - removed;
    const newCount = this.count + delta;
    if (newCount > this.kinds.length) this.grow(newCount);
    const tail = at + removed;
    if (delta !== 0) {
      this.kinds.copyWithin(at + added, tail, this.count);
      this.threads.copyWithin(at + added, tail, this.count);
    }
    if (this.problems.size > 0) {
      const moved = new Map<number, LineProblem[]>();
      for (const [line, p] of this.problems) {
        if (line < at) moved.set(line, p);
        else if (line >= tail) moved.set(line + delta, p);
      }
      this.problems = moved;
    }
    this.count = newCount;
  }

  private grow(min: number): void {
    const size = Math.max(min, this.kinds.length * 2);
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds.subarray(0, this.count));
    this.kinds = kinds;
    const threads = new Int32Array(size);
    threads.set(this.threads.subarray(0, this.count));
    this.threads = threads;
  }
}
