// JSON strings written straight into a ByteSink from the recording's bytes, with the escapes
// JSON.stringify makes (so the text is the same, not only its meaning): `"` `\` and the control
// characters below 0x20 (\b \t \n \f \r, the others as \u00xx); every other character as is.
import { piece, type ByteSink } from './byte-sink';

/** Per byte below 0x80: 0 as is, else the character after the backslash (`u` for \u00xx). */
const ESCAPE = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ESCAPE[c] = 0x75; // u
ESCAPE[0x08] = 0x62; // b
ESCAPE[0x09] = 0x74; // t
ESCAPE[0x0a] = 0x6e; // n
ESCAPE[0x0c] = 0x66; // f
ESCAPE[0x0d] = 0x72; // r
ESCAPE[0x22] = 0x22; // "
ESCAPE[0x5c] = 0x5c; // \

const HEX_DIGIT = '0123456789abcdef';

/** `"…"`: the JSON string of bytes b[from, to), which must be valid UTF-8. */
export function jsonUtf8String(sink: ByteSink, b: Uint8Array, from = 0, to = b.length): void {
  sink.room(1);
  sink.buf[sink.pos++] = 0x22;
  jsonUtf8Body(sink, b, from, to);
  sink.room(1);
  sink.buf[sink.pos++] = 0x22;
}

/** The same without the quotes: valid UTF-8 bytes, escaped as inside a JSON string. */
export function jsonUtf8Body(sink: ByteSink, b: Uint8Array, from: number, to: number): void {
  // A short text (a key, a word) in one go: at most 6 bytes a byte (\u00xx), room made once.
  if ((to - from) * 6 <= 4096) {
    sink.room((to - from) * 6);
    const buf = sink.buf;
    let p = sink.pos;
    for (let i = from; i < to; i++) {
      const c = b[i];
      const e = c < 0x80 ? ESCAPE[c] : 0;
      if (e === 0) buf[p++] = c;
      else if (e !== 0x75) {
        buf[p++] = 0x5c;
        buf[p++] = e;
      } else {
        buf[p++] = 0x5c;
        buf[p++] = 0x75;
        buf[p++] = 0x30;
        buf[p++] = 0x30;
        buf[p++] = HEX_DIGIT.charCodeAt(c >> 4);
        buf[p++] = HEX_DIGIT.charCodeAt(c & 15);
      }
    }
    sink.pos = p;
    return;
  }
  let i = from;
  while (i < to) {
    // The longest piece that needs no escape, copied as is.
    let j = i;
    while (j < to) {
      const c = b[j];
      if (c < 0x80 && ESCAPE[c] !== 0) break;
      j++;
    }
    if (j > i) sink.bytes(b, i, j);
    if (j === to) break;
    escapeByte(sink, b[j]);
    i = j + 1;
  }
}

/** Whether b[from, to) is ASCII (so valid UTF-8, without asking isUtf8). */
export function isAscii(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] >= 0x80) return false;
  return true;
}

function escapeByte(sink: ByteSink, c: number): void {
  sink.room(6);
  const buf = sink.buf;
  buf[sink.pos++] = 0x5c;
  const e = ESCAPE[c];
  if (e !== 0x75) {
    buf[sink.pos++] = e;
    return;
  }
  buf[sink.pos++] = 0x75;
  buf[sink.pos++] = 0x30;
  buf[sink.pos++] = 0x30;
  buf[sink.pos++] = HEX_DIGIT.charCodeAt(c >> 4);
  buf[sink.pos++] = HEX_DIGIT.charCodeAt(c & 15);
}

/** Whether b[from, to) is printable ASCII: 0x20 to 0x7e, tab, LF and CR. */
export function printableAscii(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i];
    if (c > 0x7e || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)) return false;
  }
  return true;
}

/** Longest text that quote() shows before it cuts (bytes-text.ts's SHORT_TEXT). */
const QUOTE_MAX = 120;

/**
 * The JSON string of `quote(text)` (bytes-text.ts), for bytes that are printableAscii: the text
 * JSON-quoted (and cut to QUOTE_MAX characters, with its length), then quoted again as a JSON
 * value. `"` becomes `\\\"`, a newline `\\n`.
 */
export function jsonOfQuotedAscii(sink: ByteSink, b: Uint8Array, from: number, to: number): void {
  const cut = to - from > QUOTE_MAX;
  const end = cut ? from + QUOTE_MAX : to;
  sink.put(OPEN_QUOTED);
  // At most 4 bytes a character (`"` becomes `\\\"`): room for all of them at once.
  sink.room(4 * (end - from));
  const buf = sink.buf;
  let p = sink.pos;
  for (let i = from; i < end; i++) {
    const c = b[i];
    const e = c === 0x22 ? 0x22 : c === 0x5c ? 0x5c : c === 0x0a ? 0x6e : c === 0x0d ? 0x72 : c === 0x09 ? 0x74 : 0;
    if (e === 0) {
      buf[p++] = c;
      continue;
    }
    // the inner escape's backslash, escaped; then `\"` or `\\` (both escaped again) or the letter
    buf[p++] = 0x5c;
    buf[p++] = 0x5c;
    if (e === 0x22 || e === 0x5c) buf[p++] = 0x5c;
    buf[p++] = e;
  }
  sink.pos = p;
  if (cut) {
    sink.text('…\\" (');
    sink.uint(to - from);
    sink.ascii(' chars)"');
  } else sink.put(CLOSE_QUOTED);
}

const OPEN_QUOTED = piece('"\\"');
const CLOSE_QUOTED = piece('\\""');

/** Any text as a JSON string (JSON.stringify's own escapes). */
export function jsonString(sink: ByteSink, s: string): void {
  sink.text(JSON.stringify(s));
}
