// The whole JSON line of the commonest effects of a chatty capsule, clock reads and task switches
// (an empty key, a result of one 8-byte word, ident 0), in one go: room for the line is made
// once, and the writes go to a local offset. Per kind the line is 5 constant pieces (7 for
// tide.now@1) around the holes (seq, task, data hex, the word's digits, and for tide.now@1 the
// duration and the digits again), made once from the generic decoder's own JSON. Hot: written
// through the sink's per-piece calls and room checks, these lines took about 40% more time.
import type { ByteSink } from '../../byte-sink';
import { decodeKey, decodeResult } from '../decode/effect-kinds';
import { copyAt, put, uintAt } from './line-bytes';
import { headAgain, headAt, headWidths, wordHead, type HeadTemplate, type WordHead } from './word-head';
import { writeDuration } from './word-results';

/** Longest line this writes: the pieces are < 200 bytes, the holes < 100. */
const LINE_ROOM = 512;

/** The constant pieces of one kind's line: the opening (its `decoded` ends with the text's fixed start, `task `), then these. */
export interface WordLine extends WordHead {
  /** After the digits: the rest of the value, `}}`; for tide.now@1 ` ns (` */
  tail: Uint8Array;
  /** tide.now@1 only: between the duration and the digits again, and the end */
  nowMiddle?: Uint8Array;
  nowEnd?: Uint8Array;
  /** The last line written whole, kept as a template for the next (see fromTemplate). */
  template?: LineTemplate;
}

/** A line's bytes and the lengths of its holes (seq, task, the word's digits, the duration). */
interface LineTemplate extends HeadTemplate {
  wordLength: number;
  durationLength: number;
}

const TEXT_PREFIX: Record<string, string> = { 'dice.seed@1': '', 'sched.resume@1': 'task ' };

/**
 * The pieces for a kind, cut out of the generic decoder's JSON for a sample word (so they are
 * its text by construction), or undefined for kinds without this shape.
 */
export function wordLine(kind: string): WordLine | undefined {
  const b = (s: string) => Buffer.from(s, 'utf8');
  const empty = new Uint8Array(0);
  const sample = new Uint8Array(8);
  sample[0] = 7; // the word 7: a duration of `7 ns`
  const key = JSON.stringify(decodeKey(kind, empty));
  const result = JSON.stringify(decodeResult(kind, empty, sample, 0, 0));
  if (kind === 'tide.now@1') {
    const want = '{"text":"7 ns (7 ns on the monotonic clock)","type":"time","children":[{"name":"ns","value":{"text":"7","type":"number"}}]}';
    if (result !== want) return undefined;
    return {
      ...wordHead(kind, `","decoded":{"key":${key},"result":{"text":"`),
      template: undefined, // set by writeWordLine: present from the start, so the object keeps one shape
      tail: b(' ns ('),
      nowMiddle: b(' on the monotonic clock)","type":"time","children":[{"name":"ns","value":{"text":"'),
      nowEnd: b('","type":"number"}}]}}}'),
    };
  }
  const prefix = TEXT_PREFIX[kind];
  if (prefix === undefined) return undefined;
  const head = `{"text":"${prefix}7`;
  if (!result.startsWith(head)) return undefined;
  return { ...wordHead(kind, `","decoded":{"key":${key},"result":${head.slice(0, -1)}`), template: undefined, tail: b(`${result.slice(head.length)}}}`) };
}

const UNITS = [Buffer.from(' s'), Buffer.from(' ms'), Buffer.from(' µs')];

/**
 * writeDuration's text at p for 1e3 <= w < 2^50 when it is not a tie (the same arithmetic), the
 * new offset; -1 (nothing written) for the others, which take writeDuration itself.
 */
function durationAt(buf: Uint8Array, p: number, w: number): number {
  if (w < 1e3 || w >= 2 ** 50) return -1;
  const unit = w >= 1e9 ? 1e6 : w >= 1e6 ? 1e3 : 1;
  const rem = w % unit;
  if (unit > 1 && rem * 2 === unit) return -1;
  const q = (w - rem) / unit + (rem * 2 > unit ? 1 : 0);
  const frac = q % 1000;
  p = uintAt(buf, p, (q - frac) / 1000);
  buf[p] = 0x2e;
  buf[p + 1] = 0x30 + ((frac / 100) | 0);
  buf[p + 2] = 0x30 + (((frac / 10) | 0) % 10);
  buf[p + 3] = 0x30 + (frac % 10);
  return put(buf, p + 4, UNITS[unit === 1e6 ? 0 : unit === 1e3 ? 1 : 2]);
}

/**
 * Writes effect r's line if it has this shape (the caller checked: empty key, result, ident 0)
 * and its word fits the shortcut; false (nothing written) otherwise.
 */
export function writeWordLine(sink: ByteSink, line: WordLine, r: number, task: number, body: Uint8Array, view: DataView, dataAt: number, dataLength: number): boolean {
  if (dataLength !== 8) return false;
  const hi = view.getInt32(dataAt + 4, true);
  const lo = view.getUint32(dataAt, true);
  // A non-negative word below 2^53 (negative clocks and seeds take the generic path).
  if (hi < 0 || hi >= 0x200000) return false;
  const w = hi * 4294967296 + lo;
  sink.room(LINE_ROOM);
  const start = sink.pos;
  const t = line.template;
  if (t && fromTemplate(sink.buf, start, line, t, r, task, body, dataAt, w)) sink.pos = start + t.bytes.length;
  else writeWholeLine(sink, line, r, task, body, dataAt, w);
  return true;
}

/** The line piece by piece at the sink's offset (room made), kept as the template for the next. Its own function: see the dispatch in effect-writer.ts. */
function writeWholeLine(sink: ByteSink, line: WordLine, r: number, task: number, body: Uint8Array, dataAt: number, w: number): void {
  let buf = sink.buf;
  const start = sink.pos;
  let p = headAt(buf, start, line, r, task, body, dataAt);
  const seqLength = headWidths.seq;
  const taskLength = headWidths.task;
  const digitsAt = p;
  p = uintAt(buf, p, w);
  const digitsEnd = p;
  p = put(buf, p, line.tail);
  let durationLength = 0;
  if (line.nowMiddle && line.nowEnd) {
    const durationStart = p;
    const end = durationAt(buf, p, w);
    if (end >= 0) p = end;
    else {
      sink.pos = p;
      writeDuration(sink, w);
      buf = sink.buf; // the same chunk: the line's room was made above
      p = sink.pos;
    }
    durationLength = p - durationStart;
    p = put(buf, p, line.nowMiddle);
    // the same digits again: copied (the line is in one chunk)
    p = copyAt(buf, p, buf, digitsAt, digitsEnd);
    p = put(buf, p, line.nowEnd);
  }
  sink.pos = p;
  const bytes = new Uint8Array(p - start);
  bytes.set(buf.subarray(start, p));
  line.template = { bytes, seqLength, taskLength, wordLength: digitsEnd - digitsAt, durationLength };
}

/**
 * The line written as the last one of its kind with its holes filled in again, when every hole
 * has the template's length (in a chatty capsule almost always: seq, task and the clock's digits
 * keep their widths for thousands of lines). One copy of the whole line costs about what one of
 * its seven constant pieces did. False when a hole's length differs: the caller then writes the
 * line from its start, over whatever this wrote.
 */
function fromTemplate(buf: Uint8Array, start: number, line: WordLine, t: LineTemplate, r: number, task: number, body: Uint8Array, dataAt: number, w: number): boolean {
  buf.set(t.bytes, start);
  const digitsAt = headAgain(buf, start, line, t, r, task, body, dataAt);
  if (digitsAt < 0) return false;
  if (uintAt(buf, digitsAt, w) !== digitsAt + t.wordLength) return false;
  if (!line.nowMiddle) return true;
  const durationStart = digitsAt + t.wordLength + line.tail.length;
  if (durationAt(buf, durationStart, w) !== durationStart + t.durationLength) return false;
  const againAt = durationStart + t.durationLength + line.nowMiddle.length;
  copyAt(buf, againAt, buf, digitsAt, digitsAt + t.wordLength);
  return true;
}
