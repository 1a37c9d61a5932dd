// Generates the keystream kernel: a WebAssembly SIMD function that runs four independent
// HMAC-SHA256 keystream blocks in the four 32-bit lanes of each vector (SHA-256 has no
// parallelism inside one block, but keystream blocks are independent), from the HMAC pad
// midstates computed once in JS, and XORs the keystream into the data where it lies. The bytes
// are made once, by `npm run wasm`, into keystream-kernel.wasm.ts (building them at every start
// cost 10 to 20 ms and several MB of garbage); test/tcap/keystream.test.ts checks they match.
import { K_OFF, MAX_PAGES, W_OFF } from './keystream-layout';

// Opcodes (WebAssembly core and SIMD specs).
const OP = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b,
  localGet: 0x20, localSet: 0x21,
  i32Load: 0x28, i32Store: 0x36, i32Const: 0x41,
  i32GeU: 0x4f, i32LtU: 0x49, i32Add: 0x6a, i32Mul: 0x6c, i32Shl: 0x74, i32Xor: 0x73,
};
const SIMD = {
  load: 0x00, store: 0x0b, const: 0x0c, shuffle: 0x0d, i32x4Splat: 0x11, i32x4ExtractLane: 0x1b,
  and: 0x4e, or: 0x50, xor: 0x51, bitselect: 0x52,
  i32x4Shl: 0xab, i32x4ShrU: 0xad, i32x4Add: 0xae,
};
const V128 = 0x7b;
const I32 = 0x7f;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Buffer.from(s, 'latin1')];
}

/** Builds the module: imports a shared `k.mem`, exports `xor(scr, ptr, firstBlock, groups)`. */
export function buildKeystreamKernel(): Uint8Array {
  const c: number[] = [];
  const simd = (op: number, ...imm: number[]) => c.push(0xfd, ...uleb(op), ...imm);
  const get = (l: number) => c.push(OP.localGet, ...uleb(l));
  const set = (l: number) => c.push(OP.localSet, ...uleb(l));
  const i32 = (v: number) => c.push(OP.i32Const, ...sleb(v | 0));
  const splat = (v: number) => {
    i32(v);
    simd(SIMD.i32x4Splat);
  };
  const vconst = (lanes: number[]) => {
    const b = Buffer.alloc(16);
    lanes.forEach((v, i) => b.writeInt32LE(v | 0, i * 4));
    simd(SIMD.const, ...b);
  };
  const BSWAP = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

  // Locals: params 0 scr (scratch slot), 1 ptr (first group's data), 2 firstBlock, 3 groups;
  // i32: 4 g, 5 p (this group's data), 6 t (a pointer into the scratch slot); v128: W (16, the
  // message), a..h, t1, x.
  const SCR = 0, PTR0 = 1, FIRST = 2, GROUPS = 3;
  const G = 4, PTR = 5, T = 6;
  const W0 = 7;
  const S0 = W0 + 16; // a..h
  const T1 = S0 + 8;
  const X = T1 + 1;
  const V128_LOCALS = 16 + 8 + 2;

  // rotr(x) for the value on the stack kept in local `l`: (x >>> n) | (x << 32-n)
  const rotr = (l: number, n: number) => {
    get(l); i32(n); simd(SIMD.i32x4ShrU);
    get(l); i32(32 - n); simd(SIMD.i32x4Shl);
    simd(SIMD.or);
  };
  const shr = (l: number, n: number) => {
    get(l); i32(n); simd(SIMD.i32x4ShrU);
  };
  const add = () => simd(SIMD.i32x4Add);
  const xor = () => simd(SIMD.xor);
  /** Word j of the midstate at scratch offset `stateAt`, splatted. */
  const stateWord = (stateAt: number, j: number) => {
    get(SCR); c.push(OP.i32Load, 2, ...uleb(stateAt + 4 * j)); simd(SIMD.i32x4Splat);
  };

  /**
   * 64 rounds from the 8 midstate words stored in the scratch slot at `stateAt`; the message is
   * in W[0..15] (locals). The schedule lives in the slot (W_OFF, 64 vectors) and the rounds run as
   * a loop of 8 unrolled rounds: small loop bodies keep the optimizing compiler's registers from
   * spilling.
   */
  const compress = (stateAt: number) => {
    for (let j = 0; j < 16; j++) {
      get(SCR); get(W0 + j); simd(SIMD.store, 4, ...uleb(W_OFF + 16 * j));
    }
    // Schedule loop: T from scr + 16*16 to scr + 64*16.
    get(SCR); i32(16 * 16); c.push(OP.i32Add); set(T);
    c.push(OP.block, 0x40, OP.loop, 0x40);
    const wAt = (back: number) => {
      get(T); simd(SIMD.load, 4, ...uleb(W_OFF - 16 * back));
    };
    // σ1(W[t-2])
    wAt(2); set(X);
    rotr(X, 17); rotr(X, 19); xor(); shr(X, 10); xor();
    wAt(7); add();
    wAt(15); set(X);
    rotr(X, 7); rotr(X, 18); xor(); shr(X, 3); xor(); add();
    wAt(16); add();
    set(X);
    get(T); get(X); simd(SIMD.store, 4, ...uleb(W_OFF));
    get(T); i32(16); c.push(OP.i32Add); set(T);
    get(T); get(SCR); i32(64 * 16); c.push(OP.i32Add); c.push(OP.i32LtU, OP.brIf, 0);
    c.push(OP.end, OP.end);
    for (let j = 0; j < 8; j++) {
      stateWord(stateAt, j); set(S0 + j);
    }
    // Round loop: T from scr to scr + 64*16, 8 rounds per pass; names rotate back to the start after 8.
    get(SCR); set(T);
    c.push(OP.block, 0x40, OP.loop, 0x40);
    let vars = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => S0 + j);
    for (let r = 0; r < 8; r++) {
      const [a, b, cc, d, e, f, g, h] = vars;
      // T1 = h + Σ1(e) + ch(e,f,g) + K[t] + W[t]; ch = bitselect(f, g, e)
      get(h);
      rotr(e, 6); rotr(e, 11); xor(); rotr(e, 25); xor(); add();
      get(f); get(g); get(e); simd(SIMD.bitselect); add();
      get(T); simd(SIMD.load, 4, ...uleb(K_OFF + 16 * r)); add();
      get(T); simd(SIMD.load, 4, ...uleb(W_OFF + 16 * r)); add();
      set(T1);
      get(d); get(T1); add(); set(d);
      get(T1);
      rotr(a, 2); rotr(a, 13); xor(); rotr(a, 22); xor(); add();
      get(cc); get(b); get(a); get(b); xor(); simd(SIMD.bitselect); add();
      set(h);
      vars = [h, a, b, cc, d, e, f, g];
    }
    get(T); i32(8 * 16); c.push(OP.i32Add); set(T);
    get(T); get(SCR); i32(64 * 16); c.push(OP.i32Add); c.push(OP.i32LtU, OP.brIf, 0);
    c.push(OP.end, OP.end);
    // After 8 rounds the names are back in place: S0+j holds word j. Add the starting state.
    for (let j = 0; j < 8; j++) {
      get(S0 + j);
      stateWord(stateAt, j);
      add();
      set(S0 + j);
    }
  };

  c.push(OP.block, 0x40, OP.loop, 0x40);
  get(G); get(GROUPS); c.push(OP.i32GeU, OP.brIf, 1);
  // p = ptr + 128 g
  get(G); i32(128); c.push(OP.i32Mul); get(PTR0); c.push(OP.i32Add); set(PTR);
  // Inner block: nonce (4 words), word(i) little-endian as big-endian words, padding, length 704 bits.
  for (let j = 0; j < 4; j++) {
    stateWord(64, j); set(W0 + j);
  }
  get(FIRST); get(G); i32(4); c.push(OP.i32Mul); c.push(OP.i32Add); simd(SIMD.i32x4Splat);
  vconst([0, 1, 2, 3]); add();
  // Byte-swap each lane (i8x16.shuffle takes two operands: the same vector twice).
  set(T1); get(T1); get(T1); simd(SIMD.shuffle, ...BSWAP); set(W0 + 4);
  for (let j = 5; j < 16; j++) {
    splat(j === 6 ? 0x80000000 : j === 15 ? (64 + 24) * 8 : 0);
    set(W0 + j);
  }
  compress(0);
  // Outer block: the inner digest (8 words), padding, length 768 bits.
  for (let j = 0; j < 8; j++) {
    get(S0 + j); set(W0 + j);
  }
  for (let j = 8; j < 16; j++) {
    splat(j === 8 ? 0x80000000 : j === 15 ? (64 + 32) * 8 : 0);
    set(W0 + j);
  }
  compress(32);
  // XOR: block (lane) l, word k at p + 32 l + 4 k, keystream bytes big-endian.
  for (let k = 0; k < 8; k++) {
    get(S0 + k); get(S0 + k); simd(SIMD.shuffle, ...BSWAP); set(S0 + k);
    for (let l = 0; l < 4; l++) {
      get(PTR);
      get(PTR); c.push(OP.i32Load, 2, ...uleb(32 * l + 4 * k));
      get(S0 + k); simd(SIMD.i32x4ExtractLane, l);
      c.push(OP.i32Xor);
      c.push(OP.i32Store, 2, ...uleb(32 * l + 4 * k));
    }
  }
  get(G); i32(1); c.push(OP.i32Add); set(G);
  c.push(OP.br, 0, OP.end, OP.end, OP.end);

  const locals = [2, ...uleb(3), I32, ...uleb(V128_LOCALS), V128];
  const body = [...locals, ...c];
  const func = [...uleb(body.length), ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 0]),
    // import k.mem: a shared memory (limits flag 3: shared, with a maximum)
    ...section(2, [1, ...name('k'), ...name('mem'), 0x02, 0x03, ...uleb(1), ...uleb(MAX_PAGES)]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('xor'), 0x00, 0]),
    ...section(10, [1, ...func]),
  ]);
}

