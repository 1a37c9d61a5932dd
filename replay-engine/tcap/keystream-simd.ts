// The capsule keystream four blocks at a time: a WebAssembly SIMD function, generated here, runs
// four independent HMAC-SHA256 keystream blocks in the four 32-bit lanes of each vector (SHA-256
// has no parallelism inside one block, but keystream blocks are independent). It starts from the
// HMAC pad midstates computed once in JS, and XORs the keystream into the data in wasm memory.
// Why not node:crypto: it has no way to hash many small independent messages in one call, and one
// call per 32-byte block (createHmac, or Hash.copy() of a midstate) costs microseconds each.
// Where WebAssembly SIMD is missing, simdModule() is null and callers use the JS path.
import { SHA256_ROUND_CONSTANTS } from './sha256-block';

// Wasm memory: 0..31 inner midstate, 32..63 outer, 64..79 nonce words; K_MEM the 64 round
// constants splatted to vectors; W_MEM the message schedule (64 vectors); DATA the data chunk.
const K_MEM = 1024;
const W_MEM = K_MEM + 64 * 16;
const DATA = W_MEM + 64 * 16;
const CHUNK = 256 * 1024; // bytes per call (a multiple of 128: one group is 4 blocks of 32 bytes)
const PAGES = Math.ceil((DATA + CHUNK) / 65536);

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

/** Builds the module: export `mem` and `xor(firstBlock, groups)`. */
function buildModule(): Uint8Array {
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

  // Locals: params 0 firstBlock, 1 groups; i32: 2 g, 3 ptr, 4 t; v128: W (16, the message), a..h, t1, x.
  const G = 2, PTR = 3, T = 4;
  const W0 = 5;
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

  /**
   * 64 rounds from the 8 midstate words stored in memory at `stateAt`; the message is in W[0..15]
   * (locals). The schedule lives in memory (W_MEM, 64 vectors) and the rounds run as a loop of 8
   * unrolled rounds: small loop bodies keep the optimizing compiler's registers from spilling.
   */
  const compress = (stateAt: number) => {
    for (let j = 0; j < 16; j++) {
      i32(0); get(W0 + j); simd(SIMD.store, 4, ...uleb(W_MEM + 16 * j));
    }
    // Schedule loop: T (a byte offset) from 16*16 to 64*16.
    i32(16 * 16); set(T);
    c.push(OP.block, 0x40, OP.loop, 0x40);
    const wAt = (back: number) => {
      get(T); simd(SIMD.load, 4, ...uleb(W_MEM - 16 * back));
    };
    // σ1(W[t-2])
    wAt(2); set(X);
    rotr(X, 17); rotr(X, 19); xor(); shr(X, 10); xor();
    wAt(7); add();
    wAt(15); set(X);
    rotr(X, 7); rotr(X, 18); xor(); shr(X, 3); xor(); add();
    wAt(16); add();
    set(X);
    get(T); get(X); simd(SIMD.store, 4, ...uleb(W_MEM));
    get(T); i32(16); c.push(OP.i32Add); set(T);
    get(T); i32(64 * 16); c.push(OP.i32LtU, OP.brIf, 0);
    c.push(OP.end, OP.end);
    for (let j = 0; j < 8; j++) {
      i32(0); c.push(OP.i32Load, 2, ...uleb(stateAt + 4 * j)); simd(SIMD.i32x4Splat); set(S0 + j);
    }
    // Round loop: T from 0 to 64*16, 8 rounds per pass; names rotate back to the start after 8.
    i32(0); set(T);
    c.push(OP.block, 0x40, OP.loop, 0x40);
    let vars = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => S0 + j);
    for (let r = 0; r < 8; r++) {
      const [a, b, cc, d, e, f, g, h] = vars;
      // T1 = h + Σ1(e) + ch(e,f,g) + K[t] + W[t]; ch = bitselect(f, g, e)
      get(h);
      rotr(e, 6); rotr(e, 11); xor(); rotr(e, 25); xor(); add();
      get(f); get(g); get(e); simd(SIMD.bitselect); add();
      get(T); simd(SIMD.load, 4, ...uleb(K_MEM + 16 * r)); add();
      get(T); simd(SIMD.load, 4, ...uleb(W_MEM + 16 * r)); add();
      set(T1);
      get(d); get(T1); add(); set(d);
      get(T1);
      rotr(a, 2); rotr(a, 13); xor(); rotr(a, 22); xor(); add();
      get(cc); get(b); get(a); get(b); xor(); simd(SIMD.bitselect); add();
      set(h);
      vars = [h, a, b, cc, d, e, f, g];
    }
    get(T); i32(8 * 16); c.push(OP.i32Add); set(T);
    get(T); i32(64 * 16); c.push(OP.i32LtU, OP.brIf, 0);
    c.push(OP.end, OP.end);
    // After 8 rounds the names are back in place: S0+j holds word j. Add the starting state.
    for (let j = 0; j < 8; j++) {
      get(S0 + j);
      i32(0); c.push(OP.i32Load, 2, ...uleb(stateAt + 4 * j)); simd(SIMD.i32x4Splat);
      add();
      set(S0 + j);
    }
  };

  c.push(OP.block, 0x40, OP.loop, 0x40);
  get(G); get(1); c.push(OP.i32GeU, OP.brIf, 1);
  // ptr = DATA + 128 g
  get(G); i32(128); c.push(OP.i32Mul); i32(DATA); c.push(OP.i32Add); set(PTR);
  // Inner block: nonce (4 words), word(i) little-endian as big-endian words, padding, length 704 bits.
  for (let j = 0; j < 4; j++) {
    i32(0); c.push(OP.i32Load, 2, ...uleb(64 + 4 * j)); simd(SIMD.i32x4Splat); set(W0 + j);
  }
  get(0); get(G); i32(4); c.push(OP.i32Mul); c.push(OP.i32Add); simd(SIMD.i32x4Splat);
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
  // XOR: block (lane) l, word k at ptr + 32 l + 4 k, keystream bytes big-endian.
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
    ...section(1, [1, 0x60, 2, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, ...uleb(PAGES)]),
    ...section(7, [2, ...name('mem'), 0x02, 0, ...name('xor'), 0x00, 0]),
    ...section(10, [1, ...func]),
  ]);
}

interface SimdKernel {
  mem: WebAssembly.Memory;
  xor: (firstBlock: number, groups: number) => void;
}

/** What a worker thread needs to run the same kernel (see keystream-parallel.ts). */
export const KERNEL_LAYOUT = { K_MEM, DATA, CHUNK };

let wasmModule: WebAssembly.Module | null | undefined;
let kernel: SimdKernel | null | undefined;

/** The compiled kernel module, or null where WebAssembly SIMD is missing. */
export function simdModule(): WebAssembly.Module | null {
  if (wasmModule === undefined) {
    try {
      wasmModule = new WebAssembly.Module(buildModule() as Uint8Array<ArrayBuffer>);
    } catch {
      wasmModule = null; // no WebAssembly SIMD here: the callers use the scalar path
    }
  }
  return wasmModule;
}

/** The round constants as the kernel's memory holds them: each splatted to 4 lanes. */
export function splattedRoundConstants(): Int32Array {
  const k = new Int32Array(64 * 4);
  for (let t = 0; t < 64; t++) k.fill(SHA256_ROUND_CONSTANTS[t], 4 * t, 4 * t + 4);
  return k;
}

function loadKernel(): SimdKernel | null {
  if (kernel !== undefined) return kernel;
  const module = simdModule();
  if (!module) return (kernel = null);
  kernel = new WebAssembly.Instance(module).exports as unknown as SimdKernel;
  new Int32Array(kernel.mem.buffer, K_MEM, 64 * 4).set(splattedRoundConstants());
  return kernel;
}

/**
 * XOR src[from..to) with the keystream into dst[from..to) (may be the same array), given the HMAC
 * pad midstates; `from` must be a multiple of 128. False when SIMD is unavailable.
 */
export function xorKeystreamSimd(
  inner: Int32Array,
  outer: Int32Array,
  nonceWords: Int32Array,
  src: Uint8Array,
  dst: Uint8Array,
  from = 0,
  to = src.length,
): boolean {
  const k = loadKernel();
  if (!k || to / 32 >= 0x7fffffff || from % 128 !== 0) return false;
  const words = new Int32Array(k.mem.buffer, 0, 20);
  words.set(inner, 0);
  words.set(outer, 8);
  words.set(nonceWords, 16);
  const mem = new Uint8Array(k.mem.buffer);
  for (let off = from; off < to; off += CHUNK) {
    const len = Math.min(CHUNK, to - off);
    mem.set(src.subarray(off, off + len), DATA);
    k.xor(off / 32, Math.ceil(len / 128));
    dst.set(mem.subarray(DATA, DATA + len), off);
  }
  return true;
}
