// Which bytes of a record say what it *is* (compared by the alignment) and which say what it
// *got* (compared separately, as a value difference).
// - trace: a record is its payload (an `S` line has none, an `I` line its bytes); no separate result.
// - capsule: an effect is its key (what was asked); its result is outcome, ident and data.
import type { Recording } from '../model/recording';
import { TcapRecording } from '../tcap/tcap-recording';
import type { IdentityBytes } from './record-identity';

export interface RecordParts {
  identity: IdentityBytes;
  /** Whether records x (of this side) and y (of the other) got different results; null when
   * the format has no results apart from identity. */
  result: ((r: number) => Uint8Array) | null;
  /** The value shown for record r in a list of differences. */
  valueText: (r: number) => string;
}

export function recordParts(recording: Recording): RecordParts {
  const tl = recording.timeline;
  if (recording instanceof TcapRecording) {
    const capsule = recording;
    return {
      identity: keyTable(tl.recordCount, (r) => capsule.key(r)),
      result: (r) => {
        // Outcome and ident are part of the result: a fault is not the same as a value.
        const data = capsule.data(r);
        const out = new Uint8Array(data.length + 2);
        out[0] = capsule.outcome(r);
        out[1] = capsule.ident(r);
        out.set(data, 2);
        return out;
      },
      valueText: (r) => capsule.effectText(r),
    };
  }
  return {
    identity: { pool: tl.bytes, ...tl.payloadBounds() },
    result: null,
    valueText: (r) => recording.describe(r).value.text,
  };
}

/** Every effect's key in one pool (a capsule's keys total at most its body's size). */
function keyTable(count: number, effectKey: (r: number) => Uint8Array): IdentityBytes {
  const begin = new Uint32Array(count);
  const end = new Uint32Array(count);
  let total = 0;
  for (let r = 0; r < count; r++) total += effectKey(r).length;
  const pool = new Uint8Array(total);
  let at = 0;
  for (let r = 0; r < count; r++) {
    const key = effectKey(r);
    pool.set(key, at);
    begin[r] = at;
    at += key.length;
    end[r] = at;
  }
  return { pool, begin, end };
}
