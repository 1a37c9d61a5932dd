// The spool index on several threads: batches of capsule names go to worker threads (read, tag,
// walk: all of a capsule's work), summaries come back. Used for spools large enough to pay for
// starting the workers, when the machine has a second core and the worker bundle is there.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SpoolCapsule } from './capsule-summary';

export interface WorkerSetup {
  dir: string;
  keyHex?: string;
  keyFile?: string;
  env: NodeJS.ProcessEnv;
  /** The capsule size limit, in bytes. */
  limitBytes: number;
}

export interface WorkerBatch {
  id: number;
  names: string[];
}

interface WorkerReply {
  id: number;
  capsules: Array<SpoolCapsule | undefined>;
}

/** Below this many capsules one thread is done before workers would have started. */
export const WORKERS_MIN_CAPSULES = 200;
const BATCH = 16;

/** The worker's script: the bundle beside this one (dist/), or the source when run by tsx. */
function workerScript(): string | undefined {
  for (const f of ['spool-worker.js', 'spool-worker.ts']) if (existsSync(join(__dirname, f))) return join(__dirname, f);
  return undefined;
}

export function workerScriptFound(): boolean {
  return workerScript() !== undefined;
}

/**
 * How many workers pay for this many capsules: none for a small spool, and none on a machine of
 * two cores or fewer (measured there: the workers' own start and warm-up cost more CPU than they
 * save, bench/spool.bench.ts); else one per core but one, at most 4.
 */
export function workerCount(capsules: number): number {
  if (capsules < WORKERS_MIN_CAPSULES || !workerScriptFound()) return 0;
  const cores = availableParallelism();
  return cores <= 2 ? 0 : Math.min(cores - 1, 4);
}

/**
 * Summaries of `names` (in batches, as they finish) from `count` workers. Stops early when
 * `stopped()` says so; the workers are always ended.
 */
export async function* summariseOnWorkers(setup: WorkerSetup, names: string[], count: number, stopped: () => boolean): AsyncGenerator<Array<SpoolCapsule | undefined>> {
  const script = workerScript()!;
  // Run from source (tests, benches under tsx), the worker loads tsx's require hook first.
  const start = (): Worker =>
    script.endsWith('.ts')
      ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(script)});`, { eval: true, workerData: setup })
      : new Worker(script, { workerData: setup });
  const workers = Array.from({ length: count }, start);
  const replies: WorkerReply[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let next = 0;
  let outstanding = 0;
  const send = (w: Worker) => {
    if (next >= names.length || stopped()) return;
    w.postMessage({ id: next, names: names.slice(next, next + BATCH) } satisfies WorkerBatch);
    next += BATCH;
    outstanding++;
  };
  for (const w of workers) {
    w.on('message', (r: WorkerReply) => {
      outstanding--;
      replies.push(r);
      send(w);
      wake?.();
    });
    w.on('error', (e) => {
      failure = e;
      wake?.();
    });
    send(w);
    send(w); // two batches in flight each, so no worker waits for the main thread
  }
  try {
    while (outstanding > 0 || replies.length > 0) {
      if (failure) throw failure;
      if (replies.length === 0) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      while (replies.length > 0) yield replies.shift()!.capsules;
    }
    if (failure) throw failure;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
