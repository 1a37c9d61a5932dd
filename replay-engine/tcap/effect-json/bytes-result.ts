// bytes-text.ts's bytesValue as JSON, written without a value tree or a string of the bytes:
// empty, printable ASCII (quoted, cut at 120 characters) or hex (cut at 120 digits). Printable
// text beyond ASCII is left to the generic path (its cut counts UTF-16 units).
import { isUtf8 } from 'node:buffer';
import type { ByteSink } from '../../byte-sink';
import { jsonOfQuotedAscii } from '../../json-bytes';

/** bytesValue's hex text shows at most this many digits (SHORT_TEXT). */
const HEX_SHOWN = 120;

/** The bytes' kind of text for bytesValue, or undefined when only the generic path can say. */
export function bytesShape(b: Uint8Array, from: number, to: number): 'empty' | 'text' | 'hex' | undefined {
  if (from === to) return 'empty';
  let high = false;
  for (let i = from; i < to; i++) {
    const c = b[i];
    if (c >= 0x80) high = true;
    else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return 'hex';
  }
  if (!high) return 'text';
  // Printable text beyond ASCII, or not UTF-8 at all (then hex).
  return isUtf8(b.subarray(from, to)) ? undefined : 'hex';
}

/** The JSON string of bytesValue(b[from, to)).text, for a shape bytesShape gave. */
export function writeBytesText(sink: ByteSink, b: Uint8Array, from: number, to: number, shape: 'empty' | 'text' | 'hex'): void {
  if (shape === 'empty') sink.ascii('"empty"');
  else if (shape === 'text') jsonOfQuotedAscii(sink, b, from, to);
  else {
    const n = to - from;
    sink.ascii('"');
    if (2 * n > HEX_SHOWN) {
      sink.hex(b, from, from + HEX_SHOWN / 2);
      sink.text('…');
    } else sink.hex(b, from, to);
    sink.ascii(' (');
    sink.uint(n);
    sink.ascii(' bytes, hex)"');
  }
}

/**
 * bytesValue's text as it is inside another JSON string (writeBytesText's without its outer
 * quotes: written, then moved one byte back over its opening quote), at the sink's offset; its
 * length. The caller made room for it, so it stays in this chunk and can be copied from there.
 */
export function innerBytesText(sink: ByteSink, b: Uint8Array, from: number, to: number, shape: 'empty' | 'text' | 'hex'): number {
  const at = sink.pos;
  writeBytesText(sink, b, from, to, shape);
  const inner = sink.pos - 2 - at;
  sink.buf.copyWithin(at, at + 1, at + 1 + inner);
  sink.pos = at + inner;
  return inner;
}

/** The type bytesValue gives a shape, as the end of its JSON object. */
export function bytesTypeEnd(shape: 'empty' | 'text' | 'hex'): string {
  return shape === 'empty' ? ',"type":"empty"}' : shape === 'text' ? ',"type":"text"}' : ',"type":"hex"}';
}

/**
 * The rest of the bytes' value after its `{"text":"`: the inner text innerBytesText wrote at
 * `at` (`inner` bytes, in this chunk) again, the closing quote and the type.
 */
export function bytesValueAgain(sink: ByteSink, at: number, inner: number, shape: 'empty' | 'text' | 'hex'): void {
  sink.buf.copyWithin(sink.pos, at, at + inner);
  sink.pos += inner;
  sink.ascii('"');
  sink.ascii(bytesTypeEnd(shape));
}

/** `{"text":…,"type":…}` of bytesValue, or false (nothing written) for the generic path. */
export function bytesResult(sink: ByteSink, b: Uint8Array, from: number, to: number): boolean {
  const shape = bytesShape(b, from, to);
  if (shape === undefined) return false;
  sink.ascii('{"text":');
  writeBytesText(sink, b, from, to, shape);
  sink.ascii(bytesTypeEnd(shape));
  return true;
}
