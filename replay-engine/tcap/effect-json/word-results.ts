// The decoded JSON of word results (effect-kinds.ts's decodeResult for a result of one 8-byte
// word), written without a value tree: the same text as JSON.stringify of the decoded value.
import { piece, type ByteSink } from '../../byte-sink';

/** The word at `at` in decimal, exact (BigInt only beyond 2^53). */
export function writeWord(sink: ByteSink, view: DataView, at: number): void {
  const lo = view.getUint32(at, true);
  const hi = view.getInt32(at + 4, true);
  if (hi >= -0x200000 && hi < 0x200000) sink.int(hi * 4294967296 + lo);
  else sink.ascii(view.getBigInt64(at, true).toString());
}

/** The word as a number when it is within 2^53 (so Number(bigint) would give the same), else undefined. */
function safeWord(view: DataView, at: number): number | undefined {
  const hi = view.getInt32(at + 4, true);
  return hi >= -0x200000 && hi < 0x200000 ? hi * 4294967296 + view.getUint32(at, true) : undefined;
}

/** words.ts's durationText for a safe integer (the same arithmetic on the same double). */
function durationText(ns: number): string {
  const abs = Math.abs(ns);
  return abs >= 1e9 ? `${(ns / 1e9).toFixed(3)} s` : abs >= 1e6 ? `${(ns / 1e6).toFixed(3)} ms` : abs >= 1e3 ? `${(ns / 1e3).toFixed(3)} µs` : `${ns} ns`;
}

/** `{"text":PREFIX digits,"type":TYPE}` for the word kinds whose text is the word after a fixed prefix. */
export function wordResult(prefix: string, type: string): (sink: ByteSink, view: DataView, at: number, length: number) => boolean {
  const head = piece(`{"text":"${prefix}`);
  const tail = piece(`","type":"${type}"}`);
  return (sink, view, at, length) => {
    if (length !== 8) return false;
    sink.put(head);
    writeWord(sink, view, at);
    sink.put(tail);
    return true;
  };
}

const NS = piece(' ns');
const SECONDS = piece(' s');
const MILLIS = piece(' ms');
const MICROS = piece(' µs');
/** Beyond this many ns the double of ns / 1e9 may be too far from the exact quotient for the shortcut below. */
const EXACT_FIXED = 2 ** 50;

/**
 * durationText(ns) without toFixed's string: toFixed(3) of ns / 1e9 (or 1e6, 1e3) is ns / 1e6
 * (1e3, 1) rounded half up to an integer count of thousandths, except at an exact tie, where
 * the double's error decides; ties take toFixed itself.
 */
export function writeDuration(sink: ByteSink, ns: number): void {
  const abs = Math.abs(ns);
  if (abs < 1e3) {
    sink.int(ns);
    sink.put(NS);
    return;
  }
  const unit = abs >= 1e9 ? 1e6 : abs >= 1e6 ? 1e3 : 1;
  const rem = abs % unit;
  if (abs >= EXACT_FIXED || (unit > 1 && rem * 2 === unit)) {
    sink.text(durationText(ns));
    return;
  }
  const q = (abs - rem) / unit + (rem * 2 > unit ? 1 : 0);
  const frac = q % 1000;
  if (ns < 0) sink.ascii('-');
  sink.uint((q - frac) / 1000);
  sink.room(4);
  const buf = sink.buf;
  buf[sink.pos] = 0x2e;
  buf[sink.pos + 1] = 0x30 + ((frac / 100) | 0);
  buf[sink.pos + 2] = 0x30 + (((frac / 10) | 0) % 10);
  buf[sink.pos + 3] = 0x30 + (frac % 10);
  sink.pos += 4;
  sink.put(unit === 1e6 ? SECONDS : unit === 1e3 ? MILLIS : MICROS);
}

const NOW_HEAD = piece('{"text":"');
const NOW_MIDDLE = piece(' ns (');
const NOW_TAIL = piece(' on the monotonic clock)","type":"time","children":[{"name":"ns","value":{"text":"');
const NOW_END = piece('","type":"number"}}]}');

/** tide.now@1 (words.ts's monotonicValue). */
export function monotonicResult(sink: ByteSink, view: DataView, at: number, length: number): boolean {
  if (length !== 8) return false;
  const ns = safeWord(view, at);
  if (ns === undefined) return false;
  sink.put(NOW_HEAD);
  sink.int(ns);
  sink.put(NOW_MIDDLE);
  writeDuration(sink, ns);
  sink.put(NOW_TAIL);
  sink.int(ns);
  sink.put(NOW_END);
  return true;
}
