// Bytes as humans read them: quoted text when the bytes are printable UTF-8, else hex.
import type { DecodedValue } from '../../model/recording';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Longest text shown on one line; the full bytes stay available as the value's children/hex. */
export const SHORT_TEXT = 120;

/** The bytes as UTF-8 text, or undefined when they are not valid UTF-8 or hold control bytes other than tab/CR/LF. */
export function printableText(bytes: Uint8Array): string | undefined {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) return undefined;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** UTF-8 text, with invalid sequences replaced (for names and keys that are normally text). */
export function looseText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** A one-line quoted form of text, escapes shown, cut to `max` characters. */
export function quote(text: string, max = SHORT_TEXT): string {
  const q = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${q.slice(0, -1)}…" (${text.length} chars)` : q;
}

export function bytesValue(bytes: Uint8Array): DecodedValue {
  if (bytes.length === 0) return { text: 'empty', type: 'empty' };
  const text = printableText(bytes);
  if (text !== undefined) return { text: quote(text), type: 'text' };
  const h = hex(bytes);
  return { text: `${h.length > SHORT_TEXT ? `${h.slice(0, SHORT_TEXT)}…` : h} (${bytes.length} bytes, hex)`, type: 'hex' };
}

/** Text shown as is when it holds no control characters (one line, nothing hidden), else quoted. */
export function plain(text: string): string {
  return /[\x00-\x1f\x7f\u2028\u2029]/.test(text) ? quote(text) : text;
}

export function textValue(text: string, type = 'text'): DecodedValue {
  return { text: quote(text), type };
}

export function child(name: string, value: DecodedValue): { name: string; value: DecodedValue } {
  return { name, value };
}

export function malformed(why: string, bytes: Uint8Array): DecodedValue {
  return { text: `malformed: ${why}`, type: 'malformed', children: [child('bytes', bytesValue(bytes))] };
}
