// One SHA-256 compression over 32-bit words, for the HMAC keystream: HMAC's inner and outer pad
// blocks are hashed once per capsule (the "midstates"), then each 32-byte keystream block costs
// exactly two compressions and no allocation, instead of a createHmac call (key setup, two pads,
// four compressions and a JS/C++ round trip) per block.

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export const SHA256_IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

export const SHA256_ROUND_CONSTANTS: Int32Array = K;

/**
 * Compress the 16 big-endian message words in w[0..15] into `state` (8 words), writing the
 * result to `out` (may be `state`). w must have room for 64 words: the schedule is expanded in place.
 */
export function sha256Compress(state: Int32Array, w: Int32Array, out: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const w15 = w[t - 15];
    const w2 = w[t - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[t] = (s1 + w[t - 7] + s0 + w[t - 16]) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0;
    d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  out[0] = (state[0] + a) | 0; out[1] = (state[1] + b) | 0;
  out[2] = (state[2] + c) | 0; out[3] = (state[3] + d) | 0;
  out[4] = (state[4] + e) | 0; out[5] = (state[5] + f) | 0;
  out[6] = (state[6] + g) | 0; out[7] = (state[7] + h) | 0;
}

/** The state after hashing one 64-byte HMAC pad block (key XOR 0x36 or 0x5c); key <= 64 bytes. */
export function hmacPadMidstate(key: Uint8Array, pad: number): Int32Array {
  const block = new Uint8Array(64).fill(pad);
  for (let i = 0; i < key.length; i++) block[i] ^= key[i];
  const view = new DataView(block.buffer);
  const w = new Int32Array(64);
  for (let i = 0; i < 16; i++) w[i] = view.getInt32(i * 4, false);
  const out = new Int32Array(8);
  sha256Compress(SHA256_IV, w, out);
  return out;
}
