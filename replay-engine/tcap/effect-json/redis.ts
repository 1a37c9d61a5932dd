// redis@1 as JSON without value trees, for the common shapes only: a key of one command whose
// words are short plain ASCII, and a result of one simple reply (bulk string, simple string,
// integer, nil, error). Anything else returns false before writing, for the generic decoders
// (redis-command.ts, resp.ts), whose text this matches byte for byte.
import { piece, type ByteSink } from '../../byte-sink';
import { jsonOfQuotedAscii, jsonUtf8Body, printableAscii } from '../../json-bytes';
import { SHORT_TEXT } from '../decode/bytes-text';
import { LIST_TEXT_LIMIT, PREVIEW_CHILDREN } from '../decode/long-list';
import { bytesShape, writeBytesText } from './bytes-result';

/** Words per command and joined length the generic path shows in full (long-list.ts), and the longest word quote() shows whole. */
const MAX_WORDS = PREVIEW_CHILDREN;
const MAX_JOINED = LIST_TEXT_LIMIT;
const MAX_WORD = SHORT_TEXT;

/** Words of one command: starts and ends, filled by oneCommand. */
export const wordAt = new Uint32Array(MAX_WORDS);
export const wordEnd = new Uint32Array(MAX_WORDS);

/**
 * The number of words when b[from, to) is one command (`LEN:BYTES` words, spaces, a final `\n`)
 * of plain words (bytes 0x21 to 0x7e but `"` and `\`, at most MAX_WORD), else 0.
 */
export function oneCommand(b: Uint8Array, from: number, to: number): number {
  let pos = from;
  let words = 0;
  let joined = -1;
  while (pos < to) {
    let len = 0;
    const start = pos;
    while (pos < to && b[pos] >= 0x30 && b[pos] <= 0x39 && pos - start < 4) len = len * 10 + (b[pos++] - 0x30);
    if (pos === start || b[pos] !== 0x3a || len === 0 || len > MAX_WORD || words === MAX_WORDS) return 0;
    pos++;
    if (len > to - pos - 1) return 0;
    for (let i = pos; i < pos + len; i++) {
      const c = b[i];
      if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x5c) return 0;
    }
    wordAt[words] = pos;
    wordEnd[words++] = pos + len;
    joined += len + 1;
    pos += len;
    if (b[pos] === 0x0a) return pos + 1 === to && joined <= MAX_JOINED ? words : 0;
    if (b[pos] !== 0x20) return 0;
    pos++;
  }
  return 0;
}

const KEY_HEAD = piece('{"text":"');
const SPACE = piece(' ');
const KEY_CHILDREN = piece('","type":"redis-command","children":[');
const FIRST_CHILD = piece('{"name":"[');
const NEXT_CHILD = piece(',{"name":"[');
const CHILD_VALUE = piece(']","value":{"text":');
const CHILD_END = piece(',"type":"text"}}');
const KEY_END = piece(']}');

/** The decoded key (redisKeyValue) of a one-command key, or false. */
export function redisKey(sink: ByteSink, b: Uint8Array, from: number, to: number): boolean {
  const words = oneCommand(b, from, to);
  if (words === 0) return false;
  sink.put(KEY_HEAD);
  for (let w = 0; w < words; w++) {
    if (w > 0) sink.put(SPACE);
    sink.bytes(b, wordAt[w], wordEnd[w]);
  }
  sink.put(KEY_CHILDREN);
  for (let w = 0; w < words; w++) {
    sink.put(w > 0 ? NEXT_CHILD : FIRST_CHILD);
    sink.uint(w);
    sink.put(CHILD_VALUE);
    jsonOfQuotedAscii(sink, b, wordAt[w], wordEnd[w]);
    sink.put(CHILD_END);
  }
  sink.put(KEY_END);
  return true;
}

/** The offset of the first CRLF in b[from, to), or -1. */
function crlf(b: Uint8Array, from: number, to: number): number {
  for (let i = from; i + 1 < to; i++) if (b[i] === 0x0d && b[i + 1] === 0x0a) return i;
  return -1;
}

/** Whether b[from, to) is an integer whose BigInt digits are the same bytes (`0`, `-12`; not `+1`, `007`). */
function canonicalInteger(b: Uint8Array, from: number, to: number): boolean {
  let i = from;
  if (b[i] === 0x2d) i++;
  if (i === to || to - i > 18) return false;
  if (b[i] === 0x30) return to - i === 1 && i === from;
  for (; i < to; i++) if (b[i] < 0x30 || b[i] > 0x39) return false;
  return true;
}

const TEXT = piece('{"text":');
const BULK_END = piece(',"type":"resp-bulk"}');

/** The decoded result (respValue) of one simple reply that fills b[from, to), or false. */
export function redisReply(sink: ByteSink, b: Uint8Array, from: number, to: number): boolean {
  if (to - from < 3) return false;
  const type = b[from];
  const eol = crlf(b, from + 1, to);
  if (eol < 0) return false;
  const lineEnd = eol + 2;
  if (type === 0x24) {
    // `$N\r\nBYTES\r\n` or `$-1\r\n`
    if (eol - from === 3 && b[from + 1] === 0x2d && b[from + 2] === 0x31) {
      if (lineEnd !== to) return false;
      sink.ascii('{"text":"nil","type":"resp-null"}');
      return true;
    }
    let n = 0;
    for (let i = from + 1; i < eol; i++) {
      const c = b[i];
      if (c < 0x30 || c > 0x39 || i - from > 9) return false;
      n = n * 10 + (c - 0x30);
    }
    if (eol === from + 1 || lineEnd + n + 2 !== to || b[to - 2] !== 0x0d || b[to - 1] !== 0x0a) return false;
    const shape = bytesShape(b, lineEnd, lineEnd + n);
    if (shape === undefined) return false;
    sink.put(TEXT);
    if (shape === 'empty') sink.ascii('"\\"\\""');
    else writeBytesText(sink, b, lineEnd, lineEnd + n, shape);
    sink.put(BULK_END);
    return true;
  }
  if (lineEnd !== to) return false;
  if (type === 0x2b) {
    // `+TEXT`: quoted
    if (!printableAscii(b, from + 1, eol)) return false;
    sink.ascii('{"text":');
    jsonOfQuotedAscii(sink, b, from + 1, eol);
    sink.ascii(',"type":"resp-simple"}');
    return true;
  }
  if (type === 0x3a) {
    if (!canonicalInteger(b, from + 1, eol)) return false;
    sink.ascii('{"text":"');
    sink.bytes(b, from + 1, eol);
    sink.ascii('","type":"resp-integer"}');
    return true;
  }
  if (type === 0x2d) {
    // `-ERR text`: as is, after `error `
    if (!printableAscii(b, from + 1, eol)) return false;
    sink.ascii('{"text":"error ');
    jsonUtf8Body(sink, b, from + 1, eol);
    sink.ascii('","type":"resp-error"}');
    return true;
  }
  return false;
}
