// The JSON of effects seen before. A chatty handler repeats itself: the same Redis GET with the
// same answer, the same task switch, thousands of times. Such a line differs from the last one
// like it only in its seq and task, so the rest is kept, in two pieces around the task, for
// effects with a small key and data: keyed by kind, outcome, ident and those bytes (compared in
// full on a hit, so a hash collision only costs a miss). A kind whose effects rarely repeat (a
// clock, random bytes) stops being looked up (RepeatJudge).
import { hashRun, RepeatJudge, sameRun } from './repeats';

/** Only effects whose key and data together are this small are kept. */
export const MEMO_MAX_BYTES = 96;
const SLOTS = 4096;

export interface MemoLine {
  /** From the kind to the ident's digits: `,"kind":…,"key":…,"outcome":…,"ident":N`. */
  front: Uint8Array;
  /** From the data on: `,"dataHex":"…",…}}`. */
  back: Uint8Array;
}

interface Entry extends MemoLine {
  hash: number;
  kind: number;
  outcome: number;
  ident: number;
  keyLength: number;
  /** The key's bytes, then the data's. */
  bytes: Uint8Array;
}

export class LineMemo {
  private readonly slots: Array<Entry | undefined> = new Array<Entry | undefined>(SLOTS).fill(undefined);
  private readonly judge = new RepeatJudge();
  private hash = 0;

  /** Whether effects of this kind are still looked up. */
  on(kind: number): boolean {
    return this.judge.on(kind);
  }

  /** The kept line of an effect like this one, or undefined (then `keep` may follow for the same effect). */
  find(kind: number, outcome: number, ident: number, body: Uint8Array, keyAt: number, keyLength: number, dataAt: number, dataLength: number): MemoLine | undefined {
    let h = Math.imul(kind + 1, 0x9e3779b1) ^ Math.imul(outcome + 7, 0x85ebca6b) ^ Math.imul(ident, 0xc2b2ae35) ^ keyLength;
    h = hashRun(hashRun(h, body, keyAt, keyAt + keyLength), body, dataAt, dataAt + dataLength);
    this.hash = h;
    const e = this.slots[h & (SLOTS - 1)];
    const hit = e !== undefined && e.hash === h && e.kind === kind && e.outcome === outcome && e.ident === ident && e.keyLength === keyLength && e.bytes.length === keyLength + dataLength && sameRun(e.bytes, 0, body, keyAt, keyLength) && sameRun(e.bytes, keyLength, body, dataAt, dataLength);
    this.judge.looked(kind, hit);
    return hit ? e : undefined;
  }

  /** Keeps the line of the effect `find` was last asked about; `front` and `back` are copied (they are views of a chunk that will be reused). */
  keep(kind: number, outcome: number, ident: number, body: Uint8Array, keyAt: number, keyLength: number, dataAt: number, dataLength: number, front: Uint8Array, back: Uint8Array): void {
    const bytes = new Uint8Array(keyLength + dataLength);
    bytes.set(body.subarray(keyAt, keyAt + keyLength));
    bytes.set(body.subarray(dataAt, dataAt + dataLength), keyLength);
    this.slots[this.hash & (SLOTS - 1)] = { hash: this.hash, kind, outcome, ident, keyLength, bytes, front: new Uint8Array(front), back: new Uint8Array(back) };
  }
}
