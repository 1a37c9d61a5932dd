// A child's output, decoded as UTF-8 and handed over in whole lines: each text ends at the last
// line end read so far, and the bytes after it wait for the next one. A parser that kept the part
// of a line a chunk ended in would prepend it to the next chunk, and that concatenation is a V8
// cons string, on which charCodeAt is 4 to 7 times slower than on the flat string decoded here
// (the instrumented replay prints millions of lines: machin-output.ts reads them char by char).
import { StringDecoder } from 'node:string_decoder';

const NEWLINE = 0x0a;

export class LineDecoder {
  private readonly decoder = new StringDecoder('utf8');
  /** The bytes read since the last line end (copies: the reader may reuse its buffer). */
  private held: Buffer[] = [];

  /** The text of `bytes` through their last line end, after what was held; '' while no line ends. */
  write(bytes: Uint8Array): string {
    const last = bytes.lastIndexOf(NEWLINE);
    if (last < 0) {
      if (bytes.length > 0) this.held.push(Buffer.from(bytes));
      return '';
    }
    const lines = bytes.subarray(0, last + 1);
    const text = this.decoder.write(this.held.length === 0 ? lines : Buffer.concat([...this.held, lines]));
    this.held = last + 1 < bytes.length ? [Buffer.from(bytes.subarray(last + 1))] : [];
    return text;
  }

  /** The rest: a last line without its line end, and any bytes the decoder still holds. */
  end(): string {
    const rest = this.held.length === 0 ? '' : this.decoder.write(Buffer.concat(this.held));
    this.held = [];
    return rest + this.decoder.end();
  }
}
