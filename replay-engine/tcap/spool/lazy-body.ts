// A sealed capsule body decrypted only where it is read. The keystream is a counter mode (block i
// depends on i alone), so the spool index can decrypt the words that give each record's lengths
// and skip the keys and results in between: a 50 KB capsule of large results costs a few hundred
// bytes of keystream, not 50 KB. Bytes are decrypted in 128-byte groups (four keystream blocks, the
// SIMD kernel's unit) into one buffer the size of the body, so memory is bounded by the capsule.
import { keystreamState, xorKeystream, type KeystreamState } from '../keystream';
import { hmacPadMidstate } from '../sha256-block';
import { xorKeystreamSimd } from '../keystream-simd';

const GROUP = 128;

/** One buffer for every capsule summarised on this thread (summaries keep no views into it). */
let scratch = new Uint8Array(64 * 1024);
let scratchDone = new Uint8Array(scratch.length / GROUP);

export class LazyBody {
  /** The plain body; only the ranges passed to ensure() hold plain bytes. Valid until the next LazyBody. */
  readonly plain: Uint8Array;
  private readonly done: Uint8Array;
  private readonly state: KeystreamState;

  /** `pads`: the HMAC pad midstates of Ke (the same for every capsule under one key). */
  constructor(
    private readonly sealed: Uint8Array,
    private readonly ke: Uint8Array,
    private readonly nonce: Uint8Array,
    pads?: Pick<KeystreamState, 'inner' | 'outer'>,
  ) {
    if (scratch.length < sealed.length) {
      scratch = new Uint8Array(sealed.length);
      scratchDone = new Uint8Array(Math.ceil(sealed.length / GROUP));
    }
    this.plain = scratch.subarray(0, sealed.length);
    this.done = scratchDone.subarray(0, Math.ceil(sealed.length / GROUP));
    this.done.fill(0);
    this.state = pads ? { ...pads, nonceWords: nonceWords(nonce) } : keystreamState(ke, nonce);
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

/** The pad midstates of Ke, computed once per key for a whole spool. */
export function keystreamPads(ke: Uint8Array): Pick<KeystreamState, 'inner' | 'outer'> {
  return { inner: hmacPadMidstate(ke, 0x36), outer: hmacPadMidstate(ke, 0x5c) };
}

function nonceWords(nonce: Uint8Array): Int32Array {
  const v = new DataView(nonce.buffer, nonce.byteOffset, 16);
  return new Int32Array([v.getInt32(0, false), v.getInt32(4, false), v.getInt32(8, false), v.getInt32(12, false)]);
}
