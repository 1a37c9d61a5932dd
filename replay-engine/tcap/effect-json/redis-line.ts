// The whole JSON line of a redis@1 result whose key is one command of plain words (redis.ts's
// oneCommand), in one go, as word-line.ts does for clock reads: room for the line is made once
// and the writes go to a local offset; the reply is written there too when it is a nil or a short
// printable bulk string (the commonest answers), else by redisReply or the generic decoder. Written
// through the sink's per-piece calls, such a line took about twice as long, and several times as
// long while V8 had not optimized the writers yet (most of a one-shot `inspect --json`'s start).
import { piece, type ByteSink } from '../../byte-sink';
import { decodeResult } from '../decode/effect-kinds';
import { copyAt, hexAt, put, uintAt } from './line-bytes';
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

/** The last line written whole with a reply of its own (nil, short bulk), and where its holes are (offsets from its start). */
interface RedisTemplate {
  bytes: Uint8Array;
  words: number;
  wordLength: Uint32Array;
  keyLength: number;
  dataLength: number;
  /** replyShape's answer: -1 nil, else the bulk's length. */
  reply: number;
  seqAt: number;
  seqLength: number;
  keyAt: number;
  identAt: number;
  identLength: number;
  taskAt: number;
  taskLength: number;
  hexAt: number;
  joinedAt: number;
  childAt: Uint32Array;
  valueAt: number;
}

/**
 * One capsule's Redis lines. A line whose every hole (seq, ident and task widths, each word's
 * length, the data's length, the reply's shape) has the length the last whole line's had is
 * that line copied once with its holes written again, as word-line.ts's templates do: a line
 * of 16 constant pieces cost about 16 copies of about 50 ns each.
 */
export class RedisLines {
  private template: RedisTemplate | undefined = undefined;

  /**
   * Writes effect r's line when it is such a result (outcome 0; the caller checked) and fits a
   * chunk; false, with nothing written, otherwise. `marks` gets where the line's memo pieces
   * start and end (line-memo.ts): after the seq, before the thread, after the task; all 0 when
   * the line may not be kept.
   */
  write(sink: ByteSink, r: number, task: number, ident: number, body: Uint8Array, keyAt: number, keyLength: number, dataAt: number, dataLength: number, marks: Uint32Array): boolean {
    const keyEnd = keyAt + keyLength;
    const words = oneCommand(body, keyAt, keyEnd);
    if (words === 0) return false;
    // the key's bytes three times (the key, the words joined, each word), the data's in hex, the rest well below 1 KiB
    const room = 1024 + 3 * keyLength + words * 64 + 2 * dataLength + Math.min(dataLength, SHORT_BULK) * 4;
    if (room > MAX_LINE) return false;
    sink.room(room);
    const reply = replyShape(body, dataAt, dataAt + dataLength);
    const t = this.template;
    const start = sink.pos;
    if (t && reply >= -1 && fits(t, words, keyLength, dataLength, reply) && fromTemplate(sink.buf, start, t, r, task, ident, body, keyAt, dataAt, marks)) {
      sink.pos = start + t.bytes.length;
      return true;
    }
    this.writeWhole(sink, r, task, ident, body, keyAt, keyLength, dataAt, dataLength, words, reply, marks);
    return true;
  }

  private writeWhole(sink: ByteSink, r: number, task: number, ident: number, body: Uint8Array, keyAt: number, keyLength: number, dataAt: number, dataLength: number, words: number, reply: number, marks: Uint32Array): void {
    const keyEnd = keyAt + keyLength;
    const buf = sink.buf;
    const start = sink.pos;
    let p = put(buf, start, SEQ);
    const seqAt = p;
    p = uintAt(buf, p, r);
    const seqEnd = p;
    marks[0] = p;
    p = put(buf, p, KEY);
    const keyCopyAt = p;
    // Plain words, digits, colons and spaces need no escape; the final newline is `\n`.
    p = copyAt(buf, p, body, keyAt, keyEnd - 1);
    buf[p++] = 0x5c;
    buf[p++] = 0x6e;
    p = put(buf, p, IDENT);
    const identAt = p;
    p = uintAt(buf, p, ident);
    const identEnd = p;
    marks[1] = p;
    p = put(buf, p, THREAD);
    const taskAt = p;
    p = uintAt(buf, p, task);
    const taskEnd = p;
    marks[2] = p;
    p = put(buf, p, DATA_HEX);
    const hexStart = p;
    p = hexAt(buf, p, body, dataAt, dataAt + dataLength);
    p = put(buf, p, DECODED);
    const joinedAt = p;
    for (let w = 0; w < words; w++) {
      if (w > 0) buf[p++] = 0x20;
      p = copyAt(buf, p, body, wordAt[w], wordEnd[w]);
    }
    p = put(buf, p, CHILDREN);
    const childAt = new Uint32Array(words);
    for (let w = 0; w < words; w++) {
      p = put(buf, p, w > 0 ? NEXT_CHILD : FIRST_CHILD);
      p = uintAt(buf, p, w);
      p = put(buf, p, CHILD_VALUE);
      // a plain word has no byte quote() or JSON escapes, and is at most 120 bytes (not cut)
      childAt[w] = p - start;
      p = copyAt(buf, p, body, wordAt[w], wordEnd[w]);
      p = put(buf, p, CHILD_END);
    }
    p = put(buf, p, RESULT);
    let valueAt = 0;
    if (reply === -1) p = put(buf, p, NIL);
    else if (reply >= 0) {
      p = put(buf, p, BULK);
      valueAt = p - start;
      p = copyAt(buf, p, body, dataAt + dataLength - 2 - reply, dataAt + dataLength - 2);
      p = put(buf, p, BULK_END);
    } else {
      sink.pos = p;
      if (!redisReply(sink, body, dataAt, dataAt + dataLength)) {
        sink.text(JSON.stringify(decodeResult('redis@1', body.subarray(keyAt, keyEnd), body.subarray(dataAt, dataAt + dataLength), 0, ident)));
      }
      p = sink.pos;
      // redisReply and text() stay in the chunk the room was made in unless the text is long
      if (sink.buf !== buf) {
        sink.ascii('}}');
        marks[0] = marks[1] = marks[2] = 0;
        return;
      }
    }
    p = put(buf, p, END);
    sink.pos = p;
    if (reply < -1) return;
    const wordLength = new Uint32Array(words);
    for (let w = 0; w < words; w++) wordLength[w] = wordEnd[w] - wordAt[w];
    this.template = {
      bytes: new Uint8Array(buf.subarray(start, p)), // a copy: the chunk is reused
      words,
      wordLength,
      keyLength,
      dataLength,
      reply,
      seqAt: seqAt - start,
      seqLength: seqEnd - seqAt,
      keyAt: keyCopyAt - start,
      identAt: identAt - start,
      identLength: identEnd - identAt,
      taskAt: taskAt - start,
      taskLength: taskEnd - taskAt,
      hexAt: hexStart - start,
      joinedAt: joinedAt - start,
      childAt,
      valueAt,
    };
  }
}

function fits(t: RedisTemplate, words: number, keyLength: number, dataLength: number, reply: number): boolean {
  if (t.words !== words || t.keyLength !== keyLength || t.dataLength !== dataLength || t.reply !== reply) return false;
  for (let w = 0; w < words; w++) if (t.wordLength[w] !== wordEnd[w] - wordAt[w]) return false;
  return true;
}

/** The template at start with this effect's holes written (the caller checked the lengths it can); false when a number's width differs. */
function fromTemplate(buf: Uint8Array, start: number, t: RedisTemplate, r: number, task: number, ident: number, body: Uint8Array, keyAt: number, dataAt: number, marks: Uint32Array): boolean {
  buf.set(t.bytes, start);
  const seqEnd = start + t.seqAt + t.seqLength;
  const identEnd = start + t.identAt + t.identLength;
  const taskEnd = start + t.taskAt + t.taskLength;
  if (uintAt(buf, start + t.seqAt, r) !== seqEnd || uintAt(buf, start + t.identAt, ident) !== identEnd || uintAt(buf, start + t.taskAt, task) !== taskEnd) return false;
  // bounds in locals: read from `t` in the loops' conditions, they were read again every byte
  copyAt(buf, start + t.keyAt, body, keyAt, keyAt + t.keyLength - 1);
  const dataEnd = dataAt + t.dataLength;
  hexAt(buf, start + t.hexAt, body, dataAt, dataEnd);
  const words = t.words;
  let p = start + t.joinedAt;
  for (let w = 0; w < words; w++) p = copyAt(buf, p + (w > 0 ? 1 : 0), body, wordAt[w], wordEnd[w]);
  const childAt = t.childAt;
  for (let w = 0; w < words; w++) copyAt(buf, start + childAt[w], body, wordAt[w], wordEnd[w]);
  if (t.reply >= 0) copyAt(buf, start + t.valueAt, body, dataEnd - 2 - t.reply, dataEnd - 2);
  marks[0] = seqEnd;
  marks[1] = identEnd;
  marks[2] = taskEnd;
  return true;
}

/**
 * -1 for `$-1\r\n`, N for a bulk string of N (at most SHORT_BULK) bytes of printable ASCII
 * without `"` or `\` (redisReply's text for them is written here), else -2.
 */
function replyShape(b: Uint8Array, from: number, to: number): number {
  if (to - from < 5 || b[from] !== 0x24) return -2;
  if (to - from === 5 && b[from + 1] === 0x2d && b[from + 2] === 0x31 && b[from + 3] === 0x0d && b[from + 4] === 0x0a) return -1;
  let n = 0;
  let i = from + 1;
  for (; i < to && i - from <= 4; i++) {
    const c = b[i];
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
  }
  // `$N\r\n`, N without a leading zero (unless it is 0), then N bytes and `\r\n` to the end
  if (i === from + 1 || (b[from + 1] === 0x30 && i > from + 2) || b[i] !== 0x0d || b[i + 1] !== 0x0a) return -2;
  const at = i + 2;
  if (n > SHORT_BULK || at + n + 2 !== to || b[to - 2] !== 0x0d || b[to - 1] !== 0x0a) return -2;
  for (let j = at; j < at + n; j++) {
    const c = b[j];
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -2;
  }
  return n;
}
