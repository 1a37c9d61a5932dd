// Where the keystream kernel keeps its data in a memory (shared by the kernel's generator,
// keystream-kernel-build.ts, and its loader, keystream-simd.ts). Each thread that runs the kernel
// has a scratch slot of SLOT bytes at `scr` (slot t at t * SLOT): 0..31 inner midstate, 32..63
// outer, 64..79 nonce words; K_OFF the 64 round constants splatted to vectors; W_OFF the message
// schedule (64 vectors); TAIL_OFF room for a last group shorter than 128 bytes. A capsule is read
// at DATA_BASE.
export const K_OFF = 1024;
export const W_OFF = K_OFF + 64 * 16;
export const TAIL_OFF = W_OFF + 64 * 16;
export const SLOT = 4096;
export const DATA_BASE = 65536;
export const PAGE = 65536;
/** Bytes per claim of the two-thread path, and per call of the copying path (a multiple of 128). */
export const CHUNK = 256 * 1024;
/** The most pages a 32-bit memory has (4 GiB). */
export const MAX_PAGES = 65536;
