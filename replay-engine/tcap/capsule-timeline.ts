// The timeline of a capsule: every effect is a record and a step, and a record's payload is its
// effect's data, read in place from the body through the EffectIndex (no payload pool is built).
import { Timeline, type HeaderFact, type ThreadInfo } from '../model/timeline';
import type { EffectIndex } from './effect-index';

const NONE = new Uint32Array(0);

export class CapsuleTimeline extends Timeline {
  constructor(
    file: string,
    facts: HeaderFact[],
    threads: ThreadInfo[],
    kinds: string[],
    kind: Uint8Array,
    thread: Uint8Array | Uint16Array | Uint32Array,
    private readonly effects: EffectIndex,
    firstRecordLine: number,
  ) {
    const n = kind.length;
    super('tcap', file, facts, threads, kinds, new Uint8Array(kinds.length).fill(1), n, kind, thread, NONE, new Uint32Array(1), effects.body, n, NONE, firstRecordLine);
  }

  override payload(r: number): Uint8Array {
    return r >= 0 && r < this.recordCount ? this.effects.data(r) : this.bytes.subarray(0, 0);
  }

  override payloadIndex(r: number): number {
    return r >= 0 && r < this.recordCount ? r : -1;
  }

  override payloadBounds(): { begin: Uint32Array; end: Uint32Array } {
    const n = this.recordCount;
    const begin = new Uint32Array(n);
    const end = new Uint32Array(n);
    for (let r = 0; r < n; r++) {
      begin[r] = this.effects.dataAt(r);
      end[r] = begin[r] + this.effects.dataLength(r);
    }
    return { begin, end };
  }
}
