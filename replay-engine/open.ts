// The one way into the engine: read a recording of any known format, detected by its first bytes
// (never by its name), and optionally add what the toolchain knows (machin's replay).
import { extname, resolve } from 'node:path';
import { fileError } from './file-error';
import { RecordingError } from './model/errors';
import type { Recording } from './model/recording';
import { enrichWithMachin } from './machin/enrich';
import { warmUpMachinReplays } from './machin/warm-up';
import { readMflrr } from './mflrr/recording';
import type { OpenOptions } from './open-options';
import { openRegularFile } from './regular-file';
import { readCapsule } from './tcap/read-capsule';

const SNIFF_BYTES = 16;

export type RecordingKind = 'mflrr' | 'tcap';

/** Which format a file holds, from its first bytes; empty files are placed by their extension. */
export async function detectFormat(file: string): Promise<RecordingKind> {
  let head = new Uint8Array(SNIFF_BYTES);
  const { handle, size } = await openRegularFile(file); // a FIFO or a device is refused here
  try {
    const { bytesRead } = await handle.read(head, 0, Math.min(SNIFF_BYTES, size), 0);
    head = head.subarray(0, bytesRead);
  } catch (err) {
    throw fileError(file, err);
  } finally {
    await handle.close().catch(() => undefined);
  }
  const text = Buffer.from(head).toString('latin1');
  if (text.startsWith('MFLRR')) return 'mflrr';
  if (text.startsWith('TINCAP')) return 'tcap';
  const ext = extname(file).toLowerCase();
  if (size === 0 && ext === '.mflrr') return 'mflrr'; // the trace reader explains an empty trace
  if (size === 0 && ext === '.tcap') return 'tcap';
  throw new RecordingError(
    size === 0 ? 'empty' : 'not-a-recording',
    size === 0
      ? `${file}: the file is empty (0 bytes); Frozen Run reads machin traces (.mflrr) and Tin capsules (.tcap)`
      : `${file}: not a recording Frozen Run knows: a machin trace starts with \`MFLRR\`, a Tin capsule with \`TINCAP\`; check that this is the file the recorder wrote`,
    { file, offset: 0 },
  );
}

/**
 * Each format: how its file is read (nothing runs), and how it is opened: read, then what its
 * toolchain adds (a trace: machin's replay; a capsule: nothing, the file holds the run).
 */
const FORMATS: Record<RecordingKind, { read(path: string, options: OpenOptions): Promise<Recording>; open(path: string, options: OpenOptions): Promise<Recording> }> = {
  mflrr: {
    read: (path) => readMflrr(path),
    open: async (path, options) => {
      // (what the replays need and the trace does not decide, made while the trace is read)
      if (!options.noToolchain && options.sourceLevel !== false) warmUpMachinReplays();
      const trace = await readMflrr(path);
      await enrichWithMachin(trace, options);
      return trace;
    },
  },
  tcap: { read: readCapsule, open: readCapsule },
};

/** Reads a recording as it is in the file; nothing runs. Throws RecordingError. */
export async function readRecording(file: string, options: OpenOptions = {}): Promise<Recording> {
  const path = resolve(file);
  return FORMATS[await detectFormat(path)].read(path, options);
}

/**
 * Reads a recording and, for a machin trace, adds what the machin bridge knows: goroutine labels
 * from the program source always (nothing runs), machin's replay results (panic, verify, value
 * histories) unless options.noToolchain. A missing machin is a warning, never an error.
 */
export async function openRecording(file: string, options: OpenOptions = {}): Promise<Recording> {
  const path = resolve(file);
  return FORMATS[await detectFormat(path)].open(path, options);
}
