// The capsule keystream: block i (32 bytes) = HMAC-SHA256(Ke, nonce || word(i)), the last block
// cut to length. HMAC's pad blocks are hashed once (midstates); each block then costs two SHA-256
// compressions with a message layout known in advance, done in place with no allocation.
import { xorKeystreamSimd } from './keystream-simd';
import { hmacPadMidstate, sha256Compress } from './sha256-block';

/** The per-capsule inputs of the keystream: HMAC pad midstates of Ke and the nonce as words. */
export interface KeystreamState {
  inner: Int32Array;
  outer: Int32Array;
  nonceWords: Int32Array;
}

export function keystreamState(ke: Uint8Array, nonce: Uint8Array): KeystreamState {
  const nv = new DataView(nonce.buffer, nonce.byteOffset, 16);
  return {
    inner: hmacPadMidstate(ke, 0x36),
    outer: hmacPadMidstate(ke, 0x5c),
    nonceWords: new Int32Array([nv.getInt32(0, false), nv.getInt32(4, false), nv.getInt32(8, false), nv.getInt32(12, false)]),
  };
}

/**
 * Below this the plain JS path is used: it needs no compiling (the SIMD kernel is generated and
 * compiled on first use, tens of ms), and a small capsule is decrypted in a few ms either way.
 */
export const SIMD_MIN_BYTES = 64 * 1024;

/** XOR `data` with the keystream of (ke, nonce) into a new array (data is never changed). */
export function xorKeystream(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const st = keystreamState(ke, nonce);
  if (data.length >= SIMD_MIN_BYTES && xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, out)) return out;
  return xorKeystreamScalar(st.inner, st.outer, Array.from(st.nonceWords), data, out);
}

/** One block at a time in plain JS (where WebAssembly SIMD is missing; also the reference for tests). */
export function xorKeystreamScalar(inner: Int32Array, outer: Int32Array, nonceWords: number[], data: Uint8Array, out: Uint8Array): Uint8Array {
  const [n0, n1, n2, n3] = nonceWords;
  const w = new Int32Array(64);
  const h = new Int32Array(8);
  const block = new Uint8Array(32);
  const bv = new DataView(block.buffer);
  const blocks = Math.ceil(data.length / 32);
  for (let i = 0; i < blocks; i++) {
    // Inner message: nonce (16) || word(i) little-endian (8), then SHA-256 padding for 64+24 bytes.
    const lo = i >>> 0;
    const hi = Math.floor(i / 0x100000000) >>> 0;
    w[0] = n0; w[1] = n1; w[2] = n2; w[3] = n3;
    w[4] = bswap(lo); w[5] = bswap(hi);
    w[6] = 0x80000000 | 0;
    w[7] = 0; w[8] = 0; w[9] = 0; w[10] = 0; w[11] = 0; w[12] = 0; w[13] = 0; w[14] = 0;
    w[15] = (64 + 24) * 8;
    sha256Compress(inner, w, h);
    // Outer message: the inner digest (32), then padding for 64+32 bytes.
    for (let j = 0; j < 8; j++) w[j] = h[j];
    w[8] = 0x80000000 | 0;
    w[9] = 0; w[10] = 0; w[11] = 0; w[12] = 0; w[13] = 0; w[14] = 0;
    w[15] = (64 + 32) * 8;
    sha256Compress(outer, w, h);
    for (let j = 0; j < 8; j++) bv.setInt32(j * 4, h[j], false);
    const at = i * 32;
    const end = Math.min(at + 32, data.length);
    for (let k = at; k < end; k++) out[k] = data[k] ^ block[k - at];
  }
  return out;
}

function bswap(x: number): number {
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
}
