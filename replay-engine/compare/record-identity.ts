// What makes a record of A "the same" as a record of B, for the alignment.
// - trace: (kind, goroutine id, payload bytes): `S 0.1` matches `S 0.1`, `I 0 30` matches `I 0 30`.
// - capsule: (kind, key): the effect asked the same thing; its result is compared separately.
// Kinds and threads are matched by name/id across the two recordings (each interns its own), and
// every record gets a 32-bit code up front so most comparisons are one integer test. A record
// without bytes (an `S` line) gets an exact code (kind and thread, >= 0); one with bytes gets a
// hash with the sign bit set, and equal hashes are confirmed on the bytes, so a collision never
// makes two different records match.
import type { Timeline } from '../model/timeline';

/**
 * The bytes that identify each record (a trace's payload, a capsule effect's key) as ranges of
 * one pool: record r is pool[begin[r] .. end[r]). Read in place, never copied per record.
 */
import type { IdentityBytes } from '../model/record-parts';

export type { IdentityBytes };

export interface SideIdentity {
  timeline: Timeline;
  bytes: IdentityBytes;
}

export class RecordIdentity {
  /** Per record of A / B: its code (exact when >= 0, a hash to confirm when < 0). */
  readonly codeA: Int32Array;
  readonly codeB: Int32Array;
  /** Kind index of each side mapped to a shared index. */
  private readonly kindA: Int32Array;
  private readonly kindB: Int32Array;
  /** Thread index of each side mapped to a shared index (all 0 when threads are ignored). */
  private readonly threadA: Int32Array;
  private readonly threadB: Int32Array;

  constructor(
    private readonly a: SideIdentity,
    private readonly b: SideIdentity,
    /** Whether the thread is part of a record's identity. */
    readonly withThread: boolean,
  ) {
    const kinds = new Map<string, number>();
    const threads = new Map<string, number>();
    const intern = (map: Map<string, number>, s: string): number => {
      let i = map.get(s);
      if (i === undefined) map.set(s, (i = map.size));
      return i;
    };
    this.kindA = Int32Array.from(a.timeline.kinds, (k) => intern(kinds, k));
    this.kindB = Int32Array.from(b.timeline.kinds, (k) => intern(kinds, k));
    this.threadA = Int32Array.from(a.timeline.threads, (t) => (withThread ? intern(threads, t.id) : 0));
    this.threadB = Int32Array.from(b.timeline.threads, (t) => (withThread ? intern(threads, t.id) : 0));
    // Exact codes need the shared kind and thread indices to fit in 7 + 16 bits.
    const exact = kinds.size <= 0x80 && threads.size <= 0x10000;
    this.codeA = this.codeAll(a, this.kindA, this.threadA, exact);
    this.codeB = this.codeAll(b, this.kindB, this.threadB, exact);
  }

  /** Record x of A and record y of B are the same. */
  readonly equal = (x: number, y: number): boolean => {
    const c = this.codeA[x];
    return c === this.codeB[y] && (c >= 0 || this.sameBytes(x, y));
  };

  private sameBytes(x: number, y: number): boolean {
    const ta = this.a.timeline;
    const tb = this.b.timeline;
    if (this.kindA[ta.kind[x]] !== this.kindB[tb.kind[y]]) return false;
    if (this.threadA[ta.thread[x]] !== this.threadB[tb.thread[y]]) return false;
    const p = this.a.bytes;
    const q = this.b.bytes;
    const n = p.end[x] - p.begin[x];
    if (q.end[y] - q.begin[y] !== n) return false;
    for (let i = 0, pi = p.begin[x], qi = q.begin[y]; i < n; i++) if (p.pool[pi + i] !== q.pool[qi + i]) return false;
    return true;
  }

  /**
   * The slot of a record: its kind and thread as one number, the same on both sides. Two
   * records in the same slot with different bytes are one value that changed (the k-th read of
   * goroutine 0's I/O queue, an effect of the same kind with another key).
   */
  slot(side: 'a' | 'b', r: number): number {
    const tl = side === 'a' ? this.a.timeline : this.b.timeline;
    const kind = side === 'a' ? this.kindA : this.kindB;
    const thread = side === 'a' ? this.threadA : this.threadB;
    return kind[tl.kind[r]] * 0x10000 * 0x10000 + thread[tl.thread[r]];
  }

  private codeAll(side: SideIdentity, kindMap: Int32Array, threadMap: Int32Array, exact: boolean): Int32Array {
    const tl = side.timeline;
    const { pool, begin, end } = side.bytes;
    const out = new Int32Array(tl.recordCount);
    for (let r = 0; r < tl.recordCount; r++) {
      const kind = kindMap[tl.kind[r]];
      const thread = threadMap[tl.thread[r]];
      if (exact && begin[r] === end[r]) {
        out[r] = (kind << 16) | thread;
        continue;
      }
      let h = Math.imul(0x811c9dc5 ^ kind, 0x01000193) ^ thread;
      h = Math.imul(h, 0x01000193);
      for (let i = begin[r], e = end[r]; i < e; i++) h = Math.imul(h ^ pool[i], 0x01000193);
      out[r] = h | 0x80000000;
    }
    return out;
  }
}
