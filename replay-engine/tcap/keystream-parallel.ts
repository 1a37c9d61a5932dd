// The keystream on two cores for large capsules, only as far as the second core pays.
//
// The capsule is read into shared memory, and the body is decrypted in place by this thread
// (chunks of 256 KiB from the front) and a worker thread (from the back), both claiming chunks
// from one atomic counter, so neither waits for the other: a worker that starts late (its first
// start costs tens of ms) or gets no core on a busy machine simply takes fewer chunks, or none.
// The job is posted before the tag is checked, so the worker starts while the tag is checked; it
// touches no byte until this thread says the tag matched. The worker is started once, kept idle
// and unref'd (it never holds the process open), and handed the compiled kernel module.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { keystreamState, SIMD_MIN_BYTES, xorKeystream } from './keystream';
import { KERNEL_LAYOUT, simdModule, splattedRoundConstants, xorKeystreamSimd } from './keystream-simd';

/** Below this a second thread saves less than its hand-off costs. */
export const PARALLEL_MIN_BYTES = 2 * 1024 * 1024;
const CHUNK = KERNEL_LAYOUT.CHUNK;

// Control words in shared memory: the next claim number, the worker's state for this job, and
// whether the tag matched (GO) or the job was dropped (CANCELLED).
const NEXT = 0;
const STATE = 1;
const SIGNAL = 2;
const NOT_STARTED = 0;
const WORKING = 1;
const FINISHED = 2;
const WAIT = 0;
const GO = 1;
const CANCELLED = 2;

// Runs in the worker: waits for the tag check, then decrypts chunks from the back, in place.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let kernel;
parentPort.on('message', (m) => {
  const ctl = new Int32Array(m.control);
  if (Atomics.compareExchange(ctl, ${STATE}, ${NOT_STARTED}, ${WORKING}) !== ${NOT_STARTED}) return;
  let ok = true, error, finished = 0;
  try {
    if (!kernel) {
      kernel = new WebAssembly.Instance(m.module).exports;
      new Int32Array(kernel.mem.buffer, m.layout.K_MEM, 256).set(m.k);
    }
    Atomics.wait(ctl, ${SIGNAL}, ${WAIT});
    if (Atomics.load(ctl, ${SIGNAL}) === ${GO}) {
      const words = new Int32Array(kernel.mem.buffer, 0, 20);
      words.set(m.inner, 0);
      words.set(m.outer, 8);
      words.set(m.nonceWords, 16);
      const mem = new Uint8Array(kernel.mem.buffer);
      const buf = new Uint8Array(m.data, m.offset, m.length);
      const { DATA, CHUNK } = m.layout;
      for (let j = 0; ; j++) {
        if (Atomics.add(ctl, ${NEXT}, 1) >= m.chunks) break;
        const off = (m.chunks - 1 - j) * CHUNK;
        const len = Math.min(CHUNK, m.length - off);
        mem.set(buf.subarray(off, off + len), DATA);
        kernel.xor(off / 32, Math.ceil(len / 128));
        buf.set(mem.subarray(DATA, DATA + len), off);
        finished = j + 1;
      }
    }
  } catch (e) {
    ok = false;
    error = String((e && e.message) || e);
  }
  Atomics.store(ctl, ${STATE}, ${FINISHED});
  parentPort.postMessage({ id: m.id, ok, error, finished });
});
`;

interface Reply {
  id: number;
  ok: boolean;
  error?: string;
  /** Chunks the worker decrypted (from the back); a chunk it failed on is left untouched. */
  finished?: number;
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
      if (pending.size === 0) w.unref();
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

/** A decryption begun before the tag check: go() decrypts once it matched, cancel() drops it. */
export interface KeystreamJob {
  /** XOR the data with the keystream, in place. */
  go(): Promise<void>;
  cancel(): void;
}

/** Whether a body of this size is worth reading into shared memory (so that two threads can decrypt it). */
export function sharesWork(length: number): boolean {
  return length >= PARALLEL_MIN_BYTES && availableParallelism() >= 2 && simdModule() !== null;
}

/**
 * Prepares decrypting `data` in place: on the worker as well when that can pay (a large body in
 * shared memory, WebAssembly SIMD, a second core), else entirely in go().
 */
export function startKeystream(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): KeystreamJob {
  const length = data.length;
  const module = simdModule();
  const shared = data.buffer instanceof SharedArrayBuffer;
  const w = shared && module && sharesWork(length) ? keystreamWorker() : null;
  if (!w || !module) return { go: async () => xorInPlace(ke, nonce, data), cancel: () => undefined };
  const st = keystreamState(ke, nonce);
  const chunks = Math.ceil(length / CHUNK);
  const control = new SharedArrayBuffer(12);
  const ctl = new Int32Array(control);
  const id = nextId++;
  const done = new Promise<Reply>((resolve) => pending.set(id, resolve));
  w.ref(); // until the worker's part is in, or it is told not to start
  w.postMessage({ id, module, layout: KERNEL_LAYOUT, k: splattedRoundConstants(), ...st, control, data: data.buffer, offset: data.byteOffset, length, chunks });
  const signal = (v: number) => {
    Atomics.store(ctl, SIGNAL, v);
    Atomics.notify(ctl, SIGNAL);
  };
  /** True when the worker had not begun this job, and now never will. */
  const stopWorker = (): boolean => Atomics.compareExchange(ctl, STATE, NOT_STARTED, FINISHED) === NOT_STARTED;
  const release = () => {
    pending.delete(id);
    if (pending.size === 0) w.unref();
  };
  return {
    cancel: () => {
      Atomics.store(ctl, NEXT, chunks);
      signal(CANCELLED);
      stopWorker();
      release();
    },
    go: async () => {
      signal(GO);
      let mine = 0;
      while (Atomics.add(ctl, NEXT, 1) < chunks) {
        const off = mine * CHUNK;
        xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, data, off, Math.min(off + CHUNK, length));
        mine++;
      }
      // Every chunk is claimed. A worker that never began is told not to; else wait for its last chunk.
      const reply: Reply = stopWorker() ? { id, ok: true } : await done;
      release();
      if (reply.ok) return;
      // The worker failed: the chunks it did not finish are untouched, so decrypt them here.
      if (reply.finished === undefined) throw new Error(`the keystream worker stopped while decrypting: ${reply.error}`);
      xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, data, mine * CHUNK, Math.min((chunks - reply.finished) * CHUNK, length));
    },
  };
}

/** One thread, in place: the SIMD kernel for a large body, else xorKeystream's choice. */
function xorInPlace(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): void {
  const st = keystreamState(ke, nonce);
  if (data.length >= SIMD_MIN_BYTES && xorKeystreamSimd(st.inner, st.outer, st.nonceWords, data, data)) return;
  data.set(xorKeystream(ke, nonce, data));
}

/** Like xorKeystream, on two threads when the data is large and the machine has a second core. */
export async function xorKeystreamParallel(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(sharesWork(data.length) ? new SharedArrayBuffer(data.length) : new ArrayBuffer(data.length));
  out.set(data);
  await startKeystream(ke, nonce, out).go();
  return out;
}
