// A worker thread of the spool index (bundled as dist/spool-worker.js): reads and summarises the
// batches of capsule names it is sent, each with readSpoolCapsule, and posts the summaries back.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { folderKeyResolver } from './folder-keys';
import { readSpoolCapsule } from './spool-index';
import type { WorkerBatch, WorkerSetup } from './spool-workers';

const setup = workerData as WorkerSetup;
const keysFor = folderKeyResolver({ keyHex: setup.keyHex, keyFile: setup.keyFile, env: setup.env });

parentPort?.on('message', (batch: WorkerBatch) => {
  parentPort?.postMessage({ id: batch.id, capsules: batch.names.map((n) => readSpoolCapsule(join(setup.dir, n), keysFor, setup.limitBytes)) });
});
