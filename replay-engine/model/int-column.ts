// A growable typed column: the statement probes and index being built (machin/source/), the value
// histories being built (probe-histories.ts).

/** A growable Int32 column: doubling, so building stays linear. */
export class Column {
  private data: Int32Array;
  length = 0;
  constructor(initial = 64) {
    this.data = new Int32Array(initial);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(Math.max(64, this.data.length * 2));
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  /** Room for `extra` more entries: the buffer to write them into from `length` on (then set `length`; valid until the next push). */
  reserve(extra: number): Int32Array {
    const need = this.length + extra;
    if (need > this.data.length) {
      const bigger = new Int32Array(Math.max(64, this.data.length * 2, need));
      bigger.set(this.data.subarray(0, this.length));
      this.data = bigger;
    }
    return this.data;
  }
  /** Drops the entries and their buffer (the column is empty after). */
  release(): void {
    this.data = new Int32Array(0);
    this.length = 0;
  }
  get(i: number): number {
    return this.data[i];
  }
  /** The entries so far, without a copy (valid until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
  /** The entries as an array of their own (the column's own buffer when it is exactly full: the column is done then). */
  int32(): Int32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
  uint32(): Uint32Array {
    return this.length === this.data.length ? new Uint32Array(this.data.buffer, this.data.byteOffset, this.length) : new Uint32Array(this.data.buffer.slice(0, this.length * 4));
  }
  /** Two bytes an entry when every value fits. */
  narrow(max: number): Uint16Array | Uint32Array {
    return max < 0x10000 ? Uint16Array.from(this.data.subarray(0, this.length)) : this.uint32();
  }
}
