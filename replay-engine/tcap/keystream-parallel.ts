// The keystream on two cores for large capsules, only as far as the second core pays.
//
// A large capsule is read straight into a shared kernel memory (capsuleBuffer, keystream-simd.ts),
// and the body is decrypted where it lies by this thread (chunks of 256 KiB from the front) and a
// worker thread (from the back), both running the kernel on that one memory and claiming chunks
// from one atomic counter, so neither waits for the other: a worker that starts late or gets no
// core on a busy machine simply takes fewer chunks, or none. The worker is started as soon as the
// file's size says it will be wanted (prepareKeystreamWorker, before the file is read), so that
// its start-up (tens of ms) overlaps the read and the tag check; the job is posted before the tag
// is checked, and the worker touches no byte of the capsule until this thread says the tag
// matched. The worker is started once, kept idle and unref'd (it never holds the process open),
// and handed the compiled kernel module.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { keystreamState, SIMD_MIN_BYTES, xorKeystream } from './keystream';
import { capsuleBuffer, inPlaceKernel, kernelMemoryOf, KERNEL_LAYOUT, simdModule, splattedRoundConstants, xorKeystreamSimd } from './keystream-simd';

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

// Runs in the worker: waits for the tag check, then decrypts chunks from the back, in place, in
// its own scratch slot (1) of the capsule's memory.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage('up');
parentPort.on('message', (m) => {
  const ctl = new Int32Array(m.control);
  if (Atomics.compareExchange(ctl, ${STATE}, ${NOT_STARTED}, ${WORKING}) !== ${NOT_STARTED}) return;
  let ok = true, error, finished = 0;
  try {
    const { SLOT, K_OFF, TAIL_OFF, CHUNK } = m.layout;
    const memory = m.memory;
    const xor = new WebAssembly.Instance(m.module, { k: { mem: memory } }).exports.xor;
    const scr = SLOT;
    new Int32Array(memory.buffer, scr + K_OFF, 256).set(m.k);
    Atomics.wait(ctl, ${SIGNAL}, ${WAIT});
    if (Atomics.load(ctl, ${SIGNAL}) === ${GO}) {
      const words = new Int32Array(memory.buffer, scr, 20);
      words.set(m.inner, 0);
      words.set(m.outer, 8);
      words.set(m.nonceWords, 16);
      const bytes = new Uint8Array(memory.buffer);
      for (let j = 0; ; j++) {
        if (Atomics.add(ctl, ${NEXT}, 1) >= m.chunks) break;
        const off = (m.chunks - 1 - j) * CHUNK;
        const len = Math.min(CHUNK, m.length - off);
        const at = m.at + off, groups = len >>> 7, rest = len & 127;
        if (groups > 0) xor(scr, at, off / 32, groups);
        if (rest > 0) {
          const from = at + groups * 128, tail = scr + TAIL_OFF;
          bytes.copyWithin(tail, from, from + rest);
          xor(scr, tail, off / 32 + groups * 4, 1);
          bytes.copyWithin(from, tail, tail + rest);
        }
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
/** Whether the worker has started (said 'up'); until then it holds the process open. */
let booted = false;
let nextId = 1;
const pending = new Map<number, (r: Reply) => void>();

function keystreamWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    // Held (ref'd) until the worker says it is up: a process that ends while an unref'd worker is
    // still starting can hang in Node's teardown (seen on Node 20), so an open that fails early
    // (no key, wrong key) waits the few tens of ms of the worker's start before it exits.
    w.on('message', (r: Reply | 'up') => {
      if (r === 'up') {
        booted = true;
      } else {
        pending.get(r.id)?.(r);
        pending.delete(r.id);
      }
      if (pending.size === 0 && booted) w.unref();
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
 * Where a capsule file of `size` bytes is read into: a kernel memory when two threads will
 * decrypt it (and then the worker is started now, so that it is up by the time the tag matched),
 * else plain memory.
 */
export function capsuleFileBuffer(size: number): Uint8Array {
  if (sharesWork(size)) {
    const bytes = capsuleBuffer(size);
    if (bytes) {
      keystreamWorker();
      return bytes;
    }
  }
  return new Uint8Array(size);
}

/**
 * Prepares decrypting `data` in place: on the worker as well when that can pay (a large body in
 * a kernel memory, a second core), else entirely in go().
 */
export function startKeystream(ke: Uint8Array, nonce: Uint8Array, data: Uint8Array): KeystreamJob {
  const length = data.length;
  const module = simdModule();
  const memory = kernelMemoryOf(data);
  const w = memory && module && sharesWork(length) ? keystreamWorker() : null;
  if (!w || !module || !memory) return { go: async () => xorInPlace(ke, nonce, data), cancel: () => undefined };
  const st = keystreamState(ke, nonce);
  const chunks = Math.ceil(length / CHUNK);
  const control = new SharedArrayBuffer(12);
  const ctl = new Int32Array(control);
  const id = nextId++;
  const done = new Promise<Reply>((resolve) => pending.set(id, resolve));
  w.ref(); // until the worker's part is in, or it is told not to start
  w.postMessage({ id, module, memory, layout: KERNEL_LAYOUT, k: splattedRoundConstants(), ...st, control, at: data.byteOffset, length, chunks });
  const signal = (v: number) => {
    Atomics.store(ctl, SIGNAL, v);
    Atomics.notify(ctl, SIGNAL);
  };
  /** True when the worker had not begun this job, and now never will. */
  const stopWorker = (): boolean => Atomics.compareExchange(ctl, STATE, NOT_STARTED, FINISHED) === NOT_STARTED;
  const release = () => {
    pending.delete(id);
    if (pending.size === 0 && booted) w.unref();
  };
  const kernel = inPlaceKernel(module, memory);
  const run = (from: number, to: number) => {
    for (let off = from; off < to; off += CHUNK) kernel.run(data.byteOffset + off, off / 32, Math.min(CHUNK, to - off));
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
      kernel.setState(st.inner, st.outer, st.nonceWords);
      let mine = 0;
      while (Atomics.add(ctl, NEXT, 1) < chunks) {
        const off = mine * CHUNK;
        run(off, Math.min(off + CHUNK, length));
        mine++;
      }
      // Every chunk is claimed. A worker that never began is told not to; else wait for its last chunk.
      const reply: Reply = stopWorker() ? { id, ok: true } : await done;
      release();
      if (reply.ok) return;
      // The worker failed: the chunks it did not finish are untouched, so decrypt them here.
      if (reply.finished === undefined) throw new Error(`the keystream worker stopped while decrypting: ${reply.error}`);
      run(mine * CHUNK, Math.min((chunks - reply.finished) * CHUNK, length));
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
  const out = (sharesWork(data.length) && capsuleBuffer(data.length)) || new Uint8Array(data.length);
  out.set(data);
  await startKeystream(ke, nonce, out).go();
  return out;
}
