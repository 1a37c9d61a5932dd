// `inspect --json`'s line for effect r, written into a ByteSink straight from the body: the
// record's own fields (seq, kind, key, outcome, ident, thread, dataHex) for every kind, and the
// decoded key and result without value trees for the common kinds (word results, clock reads,
// task switches, simple Redis calls, plain bytes) by the kind's fast writers (decode/kinds.ts).
// For the others, and for every fault, the decoded value is made by the generic decoders
// (effect-kinds.ts) and JSON.stringify'd, as the
// string path does (effectJson in inspect.ts): both give the same text. The order of the tries:
// a clock read or task switch written whole (word-line.ts, wall-line.ts), a line of an effect seen before
// (line-memo.ts), a plain Redis result written whole (redis-line.ts), then field by field.
import { isUtf8 } from 'node:buffer';
import { piece, type ByteSink } from '../../byte-sink';
import { isAscii, jsonString, jsonUtf8String } from '../../json-bytes';
import { decodeKey, decodeResult } from '../decode/effect-kinds';
import { looseText } from '../decode/bytes-text';
import { capsuleKind } from '../decode/kinds';
import type { TcapRecording } from '../tcap-recording';
import { DecodedKeys } from './decoded-keys';
import { LineMemo, MEMO_MAX_BYTES } from './line-memo';
import { RedisLines } from './redis-line';
import { wallLine, writeWallLine } from './wall-line';
import { wordLine, writeWordLine } from './word-line';

/** Writes effect r's JSON line (without its indent and separator) into the sink. */
export function effectWriter(rec: TcapRecording): (r: number, sink: ByteSink) => void {
  const tl = rec.timeline;
  const body = rec.effects.body;
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const names = tl.kinds;
  const empty = body.subarray(0, 0);
  // Per kind, the constant pieces around the holes (seq, ident, thread, data, key, result).
  const kindHead = names.map((k) => piece(`,"kind":${JSON.stringify(k)},`));
  const emptyKeyHead = names.map((k) => piece(`,"kind":${JSON.stringify(k)},"key":"","outcome":"result","ident":`));
  const emptyKeyDecoded = names.map((k) => piece(`","decoded":{"key":${JSON.stringify(decodeKey(k, empty))},"result":`));
  // the kinds' fast writers (decode/kinds.ts); a kind without one takes the decoder's value
  const results = names.map((k) => capsuleKind(k)?.fastResult ?? undefined);
  const keys = names.map((k) => capsuleKind(k)?.fastKey ?? undefined);
  const lines = names.map(wordLine);
  const walls = names.map(wallLine);
  const f = new Uint32Array(6);
  const memo = new LineMemo();
  const marks = new Uint32Array(3);
  const redisLines = new RedisLines();
  const decodedKeys = new DecodedKeys(names);
  const redisKind = names.indexOf('redis@1');
  const kindOf = tl.kind;

  function write(r: number, sink: ByteSink): void {
    rec.effects.fields(r, f);
    const keyAt = f[0];
    const keyLength = f[1];
    const outcome = f[2];
    const dataAt = f[4];
    const dataLength = f[5];
    const kind = kindOf[r];
    const common = keyLength === 0 && outcome === 0;
    const task = rec.task(r);
    if (common && f[3] === 0) {
      const line = lines[kind];
      if (line && writeWordLine(sink, line, r, task, body, view, dataAt, dataLength)) return;
      const wall = walls[kind];
      if (wall && writeWallLine(sink, wall, r, task, body, view, dataAt, dataLength)) return;
    }
    const memoed = keyLength + dataLength <= MEMO_MAX_BYTES && memo.on(kind);
    if (memoed) {
      const m = memo.find(kind, outcome, f[3], body, keyAt, keyLength, dataAt, dataLength);
      if (m) {
        sink.put(SEQ);
        sink.uint(r);
        sink.put(m.front);
        sink.put(THREAD);
        sink.uint(task);
        sink.put(m.back);
        return;
      }
    }
    if (kind === redisKind && outcome === 0 && redisLines.write(sink, r, task, f[3], body, keyAt, keyLength, dataAt, dataLength, marks)) {
      if (memoed && marks[0] > 0) memo.keep(kind, outcome, f[3], body, keyAt, keyLength, dataAt, dataLength, sink.buf.subarray(marks[0], marks[1]), sink.buf.subarray(marks[2], sink.pos));
      return;
    }
    writeLine(r, sink, task, memoed);
  }

  /**
   * Every other line, field by field. Its own function, so that the dispatch above stays small:
   * V8 optimizes a function after an amount of work that grows with its size, and the common
   * lines went unoptimized for the first 15,000 or so while this was part of the dispatch.
   */
  function writeLine(r: number, sink: ByteSink, task: number, memoed: boolean): void {
    const keyAt = f[0];
    const keyLength = f[1];
    const outcome = f[2];
    const dataAt = f[4];
    const dataLength = f[5];
    const kind = kindOf[r];
    const common = keyLength === 0 && outcome === 0;
    // the line in one chunk, so that its pieces can be kept from there
    if (memoed) sink.room(MEMO_LINE_ROOM);
    const chunk = sink.buf;
    sink.put(SEQ);
    sink.uint(r);
    const frontAt = sink.pos;
    if (common) sink.put(emptyKeyHead[kind]);
    else {
      sink.put(kindHead[kind]);
      if (keyLength === 0) sink.put(EMPTY_KEY);
      else keyField(sink, body, keyAt, keyAt + keyLength);
      sink.put(outcome === 1 ? FAULT_IDENT : RESULT_IDENT);
    }
    sink.uint(f[3]);
    const frontEnd = sink.pos;
    sink.put(THREAD);
    sink.uint(task);
    const backAt = sink.pos;
    sink.put(DATA_HEX);
    sink.hex(body, dataAt, dataAt + dataLength);
    const name = names[kind];
    if (common) sink.put(emptyKeyDecoded[kind]);
    else {
      sink.put(DECODED_KEY);
      if (keyLength === 0) sink.text(JSON.stringify(decodeKey(name, empty)));
      else if (!keys[kind]?.(sink, body, view, keyAt, keyLength)) sink.put(decodedKeys.json(kind, body, keyAt, keyLength));
      sink.put(outcome === 1 ? FAULT : RESULT);
    }
    if (outcome === 1 || !results[kind]?.(sink, body, view, dataAt, dataLength)) {
      sink.text(JSON.stringify(decodeResult(name, body.subarray(keyAt, keyAt + keyLength), body.subarray(dataAt, dataAt + dataLength), outcome, f[3])));
    }
    sink.put(END);
    if (memoed && sink.buf === chunk && sink.pos - frontAt <= MEMO_LINE_ROOM) {
      memo.keep(kind, outcome, f[3], body, keyAt, keyLength, dataAt, dataLength, chunk.subarray(frontAt, frontEnd), chunk.subarray(backAt, sink.pos));
    }
  }

  return write;
}

/** Room made for a line that may be kept: lines of small effects are shorter (a longer one, or one that crossed a chunk, is not kept). */
const MEMO_LINE_ROOM = 8192;

const SEQ = piece('{"seq":');
const EMPTY_KEY = piece('"key":""');
const RESULT_IDENT = piece(',"outcome":"result","ident":');
const FAULT_IDENT = piece(',"outcome":"fault","ident":');
const THREAD = piece(',"thread":');
const DATA_HEX = piece(',"dataHex":"');
const DECODED_KEY = piece('","decoded":{"key":');
const RESULT = piece(',"result":');
const FAULT = piece(',"fault":');
const END = piece('}}');

/** `"key":TEXT`, plus `"keyHex":HEX` when the bytes are not UTF-8 (inspect.ts's textField). */
function keyField(sink: ByteSink, b: Uint8Array, from: number, to: number): void {
  sink.ascii('"key":');
  const bytes = b.subarray(from, to);
  if (isAscii(b, from, to) || isUtf8(bytes)) {
    jsonUtf8String(sink, b, from, to);
    return;
  }
  jsonString(sink, looseText(bytes));
  sink.ascii(',"keyHex":"');
  sink.hex(b, from, to);
  sink.ascii('"');
}
