// The whole JSON line of a wall clock read (`tide.wall@1`: an empty key, a result of one signed
// 8-byte word of ns since 1970, ident 0), as word-line.ts does for the monotonic clock. Through
// the generic decoder such a line took about 8 µs (BigInt digits, a Date, a value tree, its
// JSON); here the date is worked out in integers (days to a civil date) and the ns digits are
// the seconds' digits then the nine of the fraction, so no BigInt is made. The next line whose
// seq, task and ns widths are the same is the last one copied once with its holes written again.
// Reads before 1970-01-01T00:00:01Z (a word below 1e9, negative ones included) take the generic
// decoder; a signed word cannot reach the year 10000, so every date here has four digits.
import type { ByteSink } from '../../byte-sink';
import { decodeKey, decodeResult } from '../decode/effect-kinds';
import { copyAt, put, uintAt } from './line-bytes';
import { headAgain, headAt, headWidths, wordHead, type HeadTemplate, type WordHead } from './word-head';

const KIND = 'tide.wall@1';
/** The ISO text `YYYY-MM-DDTHH:MM:SS.fffffffffZ`. */
const ISO_LENGTH = 30;
/** Longest line: the pieces are < 300 bytes, the holes < 150. */
const LINE_ROOM = 512;

/** The constant pieces of the line, cut out of the generic decoder's JSON for a sample word. */
export interface WallLine extends WordHead {
  /** between the ISO text and the ns digits, then the digits again, the ISO text again, the end */
  afterIso: Uint8Array;
  afterNs: Uint8Array;
  afterNsAgain: Uint8Array;
  end: Uint8Array;
  template: WallTemplate | undefined;
}

interface WallTemplate extends HeadTemplate {
  nsLength: number;
}

const SAMPLE_NS = 1_700_000_000_123_456_789n;
const SAMPLE_ISO = '2023-11-14T22:13:20.123456789Z';

/** The pieces, or undefined if the generic decoder's text for the sample is not of the shape this writes. */
export function wallLine(kind: string): WallLine | undefined {
  if (kind !== KIND) return undefined;
  const sample = new Uint8Array(8);
  new DataView(sample.buffer).setBigInt64(0, SAMPLE_NS, true);
  const key = JSON.stringify(decodeKey(kind, new Uint8Array(0)));
  const result = JSON.stringify(decodeResult(kind, new Uint8Array(0), sample, 0, 0));
  const ns = SAMPLE_NS.toString();
  const parts = [`{"text":"`, SAMPLE_ISO, ' (', ns, ` ns)","type":"time","children":[{"name":"ns","value":{"text":"`, ns, `","type":"number"}},{"name":"utc","value":{"text":"`, SAMPLE_ISO, `","type":"time"}}]}`];
  if (result !== parts.join('')) return undefined;
  const b = (s: string) => Buffer.from(s, 'utf8');
  return {
    ...wordHead(kind, `","decoded":{"key":${key},"result":{"text":"`),
    afterIso: b(parts[2]),
    afterNs: b(parts[4]),
    afterNsAgain: b(parts[6]),
    end: b(`${parts[8]}}}`),
    template: undefined,
  };
}

// The clock read being written: seconds since 1970 and the ns within the second (see split).
let seconds = 0;
let fraction = 0;

/**
 * Writes effect r's line if its word is a wall clock this writes (the caller checked: empty key,
 * result, ident 0, kind tide.wall@1); false, with nothing written, otherwise.
 */
export function writeWallLine(sink: ByteSink, line: WallLine, r: number, task: number, body: Uint8Array, view: DataView, dataAt: number, dataLength: number): boolean {
  if (dataLength !== 8 || !split(view.getInt32(dataAt + 4, true), view.getUint32(dataAt, true))) return false;
  sink.room(LINE_ROOM);
  const start = sink.pos;
  const t = line.template;
  if (t && fromTemplate(sink.buf, start, line, t, r, task, body, dataAt)) sink.pos = start + t.bytes.length;
  else writeWholeLine(sink, line, r, task, body, dataAt);
  return true;
}

/**
 * seconds and fraction of hi * 2^32 + lo ns, exactly in doubles: with 2^32 = 4e9 + 294967296,
 * 294967296 * 2^16 = 19330e9 + 976710656 and hi = h1 * 2^16 + h0, the ns are
 * 1e9 * (4 hi + 19330 h1) + B, B = 294967296 h0 + 976710656 h1 + lo < 2^46. False for a read
 * below one second (or negative).
 */
function split(hi: number, lo: number): boolean {
  if (hi < 0 || (hi === 0 && lo < 1e9)) return false;
  const h1 = hi >>> 16;
  const h0 = hi & 0xffff;
  const b = 294967296 * h0 + 976710656 * h1 + lo;
  let q = Math.floor(b / 1e9);
  let rem = b - q * 1e9;
  if (rem < 0) {
    q--;
    rem += 1e9;
  } else if (rem >= 1e9) {
    q++;
    rem -= 1e9;
  }
  seconds = 4 * hi + 19330 * h1 + q;
  fraction = rem;
  return true;
}

/** The ns digits at p: the seconds', then the fraction's nine (the seconds are at least 1). */
function nsAt(buf: Uint8Array, p: number): number {
  p = uintAt(buf, p, seconds);
  return digitsAt(buf, p, fraction, 9);
}

/** v in exactly n digits (zeros in front) at p. */
function digitsAt(buf: Uint8Array, p: number, v: number, n: number): number {
  let x = v;
  for (let i = p + n - 1; i >= p; i--) {
    const q = Math.floor(x / 10);
    buf[i] = 0x30 + x - q * 10;
    x = q;
  }
  return p + n;
}

/** `YYYY-MM-DDTHH:MM:SS.fffffffffZ` of the seconds and fraction at p (Date's toISOString for years 1970 to 9999, in integers). */
function isoAt(buf: Uint8Array, p: number): number {
  const days = Math.floor(seconds / 86400);
  let rest = seconds - days * 86400;
  // civil from days (Howard Hinnant's algorithm), from 0000-03-01
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  p = digitsAt(buf, p, year, 4);
  buf[p++] = 0x2d;
  p = digitsAt(buf, p, month, 2);
  buf[p++] = 0x2d;
  p = digitsAt(buf, p, day, 2);
  buf[p++] = 0x54;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  p = digitsAt(buf, p, hour, 2);
  buf[p++] = 0x3a;
  p = digitsAt(buf, p, minute, 2);
  buf[p++] = 0x3a;
  p = digitsAt(buf, p, rest - minute * 60, 2);
  buf[p++] = 0x2e;
  p = digitsAt(buf, p, fraction, 9);
  buf[p++] = 0x5a;
  return p;
}

/** The line piece by piece at the sink's offset (room made), kept as the template for the next. */
function writeWholeLine(sink: ByteSink, line: WallLine, r: number, task: number, body: Uint8Array, dataAt: number): void {
  const buf = sink.buf;
  const start = sink.pos;
  let p = headAt(buf, start, line, r, task, body, dataAt);
  const seqLength = headWidths.seq;
  const taskLength = headWidths.task;
  const isoAt1 = p;
  p = isoAt(buf, p);
  p = put(buf, p, line.afterIso);
  const nsAt1 = p;
  p = nsAt(buf, p);
  const nsLength = p - nsAt1;
  p = put(buf, p, line.afterNs);
  p = copyAt(buf, p, buf, nsAt1, nsAt1 + nsLength);
  p = put(buf, p, line.afterNsAgain);
  p = copyAt(buf, p, buf, isoAt1, isoAt1 + ISO_LENGTH);
  p = put(buf, p, line.end);
  sink.pos = p;
  line.template = { bytes: new Uint8Array(buf.subarray(start, p)), seqLength, taskLength, nsLength };
}

/** The template at start with this read's holes written; false when the seq's, task's or ns's width differs. */
function fromTemplate(buf: Uint8Array, start: number, line: WallLine, t: WallTemplate, r: number, task: number, body: Uint8Array, dataAt: number): boolean {
  buf.set(t.bytes, start);
  const isoAt1 = headAgain(buf, start, line, t, r, task, body, dataAt);
  if (isoAt1 < 0) return false;
  const nsAt1 = isoAt(buf, isoAt1) + line.afterIso.length;
  if (nsAt(buf, nsAt1) !== nsAt1 + t.nsLength) return false;
  const nsAt2 = nsAt1 + t.nsLength + line.afterNs.length;
  copyAt(buf, nsAt2, buf, nsAt1, nsAt1 + t.nsLength);
  copyAt(buf, nsAt2 + t.nsLength + line.afterNsAgain.length, buf, isoAt1, isoAt1 + ISO_LENGTH);
  return true;
}
