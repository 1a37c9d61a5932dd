// A sealed capsule body decrypted only where it is read. The keystream is a counter mode (block i
// depends on i alone), so the spool index can decrypt the words that give each record's lengths
// and skip the keys and results in between: a 50 KB capsule of large results costs a few hundred
// bytes of keystream, not 50 KB. Bytes are decrypted in 128-byte groups (four keystream blocks, the
// SIMD kernel's unit) into one buffer the size of the body, so memory is bounded by the capsule.
import { keystreamState, xorKeystream, type KeystreamState } from '../keystream';
import { xorKeystreamSimd } from '../keystream-simd';

const GROUP = 128;

export class LazyBody {
  /** The plain body; only the ranges passed to ensure() hold plain bytes. */
  readonly plain: Uint8Array;
  private readonly done: Uint8Array;
  private readonly state: KeystreamState;

  constructor(
    private readonly sealed: Uint8Array,
    private readonly ke: Uint8Array,
    private readonly nonce: Uint8Array,
  ) {
    this.plain = new Uint8Array(sealed.length);
    this.done = new Uint8Array(Math.ceil(sealed.length / GROUP));
    this.state = keystreamState(ke, nonce);
  }

  /** Makes plain[at, at + n) readable (clamped to the body). */
  ensure(at: number, n: number): void {
    const end = Math.min(this.sealed.length, at + n);
    if (at >= end) return;
    let g = Math.floor(at / GROUP);
    const last = Math.ceil(end / GROUP);
    while (g < last) {
      if (this.done[g]) {
        g++;
        continue;
      }
      let h = g + 1; // one kernel call for a run of groups not yet decrypted
      while (h < last && !this.done[h]) h++;
      this.decrypt(g * GROUP, Math.min(this.sealed.length, h * GROUP));
      this.done.fill(1, g, h);
      g = h;
    }
  }

  private decrypt(from: number, to: number): void {
    const s = this.state;
    if (xorKeystreamSimd(s.inner, s.outer, s.nonceWords, this.sealed, this.plain, from, to)) return;
    // No WebAssembly SIMD: decrypt the whole body once, the plain way.
    this.plain.set(xorKeystream(this.ke, this.nonce, this.sealed));
    this.done.fill(1);
  }
}
