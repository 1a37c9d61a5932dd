// A child's output handed over in whole lines: each piece ends at the last line end read so far,
// and the bytes after it wait for the next one. As bytes (LineBytes: machin's probe lines are read
// from them undecoded, probe-bytes.ts) or decoded as UTF-8 (LineDecoder). A parser that kept the
// part of a line a chunk ended in would prepend it to the next chunk, and that concatenation is a
// V8 cons string, on which charCodeAt is 4 to 7 times slower than on the flat string decoded here
// (the instrumented replay prints millions of lines: machin-output.ts reads them char by char).
const NEWLINE = 0x0a;
const NOTHING = new Uint8Array(0);

export class LineBytes {
  /** The bytes read since the last line end (copies: the reader may reuse its buffer). */
  private held: Buffer[] = [];

  /** `bytes` through their last line end, after what was held; empty while no line ends. */
  write(bytes: Uint8Array): Uint8Array {
    const last = bytes.lastIndexOf(NEWLINE);
    if (last < 0) {
      if (bytes.length > 0) this.held.push(Buffer.from(bytes));
      return NOTHING;
    }
    const lines = bytes.subarray(0, last + 1);
    const whole = this.held.length === 0 ? lines : Buffer.concat([...this.held, lines]);
    this.held = last + 1 < bytes.length ? [Buffer.from(bytes.subarray(last + 1))] : [];
    return whole;
  }

  /** The rest: a last line without its line end. */
  end(): Uint8Array {
    const rest = this.held.length === 0 ? NOTHING : Buffer.concat(this.held);
    this.held = [];
    return rest;
  }
}

// Each text decoded ends at a line end, which no UTF-8 sequence spans, so no decoder state is
// carried from one to the next: Buffer's own decoding (about three times StringDecoder's speed).
export class LineDecoder {
  private readonly lines = new LineBytes();

  /** The text of `bytes` through their last line end, after what was held; '' while no line ends. */
  write(bytes: Uint8Array): string {
    return utf8(this.lines.write(bytes));
  }

  /** The rest: a last line without its line end (a sequence it cuts short is U+FFFD). */
  end(): string {
    return utf8(this.lines.end());
  }
}

function utf8(bytes: Uint8Array): string {
  return bytes.length === 0 ? '' : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
