// The keystream on two cores for large capsules: the SIMD kernel (keystream-simd.ts) runs on the
// calling thread for the first half and on a worker thread for the second, both XORing in place
// into one SharedArrayBuffer. The worker is started once, kept idle and unref'd (it never holds
// the process open), and is handed the compiled module, so nothing is compiled twice by hand.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { keystreamState, xorKeystream } from './keystream';
import { KERNEL_LAYOUT, simdModule, splattedRoundConstants, xorKeystreamSimd } from './keystream-simd';

/** Below this the worker round trip costs more than it saves. */
const PARALLEL_MIN_BYTES = 2 * 1024 * 1024;

// Runs in the worker: the same chunk loop as xorKeystreamSimd, over [from, to) of the shared buffer.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let kernel;
parentPort.on('message', (m) => {
  try {
    if (!kernel) {
      kernel = new WebAssembly.Instance(m.module).exports;
      new Int32Array(kernel.mem.buffer, m.layout.K_MEM, 256).set(m.k);
    }
    const words = new Int32Array(kernel.mem.buffer, 0, 20);
    words.set(m.inner, 0);
    words.set(m.outer, 8);
    words.set(m.nonceWords, 16);
    const mem = new Uint8Array(kernel.mem.buffer);
    const buf = new Uint8Array(m.shared);
    const { DATA, CHUNK } = m.layout;
    for (let off = m.from; off < m.to; off += CHUNK) {
      const len = Math.min(CHUNK, m.to - off);
      mem.set(buf.subarray(off, off + len), DATA);
      kernel.xor(off / 32, Math.ceil(len / 128));
      buf.set(mem.subarray(DATA, DATA + len), off);
    }
    parentPort.postMessage({ id: m.id, ok: true });
  } catch (e) {
    parentPort.postMessage({ id: m.id, ok: false, error: String(e && e.message || e) });
  }
});
`;

interface Reply {
  id: number;
  ok: boolean;
  error?: string;
}

let worker: Worker | null | undefined;
let nextId = 1;
const pending = new Map<number, (r: Reply) => void>();

function keystreamWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.unref();
    w.on('message', (r: Reply) => {
      pending.get(r.id)?.(r);
      pending.delete(r.id);
    });
    const failAll = (why: string) => {
      worker = null; // from now on, one thread
      for (const [id, resolve] of pending) resolve({ id, ok: false, error: why });
      pending.clear();
    };
    w.on('error', (e) => failAll(e.message));
    w.on('exit', () => failAll('the keystream worker stopped'));
    worker = w;
  } catch {
    worker = null;
  }
  return worker;
}

/** Like xorKeystream, on two threads when the data is large and the machine has a second core. */
export async function xorKeystreamParallel(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const module = simdModule();
  if (data.length < PARALLEL_MIN_BYTES || !module || availableParallelism() < 2) return xorKeystream(ke, nonce, data);
  const w = keystreamWorker();
  if (!w) return xorKeystream(ke, nonce, data);
  const st = keystreamState(ke, nonce);
  const shared = new Uint8Array(new SharedArrayBuffer(data.length));
  shared.set(data);
  // The worker takes the second half (on a 128-byte group boundary), this thread the first.
  const split = Math.floor(data.length / 2 / 128) * 128;
  const id = nextId++;
  const done = new Promise<Reply>((resolve) => pending.set(id, resolve));
  if (pending.size === 1) w.ref(); // keep the process alive while the worker has work
  w.postMessage({ id, module, layout: KERNEL_LAYOUT, k: splattedRoundConstants(), ...st, shared: shared.buffer, from: split, to: data.length });
  xorKeystreamSimd(st.inner, st.outer, st.nonceWords, shared, shared, 0, split);
  const reply = await done;
  if (pending.size === 0) w.unref();
  if (!reply.ok) {
    // The worker failed: do its half here (the shared bytes of that half are still ciphertext
    // unless it failed midway, so start again from the original data).
    xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, shared, split, data.length);
  }
  return new Uint8Array(shared); // a copy in an ordinary ArrayBuffer
}
