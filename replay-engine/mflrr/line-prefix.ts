// What the reader can say about the start of a line whose end it has not seen (yet): a cut last
// line is ignored only when a valid line can start that way, and a damaged line is refused as soon
// as its first bytes show it, never after buffering all of it. The one cut-line rule: the trace
// reader asks it of bytes, the language server of the document's last line (cutLineIgnored).
import { HEADER_KEYWORDS } from './header';
import { HEX_VALUE } from './hex';
import { latin1, MAX_ID_BYTES } from './goroutine-table';
import { CR, SP, TAG_I, TAG_S } from './trace-bytes';


/** Why buf[p, end) cannot be the start of a valid trace line, or '' when it can. */
export function cutPrefixProblem(buf: Uint8Array, p: number, end: number, firstLine: boolean): string {
  const len = end - p;
  if (len === 0) return '';
  if (firstLine) return len > 64 ? 'the first line is not `MFLRR 1`' : '';
  const tag = buf[p];
  if (tag === TAG_S || tag === TAG_I) {
    if (len === 1) return '';
    if (buf[p + 1] !== SP) return `unknown record tag starting \`${shorten(latin1(buf, p, Math.min(end, p + 20)))}\``;
    let q = p + 2;
    while (q < end && (buf[q] === 46 || (buf[q] >= 48 && buf[q] <= 57))) q++;
    if (q - p - 2 > MAX_ID_BYTES) return 'a goroutine id longer than 1024 bytes';
    if (q === end) return '';
    if (buf[q] === CR && q + 1 === end) return '';
    if (tag === TAG_S) return `a malformed goroutine id \`${shorten(latin1(buf, p + 2, Math.min(end, q + 1)))}\``;
    if (buf[q] !== SP) return `a malformed goroutine id \`${shorten(latin1(buf, p + 2, Math.min(end, q + 1)))}\``;
    for (let i = q + 1; i < end; i++) {
      if (HEX_VALUE[buf[i]] < 0 && !(buf[i] === CR && i + 1 === end)) return `bad hex in the payload: ${describeByte(buf[i])} is not a hex digit`;
    }
    return '';
  }
  const text = latin1(buf, p, Math.min(end, p + 16));
  for (const k of HEADER_KEYWORDS) {
    if ((k + ' ').startsWith(text) || text.startsWith(k + ' ')) return len > 65536 ? `a \`${k}\` line longer than 64 KB` : '';
  }
  return `unknown record tag starting \`${shorten(text)}\``;
}

/**
 * Whether a last line without its line break (the text as the editor holds it) is a cut line that
 * replay ignores with a warning, rather than a damaged one: the reader's rule, for text.
 */
export function cutLineIgnored(text: string, firstLine: boolean): boolean {
  // Latin-1 as the reader sees the file; a character beyond it is no byte a valid line holds.
  const bytes = Uint8Array.from(text, (c) => Math.min(c.charCodeAt(0), 0xff));
  return cutPrefixProblem(bytes, 0, bytes.length, firstLine) === '';
}

export function describeByte(b: number): string {
  return b >= 33 && b < 127 ? `\`${String.fromCharCode(b)}\`` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

export function shorten(s: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?');
  return clean.length > 40 ? clean.slice(0, 40) + '…' : clean;
}
