// A column of integers kept in fixed chunks, for what a parse takes before it knows how much will
// come (machin's statement and value probes: millions of lines). A doubling array keeps up to
// half its size unused, and while it grows holds the old and the new copy at once; chunks waste at
// most one chunk and never copy. Values are kept two bytes each while they fit (a goroutine's
// index, a statement number, a name's index: almost always), and the whole column is widened to
// four the first time one does not.

/** Entries per chunk (a power of two: `i >>> CHUNK_BITS` is the chunk, `i & CHUNK_MASK` the place in it). */
export const CHUNK_BITS = 18;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

export class ChunkedColumn {
  private chunks: Array<Uint16Array | Int32Array> = [];
  private wide: boolean;
  length = 0;

  /** `wide`: four bytes an entry from the start (values that do not fit two bytes, such as op counts). */
  constructor(wide = false) {
    this.wide = wide;
  }

  push(v: number): void {
    const at = this.length & CHUNK_MASK;
    if (at === 0) this.chunks.push(this.wide ? new Int32Array(CHUNK) : new Uint16Array(CHUNK));
    if (!this.wide && (v > 0xffff || v < 0)) this.widen();
    this.chunks[this.chunks.length - 1][at] = v;
    this.length++;
  }

  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS][i & CHUNK_MASK];
  }

  /** How many chunks; chunk c holds entries c * 2^CHUNK_BITS onward (the last one up to `length`). */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** Chunk c, cut to the entries it holds. Columns filled in step have their chunks in step. */
  chunk(c: number): Uint16Array | Int32Array {
    const end = Math.min(CHUNK, this.length - c * CHUNK);
    return this.chunks[c].subarray(0, end);
  }

  /**
   * The chunks, each cut to the entries it holds, handed over: the column is empty after, and a
   * chunk's memory goes as soon as its taker drops it (a copy made chunk by chunk never holds the
   * whole column twice).
   */
  takeChunks(): Array<Uint16Array | Int32Array> {
    const chunks = this.chunks.map((_, c) => this.chunk(c));
    this.release();
    return chunks;
  }

  /** Drops the entries and their memory (the column is empty after). */
  release(): void {
    this.chunks = [];
    this.length = 0;
  }

  private widen(): void {
    this.chunks = this.chunks.map((c) => Int32Array.from(c));
    this.wide = true;
  }
}
