// Interns goroutine ids straight from the bytes of a trace line, so reading a line never makes a
// string (the WebAssembly kernel, scan-kernel.wat, keeps its own table of the ids taught to it). Ids of up to 8 bytes (nearly all: `0.12.3`) are their own key: the bytes packed
// into two 32-bit words, compared exactly. Longer ids are found by a hash of their bytes and a
// byte compare. A string is made only the first time an id is seen, to validate and name it.
import type { TimelineBuilder } from '../model/timeline';

/** Parent-relative goroutine path: `0`, `0.1`, `0.1.2` (spawn counts start at 1). */
export const GOROUTINE_ID = /^0(\.[1-9][0-9]{0,9})*$/;
export const MAX_ID_BYTES = 1024;
const ASCII = new TextDecoder();

export class GoroutineTable {
  // Short ids: open addressing over (lo, hi) words; thread index + 1 in `shortThread` (0: empty).
  private shortBits = 8;
  private shortLo = new Int32Array(1 << 8);
  private shortHi = new Int32Array(1 << 8);
  private shortThread = new Int32Array(1 << 8);
  private shortCount = 0;
  // Long ids: hash → entries, bytes kept back to back; typed arrays, grown by doubling (a trace of
  // 750,000 goroutines has nearly all its ids here: `0.1.2.3.4.5.6`).
  private longSlots = new Int32Array(64).fill(-1);
  private longBytes = new Uint8Array(1024);
  private longStart = new Uint32Array(33);
  private longHash = new Int32Array(32);
  private longThread = new Int32Array(32);
  private longCount = 0;

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
    const slots = this.longSlots;
    const mask = slots.length - 1;
    const starts = this.longStart;
    const bytes = this.longBytes;
    // h * 31 + byte alone leaves ids that differ in their last digits in neighbouring slots,
    // which linear probing turns into long runs: mixed first.
    let slot = mix(hash) & mask;
    for (;;) {
      const e = slots[slot];
      if (e < 0) return this.insertLong(buf, from, to, hash, slot);
      const start = starts[e];
      if (this.longHash[e] === hash && starts[e + 1] - start === len) {
        let i = 0;
        while (i < len && bytes[start + i] === buf[from + i]) i++;
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
    const t = this.builder.addThread(id);
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
    if (len === 0 || len > MAX_ID_BYTES || !isGoroutineId(buf, from, to)) return -1;
    // Checked to be ASCII digits and dots, so UTF-8 decoding is exact (and one call, not a string per byte).
    const t = this.builder.addThread(ASCII.decode(buf.subarray(from, to)));
    const e = this.longCount;
    if (e + 1 >= this.longThread.length) {
      const size = this.longThread.length * 2;
      this.longStart = grow(this.longStart, new Uint32Array(size + 1));
      this.longHash = grow(this.longHash, new Int32Array(size));
      this.longThread = grow(this.longThread, new Int32Array(size));
    }
    const end = this.longStart[e];
    if (end + len > this.longBytes.length) this.longBytes = grow(this.longBytes, new Uint8Array(Math.max(this.longBytes.length * 2, end + len)));
    const bytes = this.longBytes;
    for (let i = 0; i < len; i++) bytes[end + i] = buf[from + i]; // a short id: no subarray to make
    this.longStart[e + 1] = end + len;
    this.longHash[e] = hash;
    this.longThread[e] = t;
    this.longSlots[slot] = e;
    this.longCount = e + 1;
    if (this.longCount * 2 > this.longSlots.length) {
      const slots = new Int32Array(this.longSlots.length * 2).fill(-1);
      const m = slots.length - 1;
      for (let k = 0; k < this.longCount; k++) {
        let s = mix(this.longHash[k]) & m;
        while (slots[s] >= 0) s = (s + 1) & m;
        slots[s] = k;
      }
      this.longSlots = slots;
    }
    return t;
  }
}

function grow<T extends Uint8Array | Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Spreads a 32-bit hash over all its bits (murmur3's finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const DOT = 0x2e;
const D0 = 0x30;
const D1 = 0x31;
const D9 = 0x39;

/** GOROUTINE_ID on the bytes, without making the string first: `0`, then `.N` parts, N 1-10 digits, no leading 0. */
export function isGoroutineId(buf: Uint8Array, from: number, to: number): boolean {
  if (to <= from || buf[from] !== D0) return false;
  let i = from + 1;
  while (i < to) {
    if (buf[i] !== DOT || i + 1 >= to) return false;
    const first = buf[i + 1];
    if (first < D1 || first > D9) return false;
    let j = i + 2;
    while (j < to && j - i <= 10 && buf[j] >= D0 && buf[j] <= D9) j++;
    i = j;
    if (i < to && buf[i] !== DOT) return false;
  }
  return true;
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
