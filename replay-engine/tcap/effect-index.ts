// Where each effect's fields sit in the decrypted body. Only the start of every record is kept
// (4 bytes an effect); key, outcome, sentinel and data are found from it when a view asks, by
// reading the three length words in front of them. Nothing is copied or decoded up front.
//
// Record layout (formats/tcap.md): seq word, kind string, key string, outcome word, ident word,
// data string. The body was checked end to end when it was read, so these reads never fail.

export class EffectIndex {
  private readonly view: DataView;

  constructor(
    readonly body: Uint8Array,
    /** Offset in `body` of each effect record. */
    readonly recordAt: Uint32Array,
  ) {
    this.view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  }

  get count(): number {
    return this.recordAt.length;
  }

  /** Offset of the key's length word of effect r. */
  private keyWordAt(r: number): number {
    const at = this.recordAt[r];
    return at + 16 + this.view.getUint32(at + 8, true);
  }

  /** Offset of the outcome word of effect r. */
  private outcomeAt(r: number): number {
    const k = this.keyWordAt(r);
    return k + 8 + this.view.getUint32(k, true);
  }

  key(r: number): Uint8Array {
    const k = this.keyWordAt(r);
    return this.body.subarray(k + 8, k + 8 + this.view.getUint32(k, true));
  }

  keyLength(r: number): number {
    return this.view.getUint32(this.keyWordAt(r), true);
  }

  outcome(r: number): number {
    return this.view.getUint32(this.outcomeAt(r), true);
  }

  ident(r: number): number {
    return this.view.getUint32(this.outcomeAt(r) + 8, true);
  }

  /** Offset in `body` of effect r's data bytes; its length is dataLength(r). */
  dataAt(r: number): number {
    return this.outcomeAt(r) + 24;
  }

  dataLength(r: number): number {
    return this.view.getUint32(this.outcomeAt(r) + 16, true);
  }

  /**
   * Effect r's fields at once, for passes over every effect: out[0] key offset, out[1] key length,
   * out[2] outcome, out[3] ident, out[4] data offset, out[5] data length.
   */
  fields(r: number, out: Uint32Array): void {
    const view = this.view;
    const at = this.recordAt[r];
    const k = at + 16 + view.getUint32(at + 8, true);
    const keyLength = view.getUint32(k, true);
    const o = k + 8 + keyLength;
    out[0] = k + 8;
    out[1] = keyLength;
    out[2] = view.getUint32(o, true);
    out[3] = view.getUint32(o + 8, true);
    out[4] = o + 24;
    out[5] = view.getUint32(o + 16, true);
  }

  data(r: number): Uint8Array {
    const at = this.outcomeAt(r);
    return this.body.subarray(at + 24, at + 24 + this.view.getUint32(at + 16, true));
  }
}
