// The local-offset writes of the whole-line writers (word-line.ts, wall-line.ts, redis-line.ts,
// conn-key.ts): the caller made room for the line once, and these write at an offset into the
// chunk and return the new one.
import { HEX } from '../../byte-sink';

/** A constant piece at p. */
export function put(buf: Uint8Array, p: number, piece: Uint8Array): number {
  const n = piece.length;
  if (n > 12) buf.set(piece, p);
  else for (let i = 0; i < n; i++) buf[p + i] = piece[i];
  return p + n;
}

const POW10 = Int32Array.from({ length: 9 }, (_, i) => 10 ** i);

/** v (0 <= v < 2^53) in decimal at p; the new offset. Integer arithmetic only: no `%` on doubles. */
export function uintAt(buf: Uint8Array, p: number, v: number): number {
  if (v >= 1e8) {
    // the high digits, then exactly 8 low ones
    const high = Math.floor(v / 1e8);
    p = uintAt(buf, p, high);
    let low = (v - high * 1e8) | 0;
    for (let i = p + 7; i >= p; i--) {
      const q = (low / 10) | 0;
      buf[i] = 0x30 + low - q * 10;
      low = q;
    }
    return p + 8;
  }
  let x = v | 0;
  // one comparison site for every width: a chain of them deoptimized the writers each time a
  // count first reached a new width (seq 10,000, 100,000) in a run
  let digits = 1;
  while (digits < 8 && x >= POW10[digits]) digits++;
  for (let i = p + digits - 1; i >= p; i--) {
    const q = (x / 10) | 0;
    buf[i] = 0x30 + x - q * 10;
    x = q;
  }
  return p + digits;
}

/** src[from, to) at p, by a loop (a short run: set() would need a subarray first); src may be buf itself, from before p. */
export function copyAt(buf: Uint8Array, p: number, src: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) buf[p++] = src[i];
  return p;
}

/** b[from, to) in lowercase hex at p. */
export function hexAt(buf: Uint8Array, p: number, b: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const h = HEX[b[i]];
    buf[p++] = h & 0xff;
    buf[p++] = h >> 8;
  }
  return p;
}
