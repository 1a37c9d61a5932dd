// Output written as bytes into a chunk buffer that is reused: when it is full it is handed to a
// ChunkTarget (standard output, or a collector for tests), and it comes back to the free list
// when the target says it is done with it. A slow reader therefore costs a few chunks of memory,
// never the whole output, and a fast one costs no allocation per chunk.

/** Where full chunks go; `done` is called once the chunk's bytes may be overwritten. */
export interface ChunkTarget {
  write(chunk: Uint8Array | string, done: () => void): void;
}

export const CHUNK_BYTES = 1 << 17;

/** Text made once as bytes, for put(). */
export function piece(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

/** Two hex digits of each byte as one little-endian 16-bit store. */
export const HEX = new Uint16Array(256);
{
  const digits = '0123456789abcdef';
  // Two hex digits as one little-endian 16-bit store: the first digit in the low byte.
  for (let b = 0; b < 256; b++) HEX[b] = digits.charCodeAt(b >> 4) | (digits.charCodeAt(b & 15) << 8);
}

export class ByteSink {
  buf: Buffer;
  pos = 0;
  /** Set when a chunk was handed to the target since the last clearHandedOff(). */
  handedOff = false;
  private readonly free: Buffer[] = [];

  constructor(
    private readonly target: ChunkTarget,
    private readonly size = CHUNK_BYTES,
  ) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  /** Room for n more bytes (n at most the chunk size), handing the chunk over if needed. */
  room(n: number): void {
    if (this.pos + n > this.size) this.flush();
  }

  flush(): void {
    if (this.pos === 0) return;
    const full = this.buf;
    const n = this.pos;
    this.buf = this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    this.pos = 0;
    this.handedOff = true;
    this.target.write(full.subarray(0, n), () => this.free.push(full));
  }

  /** ASCII text known to be short (a few dozen characters): no encoder call. */
  ascii(s: string): void {
    const n = s.length;
    if (this.pos + n > this.size) this.flush();
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any text, as UTF-8. A text longer than a chunk goes to the target as it is. */
  text(s: string): void {
    if (s.length * 3 > this.size) {
      this.flush();
      this.handedOff = true;
      this.target.write(s, () => undefined);
      return;
    }
    if (this.pos + s.length * 3 > this.size) this.flush();
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** Bytes as they are. */
  bytes(b: Uint8Array, from = 0, to = b.length): void {
    while (from < to) {
      if (this.pos === this.size) this.flush();
      const n = Math.min(to - from, this.size - this.pos);
      // a short run by a loop: set() would need a subarray (an allocation) first
      if (n < 32) {
        const buf = this.buf;
        let p = this.pos;
        for (let i = from; i < from + n; i++) buf[p++] = b[i];
      } else this.buf.set(b.subarray(from, from + n), this.pos);
      this.pos += n;
      from += n;
    }
  }

  /** Bytes made once (a constant piece of JSON). */
  put(piece: Uint8Array): void {
    const n = piece.length;
    if (this.pos + n > this.size) return this.bytes(piece);
    if (n <= 8) {
      const buf = this.buf;
      let p = this.pos;
      for (let i = 0; i < n; i++) buf[p++] = piece[i];
      this.pos = p;
      return;
    }
    // set() is a memory copy: several times faster than a loop over bytes from ~16 bytes on.
    this.buf.set(piece, this.pos);
    this.pos += n;
  }

  /** A non-negative integer below 2^53 in decimal. */
  uint(v: number): void {
    if (this.pos + 16 > this.size) this.flush();
    const buf = this.buf;
    if (v < 0x80000000) {
      // small integers: 32-bit division
      let digits = 1;
      for (let x = v; x >= 10; x = (x / 10) | 0) digits++;
      const end = this.pos + digits;
      let p = end;
      let x = v | 0;
      do {
        buf[--p] = 0x30 + (x % 10);
        x = (x / 10) | 0;
      } while (x > 0);
      this.pos = end;
      return;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    const end = this.pos + digits;
    let p = end;
    let x = v;
    do {
      buf[--p] = 0x30 + (x % 10);
      x = Math.floor(x / 10);
    } while (x > 0);
    this.pos = end;
  }

  /** An integer of magnitude below 2^53 in decimal. */
  int(v: number): void {
    if (v < 0) {
      this.ascii('-');
      this.uint(-v);
    } else this.uint(v);
  }

  /** Lowercase hex of b[from, to), in pieces when it is longer than a chunk. */
  hex(b: Uint8Array, from = 0, to = b.length): void {
    while (from < to) {
      if (this.size - this.pos < 2) this.flush();
      const n = Math.min(to - from, (this.size - this.pos) >> 1);
      const buf = this.buf;
      let p = this.pos;
      for (let i = from; i < from + n; i++) {
        const h = HEX[b[i]];
        buf[p] = h & 0xff;
        buf[p + 1] = h >> 8;
        p += 2;
      }
      this.pos = p;
      from += n;
    }
  }

  clearHandedOff(): void {
    this.handedOff = false;
  }
}

/** A target that keeps copies of every chunk (small documents and tests). */
export class CollectTarget implements ChunkTarget {
  readonly chunks: Buffer[] = [];

  write(chunk: Uint8Array | string, done: () => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
