// Fast writers of inspect --json for small keys and results (the table of capsule kinds,
// decode/kinds.ts, names them): a select's site, a path, random bytes. Each writes the same text
// as JSON.stringify of the generic decoder's value, or returns false before writing.
import type { ByteSink } from '../../byte-sink';
import { jsonOfQuotedAscii, jsonUtf8Body, printableAscii } from '../../json-bytes';

/** A select's site (`file.tin:LINE`) shown as is when it is plain ASCII (decodeKey's plain()). */
export function siteKey(sink: ByteSink, b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] < 0x20 || b[i] > 0x7e) return false;
  sink.ascii('{"text":"');
  jsonUtf8Body(sink, b, from, to);
  sink.ascii('","type":"site"}');
  return true;
}

/** A path (quote of its text, decodeKey's pathKey) when it is printable ASCII. */
export function pathKey(sink: ByteSink, b: Uint8Array, from: number, to: number): boolean {
  if (!printableAscii(b, from, to)) return false;
  sink.ascii('{"text":');
  jsonOfQuotedAscii(sink, b, from, to);
  sink.ascii(',"type":"path"}');
  return true;
}

/** seal.random@1's bytes: all of them in hex, and how many (empty ones take the generic path). */
export function randomBytes(sink: ByteSink, b: Uint8Array, at: number, length: number): boolean {
  if (length === 0) return false;
  sink.ascii('{"text":"');
  sink.hex(b, at, at + length);
  sink.ascii(' (');
  sink.uint(length);
  sink.ascii(' random bytes)","type":"hex"}');
  return true;
}

