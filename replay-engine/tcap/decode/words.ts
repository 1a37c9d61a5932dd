// Word results: exact 64-bit integers, clocks as numbers and dates, durations.
import type { DecodedValue } from '../../model/recording';
import { child, malformed } from './bytes-text';

/** The single word of a word result, or undefined when the result is not exactly 8 bytes. */
export function readWord(data: Uint8Array, at = 0): bigint | undefined {
  if (data.length < at + 8) return undefined;
  return new DataView(data.buffer, data.byteOffset + at, 8).getBigInt64(0, true);
}

export function wordValue(data: Uint8Array, type = 'number'): DecodedValue {
  const w = data.length === 8 ? readWord(data) : undefined;
  if (w === undefined) return malformed(`a word result is 8 bytes, this one is ${data.length}`, data);
  return { text: w.toString(), type };
}

/** Nanoseconds since the epoch as an exact ISO date with all nine fraction digits (UTC). */
export function isoFromNanos(ns: bigint): string {
  let seconds = ns / 1_000_000_000n;
  let frac = ns % 1_000_000_000n;
  if (frac < 0n) {
    frac += 1_000_000_000n;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return 'out of the date range';
  return `${date.toISOString().slice(0, 19)}.${frac.toString().padStart(9, '0')}Z`;
}

export function wallValue(data: Uint8Array): DecodedValue {
  const w = data.length === 8 ? readWord(data) : undefined;
  if (w === undefined) return malformed(`a wall clock is one 8-byte word, this one is ${data.length} bytes`, data);
  return wallFromNanos(w);
}

export function wallFromNanos(w: bigint): DecodedValue {
  const iso = isoFromNanos(w);
  return {
    text: `${iso} (${w} ns)`,
    type: 'time',
    children: [child('ns', { text: w.toString(), type: 'number' }), child('utc', { text: iso, type: 'time' })],
  };
}

/** A duration in ns: the exact digits and a human form. */
export function durationText(ns: bigint): string {
  const abs = ns < 0n ? -ns : ns;
  const human =
    abs >= 1_000_000_000n ? `${(Number(ns) / 1e9).toFixed(3)} s`
    : abs >= 1_000_000n ? `${(Number(ns) / 1e6).toFixed(3)} ms`
    : abs >= 1_000n ? `${(Number(ns) / 1e3).toFixed(3)} µs`
    : `${ns} ns`;
  return human;
}

export function monotonicValue(data: Uint8Array): DecodedValue {
  const w = data.length === 8 ? readWord(data) : undefined;
  if (w === undefined) return malformed(`a monotonic clock is one 8-byte word, this one is ${data.length} bytes`, data);
  const digits = w.toString();
  return {
    text: `${digits} ns (${durationText(w)} on the monotonic clock)`,
    type: 'time',
    children: [child('ns', { text: digits, type: 'number' })],
  };
}
