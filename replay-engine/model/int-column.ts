// A growable typed column: the statement index being built (machin/source/statement-index.ts).
// Its room is made generously and handed over as it is, never copied to size: on this kind of
// host every page first written costs far more than the writing (about 3 ms a MB, measured),
// while room allocated and never written costs no memory at all.

type Entries = Int32Array | Uint16Array;

/** A growable column of integers (Int32 entries, or Uint16 when made with `Uint16Array` and every entry fits). */
export class Column {
  private data: Entries;
  length = 0;
  constructor(
    initial = 64,
    private readonly kind: typeof Int32Array | typeof Uint16Array = Int32Array,
  ) {
    this.data = new kind(initial);
  }
  /** Entries it holds without growing. */
  get capacity(): number {
    return this.data.length;
  }
  push(v: number): void {
    if (this.length === this.data.length) this.ensure(Math.max(64, this.data.length * 2));
    this.data[this.length++] = v;
  }
  /** Room for `extra` more entries: the buffer to write them into from `length` on (then set `length`; valid until the next push). */
  reserve(extra: number): Entries {
    const need = this.length + extra;
    if (need > this.data.length) this.ensure(Math.max(64, this.data.length * 2, need));
    return this.data;
  }
  /** Room for `capacity` entries in all (only the entries so far are copied: the rest is not written). */
  ensure(capacity: number): void {
    if (capacity <= this.data.length) return;
    const bigger = new this.kind(capacity);
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
  /** Drops the entries and their buffer (the column is empty after). */
  release(): void {
    this.data = new this.kind(0);
    this.length = 0;
  }
  get(i: number): number {
    return this.data[i];
  }
  /** The entries so far, without a copy (valid until the next push). */
  view(): Entries {
    return this.data.subarray(0, this.length);
  }
  /** The entries, on the column's own buffer (the column is done then). */
  int32(): Int32Array {
    const d = this.data;
    return d instanceof Int32Array ? d.subarray(0, this.length) : Int32Array.from(d.subarray(0, this.length));
  }
  uint32(): Uint32Array {
    const d = this.data;
    return d instanceof Int32Array ? new Uint32Array(d.buffer, d.byteOffset, this.length) : Uint32Array.from(d.subarray(0, this.length));
  }
  /** Two bytes an entry when every value is below `max` (a Uint16 column as it is; an Int32 one copied), else uint32(). */
  narrow(max: number): Uint16Array | Uint32Array {
    const d = this.data;
    if (d instanceof Uint16Array) return d.subarray(0, this.length);
    if (max >= 0x10000) return this.uint32();
    const out = new Uint16Array(this.length);
    out.set(d.subarray(0, this.length));
    return out;
  }
}
