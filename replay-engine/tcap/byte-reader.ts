// Reads a capsule body's words and strings, checking every length against the bytes that remain
// before anything is allocated. Strings are returned as views into the body, never copied.
// `what` names the field for a message; `record` (when >= 0) the effect it belongs to. Messages
// are only built on an error: the hot path of a 100k-effect capsule makes no strings.
import { RecordingError } from '../model/errors';

export class ByteReader {
  private readonly view: DataView;
  pos = 0;

  /** `fileOffset` is where bytes[0] sits in the file, so messages give file offsets. */
  constructor(
    readonly bytes: Uint8Array,
    private readonly file: string,
    private readonly fileOffset: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** A signed 64-bit little-endian word, exact. */
  word(what: string, record = -1): bigint {
    this.need(8, what, record);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /**
   * A word that must be a length or count in 0..limit (limit <= remaining bytes or a record bound).
   * Read as two halves so the common case allocates no BigInt.
   */
  length(what: string, limit: number, record = -1, suffix = ''): number {
    this.need(8, what, record);
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getInt32(this.pos + 4, true);
    if (hi !== 0 || lo > limit) {
      const v = this.view.getBigInt64(this.pos, true);
      const why = v < 0n ? 'is negative' : `is more than the ${limit} bytes that remain`;
      throw this.damaged(`${name(what, record)}${suffix} ${v} ${why}`);
    }
    this.pos += 8;
    return lo;
  }

  /** A small word that must lie in min..max (outcome, ident, seq). */
  small(what: string, min: number, max: number, record = -1): number {
    this.need(8, what, record);
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getInt32(this.pos + 4, true);
    const v = hi === 0 ? lo : hi === -1 && lo >= 0x80000000 ? lo - 0x100000000 : Number.NaN;
    if (!(v >= min && v <= max)) {
      throw this.damaged(`${name(what, record)} is ${this.view.getBigInt64(this.pos, true)}, expected ${min === max ? min : `${min} to ${max}`}`);
    }
    this.pos += 8;
    return v;
  }

  /** A string: a length word, then that many bytes (a view, not a copy). */
  string(what: string, record = -1): Uint8Array {
    this.need(8, what, record);
    const n = this.length(what, this.remaining - 8, record, ' length');
    const at = this.pos;
    this.pos += n;
    return this.bytes.subarray(at, at + n);
  }

  /**
   * A string's place without making a view: returns where its bytes start in `bytes` and leaves
   * its length in `spanLength` (the per-record hot path allocates nothing).
   */
  span(what: string, record = -1): number {
    this.need(8, what, record);
    const n = this.length(what, this.remaining - 8, record, ' length');
    const at = this.pos;
    this.pos += n;
    this.spanLength = n;
    return at;
  }

  spanLength = 0;

  /** Offset of the current position in the file. */
  get fileOffsetHere(): number {
    return this.fileOffset + this.pos;
  }

  damaged(why: string, at = this.pos): RecordingError {
    const offset = this.fileOffset + at;
    return new RecordingError(
      'damaged',
      `${this.file}: capsule body damaged at byte ${offset}: ${why}. The tag matched, so the key is right but the writer produced a bad body; report it to the Tin team with the capsule.`,
      { file: this.file, offset },
    );
  }

  private need(n: number, what: string, record: number): void {
    if (this.remaining < n) throw this.damaged(`${name(what, record)} is cut: ${this.remaining} bytes left, a word needs 8`);
  }
}

function name(what: string, record: number): string {
  return record >= 0 ? `effect ${record}: ${what}` : what;
}
