// Interns goroutine ids straight from the bytes of a trace line, so reading a line never makes a
// string (the WebAssembly kernel, scan-kernel.wat, keeps its own table of the ids taught to it). Ids of up to 8 bytes (nearly all: `0.12.3`) are their own key: the bytes packed
// into two 32-bit words, compared exactly. Longer ids are found by a hash of their bytes and a
// byte compare. A string is made only the first time an id is seen, to validate and name it.
import type { TimelineBuilder } from '../model/timeline';

/** Parent-relative goroutine path: `0`, `0.1`, `0.1.2` (spawn counts start at 1). */
const GOROUTINE_ID = /^0(\.[1-9][0-9]{0,9})*$/;
export const MAX_ID_BYTES = 1024;

export class GoroutineTable {
  // Short ids: open addressing over (lo, hi) words; thread index + 1 in `shortThread` (0: empty).
  private shortBits = 8;
  private shortLo = new Int32Array(1 << 8);
  private shortHi = new Int32Array(1 << 8);
  private shortThread = new Int32Array(1 << 8);
  private shortCount = 0;
  // Long ids: hash → entries, bytes kept back to back.
  private longSlots = new Int32Array(64).fill(-1);
  private longBytes = new Uint8Array(1024);
  private longStart: number[] = [0];
  private longHash: number[] = [];
  private longThread: number[] = [];

  constructor(private readonly builder: TimelineBuilder) {}

  /**
   * The thread of the id whose bytes (1..8 of them, each >= 0x21, zero-padded) are packed
   * little-endian into lo and hi; -1 when they are not a valid goroutine id.
   */
  private short(lo: number, hi: number): number {
    const mask = (1 << this.shortBits) - 1;
    let slot = shortSlot(lo, hi, this.shortBits);
    for (;;) {
      const t = this.shortThread[slot];
      if (t === 0) return this.insertShort(lo, hi, slot);
      if (this.shortLo[slot] === lo && this.shortHi[slot] === hi) return t - 1;
      slot = (slot + 1) & mask;
    }
  }

  /** The thread of the id in buf[from, to) of any length; `hash` is hashBytes over the same bytes. */
  lookup(buf: Uint8Array, from: number, to: number, hash: number): number {
    const len = to - from;
    if (len >= 1 && len <= 8) {
      let lo = 0;
      let hi = 0;
      for (let i = 0; i < len; i++) {
        const b = buf[from + i];
        if (b < 0x21) return -1;
        if (i < 4) lo |= b << (8 * i);
        else hi |= b << (8 * (i - 4));
      }
      return this.short(lo, hi);
    }
    const mask = this.longSlots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const e = this.longSlots[slot];
      if (e < 0) return this.insertLong(buf, from, to, hash, slot);
      const start = this.longStart[e];
      if (this.longHash[e] === hash && this.longStart[e + 1] - start === len) {
        let i = 0;
        while (i < len && this.longBytes[start + i] === buf[from + i]) i++;
        if (i === len) return this.longThread[e];
      }
      slot = (slot + 1) & mask;
    }
  }

  private insertShort(lo: number, hi: number, slot: number): number {
    let id = '';
    for (let i = 0; i < 8; i++) {
      const b = i < 4 ? (lo >>> (8 * i)) & 0xff : (hi >>> (8 * (i - 4))) & 0xff;
      if (b === 0) break;
      id += String.fromCharCode(b);
    }
    if (!GOROUTINE_ID.test(id)) return -1;
    const t = this.builder.internThread(id);
    this.shortLo[slot] = lo;
    this.shortHi[slot] = hi;
    this.shortThread[slot] = t + 1;
    if (++this.shortCount * 2 > 1 << this.shortBits) this.growShort();
    return t;
  }

  private growShort(): void {
    const lo = this.shortLo;
    const hi = this.shortHi;
    const th = this.shortThread;
    this.shortBits++;
    const size = 1 << this.shortBits;
    this.shortLo = new Int32Array(size);
    this.shortHi = new Int32Array(size);
    this.shortThread = new Int32Array(size);
    for (let s = 0; s < th.length; s++) {
      if (th[s] === 0) continue;
      let slot = shortSlot(lo[s], hi[s], this.shortBits);
      while (this.shortThread[slot] !== 0) slot = (slot + 1) & (size - 1);
      this.shortLo[slot] = lo[s];
      this.shortHi[slot] = hi[s];
      this.shortThread[slot] = th[s];
    }
  }

  private insertLong(buf: Uint8Array, from: number, to: number, hash: number, slot: number): number {
    const len = to - from;
    if (len === 0 || len > MAX_ID_BYTES) return -1;
    const id = latin1(buf, from, to);
    if (!GOROUTINE_ID.test(id)) return -1;
    const t = this.builder.internThread(id);
    const e = this.longThread.length;
    const end = this.longStart[e];
    if (end + len > this.longBytes.length) {
      const grown = new Uint8Array(Math.max(this.longBytes.length * 2, end + len));
      grown.set(this.longBytes);
      this.longBytes = grown;
    }
    this.longBytes.set(buf.subarray(from, to), end);
    this.longStart.push(end + len);
    this.longHash.push(hash);
    this.longThread.push(t);
    this.longSlots[slot] = e;
    if (this.longThread.length * 2 > this.longSlots.length) {
      this.longSlots = new Int32Array(this.longSlots.length * 2).fill(-1);
      const m = this.longSlots.length - 1;
      for (let k = 0; k < this.longHash.length; k++) {
        let s = this.longHash[k] & m;
        while (this.longSlots[s] >= 0) s = (s + 1) & m;
        this.longSlots[s] = k;
      }
    }
    return t;
  }
}

/** Where a short id (its bytes packed into lo, hi) starts probing in a table of 2^bits slots. */
export function shortSlot(lo: number, hi: number, bits: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> (32 - bits);
}

/** The hash the reader computes while it scans a long id, byte by byte: h = h * 31 + byte (32-bit). */
export function hashStep(h: number, byte: number): number {
  return (Math.imul(h, 31) + byte) | 0;
}

export function latin1(buf: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(buf[i]);
  return s;
}
