// The whole JSON line of a redis@1 result whose key is one command of plain words (redis.ts's
// oneCommand), in one go, as word-line.ts does for clock reads: room for the line is made once
// and the writes go to a local offset; the reply is written there too when it is a nil or a short
// printable bulk string (the commonest answers), else by redisReply or the generic decoder. Written
// through the sink's per-piece calls, such a line took about twice as long, and several times as
// long while V8 had not optimized the writers yet (most of a one-shot `inspect --json`'s start).
import { HEX, piece, type ByteSink } from '../../byte-sink';
import { decodeResult } from '../decode/effect-kinds';
import { put, uintAt } from './line-bytes';
import { oneCommand, redisReply, wordAt, wordEnd } from './redis';

const SEQ = piece('{"seq":');
const KEY = piece(',"kind":"redis@1","key":"');
const IDENT = piece('","outcome":"result","ident":');
const THREAD = piece(',"thread":');
const DATA_HEX = piece(',"dataHex":"');
const DECODED = piece('","decoded":{"key":{"text":"');
const CHILDREN = piece('","type":"redis-command","children":[');
const FIRST_CHILD = piece('{"name":"[');
const NEXT_CHILD = piece(',{"name":"[');
const CHILD_VALUE = piece(']","value":{"text":"\\"');
const CHILD_END = piece('\\"","type":"text"}}');
const RESULT = piece(']},"result":');
const NIL = piece('{"text":"nil","type":"resp-null"}');
const BULK = piece('{"text":"\\"');
const BULK_END = piece('\\"","type":"resp-bulk"}');
const END = piece('}}');

/** A bulk reply's text shown whole by quote() (bytes-text.ts's SHORT_TEXT). */
const SHORT_BULK = 120;
/** Most a line may take of a chunk (the sink's chunk is 128 KiB). */
const MAX_LINE = 64 * 1024;

/**
 * Writes effect r's line when it is such a result (outcome 0; the caller checked) and fits a
 * chunk; false, with nothing written, otherwise. `marks` gets where the line's memo pieces start
 * and end (line-memo.ts): after the seq, before the thread, after the task.
 */
export function writeRedisLine(sink: ByteSink, r: number, task: number, ident: number, body: Uint8Array, keyAt: number, keyLength: number, dataAt: number, dataLength: number, marks: Uint32Array): boolean {
  const keyEnd = keyAt + keyLength;
  const words = oneCommand(body, keyAt, keyEnd);
  if (words === 0) return false;
  // the key's bytes three times (the key, the words joined, each word), the data's in hex, the rest well below 1 KiB
  const room = 1024 + 3 * keyLength + words * 64 + 2 * dataLength + Math.min(dataLength, SHORT_BULK) * 4;
  if (room > MAX_LINE) return false;
  sink.room(room);
  const buf = sink.buf;
  let p = put(buf, sink.pos, SEQ);
  p = uintAt(buf, p, r);
  marks[0] = p;
  p = put(buf, p, KEY);
  // Plain words, digits, colons and spaces need no escape; the final newline is `\n`.
  for (let i = keyAt; i < keyEnd - 1; i++) buf[p++] = body[i];
  buf[p++] = 0x5c;
  buf[p++] = 0x6e;
  p = put(buf, p, IDENT);
  p = uintAt(buf, p, ident);
  marks[1] = p;
  p = put(buf, p, THREAD);
  p = uintAt(buf, p, task);
  marks[2] = p;
  p = put(buf, p, DATA_HEX);
  for (let i = dataAt; i < dataAt + dataLength; i++) {
    const h = HEX[body[i]];
    buf[p++] = h & 0xff;
    buf[p++] = h >> 8;
  }
  p = put(buf, p, DECODED);
  for (let w = 0; w < words; w++) {
    if (w > 0) buf[p++] = 0x20;
    for (let i = wordAt[w]; i < wordEnd[w]; i++) buf[p++] = body[i];
  }
  p = put(buf, p, CHILDREN);
  for (let w = 0; w < words; w++) {
    p = put(buf, p, w > 0 ? NEXT_CHILD : FIRST_CHILD);
    p = uintAt(buf, p, w);
    p = put(buf, p, CHILD_VALUE);
    // a plain word has no byte quote() or JSON escapes, and is at most 120 bytes (not cut)
    for (let i = wordAt[w]; i < wordEnd[w]; i++) buf[p++] = body[i];
    p = put(buf, p, CHILD_END);
  }
  p = put(buf, p, RESULT);
  const end = replyAt(buf, p, body, dataAt, dataAt + dataLength);
  if (end >= 0) p = end;
  else {
    sink.pos = p;
    if (!redisReply(sink, body, dataAt, dataAt + dataLength)) {
      sink.text(JSON.stringify(decodeResult('redis@1', body.subarray(keyAt, keyEnd), body.subarray(dataAt, dataAt + dataLength), 0, ident)));
    }
    p = sink.pos;
    // redisReply and text() stay in the chunk the room was made in unless the text is long
    if (sink.buf !== buf) {
      sink.ascii('}}');
      marks[0] = marks[1] = marks[2] = 0;
      return true;
    }
  }
  sink.pos = put(buf, p, END);
  return true;
}

/**
 * The decoded reply at p when it is `$-1\r\n` or a bulk string of printable ASCII of at most
 * SHORT_BULK bytes (redisReply's text for them); the new offset, or -1 with nothing written.
 */
function replyAt(buf: Uint8Array, p: number, b: Uint8Array, from: number, to: number): number {
  if (to - from < 5 || b[from] !== 0x24) return -1;
  if (to - from === 5 && b[from + 1] === 0x2d && b[from + 2] === 0x31 && b[from + 3] === 0x0d && b[from + 4] === 0x0a) return put(buf, p, NIL);
  let n = 0;
  let i = from + 1;
  for (; i < to && i - from <= 4; i++) {
    const c = b[i];
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
  }
  // `$N\r\n`, N without a leading zero (unless it is 0), then N bytes and `\r\n` to the end
  if (i === from + 1 || (b[from + 1] === 0x30 && i > from + 2) || b[i] !== 0x0d || b[i + 1] !== 0x0a) return -1;
  const at = i + 2;
  if (n > SHORT_BULK || at + n + 2 !== to || b[to - 2] !== 0x0d || b[to - 1] !== 0x0a) return -1;
  for (let j = at; j < at + n; j++) {
    const c = b[j];
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
  }
  p = put(buf, p, BULK);
  for (let j = at; j < at + n; j++) buf[p++] = b[j];
  return put(buf, p, BULK_END);
}
