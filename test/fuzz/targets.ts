// Fuzz targets: each takes bytes and feeds them to one engine entry point. Shared by the bounded
// run in `npm test` (fuzz.test.ts) and the long run of `npm run fuzz` (long-run.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { RecordingError } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';
import { openCapsuleBytes } from '../../replay-engine/tcap/read-capsule';
import { summariseCapsule } from '../../replay-engine/tcap/spool/capsule-summary';
import { folderKeyResolver } from '../../replay-engine/tcap/spool/folder-keys';
import { respValue } from '../../replay-engine/tcap/decode/resp';
import { httpKeyValue, httpResultValue } from '../../replay-engine/tcap/decode/http-effect';
import { requestValue } from '../../replay-engine/tcap/decode/http-request';
import { sqlKeyValue } from '../../replay-engine/tcap/decode/sql';
import { redisKeyValue } from '../../replay-engine/tcap/decode/redis-command';
import { decodeKey, decodeResult } from '../../replay-engine/tcap/decode/effect-kinds';
import { KNOWN_KINDS } from '../../replay-engine/tcap/format';
import { FIXTURE_KEY, seal, unseal } from '../tcap/support/seal';
import { MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';

export interface Target {
  name: string;
  /** Inputs: random bytes and mutations of real recordings. */
  input: fc.Arbitrary<Uint8Array>;
  /** Runs the engine on one input. May throw RecordingError and nothing else. */
  run(bytes: Uint8Array): Promise<void> | void;
}

const u8 = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

function machinTraces(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const dir of readdirSync(MACHIN_FIXTURES)) {
    for (const f of readdirSync(join(MACHIN_FIXTURES, dir))) {
      if (f.endsWith('.mflrr')) out.push(u8(readFileSync(join(MACHIN_FIXTURES, dir, f))));
    }
  }
  return out.filter((t) => t.length > 0);
}

function fixtureCapsules(): Uint8Array[] {
  return readdirSync(TIN_FIXTURES)
    .filter((f) => f.endsWith('.tcap') && f !== 'batch-100k.tcap' && f !== 'tampered.tcap')
    .map((f) => u8(readFileSync(join(TIN_FIXTURES, f))));
}

/** Mutations a damaged or hostile file shows: bit flips, cuts, repeated parts, huge numbers. */
function mutated(seeds: Uint8Array[], extraLines: string[]): fc.Arbitrary<Uint8Array> {
  const seed = fc.constantFrom(...seeds);
  const flip = fc.tuple(seed, fc.nat(), fc.integer({ min: 0, max: 7 })).map(([s, at, bit]) => {
    const b = s.slice();
    if (b.length) b[at % b.length] ^= 1 << bit;
    return b;
  });
  const cut = fc.tuple(seed, fc.nat()).map(([s, at]) => s.slice(0, at % (s.length + 1)));
  const repeat = fc.tuple(seed, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 50 })).map(([s, a, len, times]) => {
    const from = a % (s.length + 1);
    const part = s.slice(from, from + (len % 64));
    const parts = [s.slice(0, from), ...Array.from({ length: times }, () => part), s.slice(from)];
    return u8(Buffer.concat(parts));
  });
  const splice = fc.tuple(seed, fc.nat(), fc.constantFrom(...extraLines)).map(([s, at, line]) => {
    const from = at % (s.length + 1);
    return u8(Buffer.concat([s.slice(0, from), Buffer.from(line, 'latin1'), s.slice(from)]));
  });
  const garbage = fc.uint8Array({ maxLength: 512 });
  return fc.oneof(flip, cut, repeat, splice, garbage);
}

const TRACE_LINES = [
  'S 0\n', 'S 0.\n', 'I 0 zz\n', 'I 0 abc\n', 'I 0 \n', 'S\n', 'X 0\n', '\n', '\r\n', 'MFLRR 2\n',
  'boundary sideways\n', 'program \n', 'safe 7\n', `S ${'9.'.repeat(600)}9\n`, `I 0 ${'ab'.repeat(5000)}\n`,
  'S -1\n', 'S 0..1\n', 'I 0.1 00ff\x00\n', '\xff\xfe\n',
];

/** Writes bytes to a private temp file, since the trace reader streams from a file. */
class TempFiles {
  private readonly dir = mkdtempSync(join(tmpdir(), 'frozen-run-fuzz-'));
  private n = 0;
  write(bytes: Uint8Array, ext: string): string {
    const file = join(this.dir, `input-${this.n++ % 4}${ext}`);
    writeFileSync(file, bytes);
    return file;
  }
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export const tempFiles = new TempFiles();

/** Bodies of the fixture capsules, to mutate and seal again so mutations get past the tag. */
function fixtureBodies(): Uint8Array[] {
  return fixtureCapsules()
    .map((c) => unseal(c, FIXTURE_KEY))
    .filter((b): b is Uint8Array => b !== undefined);
}

/** Overwrites one 8-byte little-endian word with a hostile value (lengths huge or negative). */
function hostileWords(bodies: Uint8Array[]): fc.Arbitrary<Uint8Array> {
  const value = fc.constantFrom(-1n, -8n, 2n ** 62n, 2n ** 31n, 2n ** 32n + 5n, 0x7fffffffffffffffn, 1n << 40n, 0n, 3n);
  return fc.tuple(fc.constantFrom(...bodies), fc.nat(), value).map(([body, at, v]) => {
    const b = body.slice();
    const off = at % Math.max(1, b.length - 7);
    new DataView(b.buffer, b.byteOffset).setBigInt64(off, v, true);
    return b;
  });
}

const KIND_LIST = [...KNOWN_KINDS];

export function targets(): Target[] {
  const traces = machinTraces();
  const capsules = fixtureCapsules();
  const bodies = fixtureBodies();
  const sealedBody = fc
    .oneof(hostileWords(bodies), mutated(bodies, ['\x00', '\xff\xff\xff\xff\xff\xff\xff\xff', 'redis@1']))
    .map((body) => seal(body, FIXTURE_KEY, new Uint8Array(16)));
  const anyBytes = fc.uint8Array({ maxLength: 2048 });
  const respish = fc
    .array(fc.constantFrom('*', '$', ':', '+', '-', '_', '\r\n', '3', '-1', '99999999999', 'OK', '2', '*2\r\n', '$-1\r\n'), { maxLength: 40 })
    .map((parts) => u8(Buffer.from(parts.join(''), 'latin1')));
  const spoolKeys = folderKeyResolver({ keyHex: FIXTURE_KEY, env: {} });
  return [
    {
      name: 'mflrr reader',
      input: mutated(traces, TRACE_LINES),
      run: async (bytes) => {
        await readRecording(tempFiles.write(bytes, '.mflrr'), { noToolchain: true });
      },
    },
    {
      name: 'capsule envelope',
      input: mutated(capsules, ['TINCAP\x01\x00', 'TINCAP\x02\x00', '\x00'.repeat(32)]),
      run: (bytes) => {
        openCapsuleBytes(bytes, 'fuzz.tcap', { keyHex: FIXTURE_KEY, env: {} });
      },
    },
    {
      name: 'capsule body (sealed again)',
      input: sealedBody,
      run: (bytes) => {
        const rec = openCapsuleBytes(bytes, 'fuzz.tcap', { keyHex: FIXTURE_KEY, env: {} });
        // A body that opens must also decode every record without throwing.
        for (let r = 0; r < rec.timeline.recordCount; r++) rec.describe(r);
        rec.decodedDocument();
      },
    },
    {
      // The spool index decrypts only the layout words: it must refuse exactly what a full open
      // refuses, and agree with it on what it reads.
      name: 'spool summary = full open (sealed again)',
      input: sealedBody,
      run: (bytes) => {
        let opened;
        try {
          opened = openCapsuleBytes(bytes, 'fuzz.tcap', { keyHex: FIXTURE_KEY, env: {} });
        } catch (e) {
          if (!(e instanceof RecordingError)) throw e;
        }
        let summary;
        try {
          summary = summariseCapsule(bytes, 'fuzz.tcap', 'fuzz.tcap', spoolKeys);
        } catch (e) {
          if (!(e instanceof RecordingError)) throw e;
          if (opened) throw new Error(`the spool index refused a capsule that opens: ${e.message}`);
          return;
        }
        if (!opened) throw new Error('the spool index read a capsule that does not open');
        let fault = -1;
        for (let r = 0; r < opened.timeline.recordCount && fault < 0; r++) if (opened.outcome(r) === 1) fault = r;
        if (summary.effectCount !== opened.timeline.recordCount || (summary.firstFault?.seq ?? -1) !== fault) {
          throw new Error('the spool index and a full open disagree on the effects');
        }
      },
    },
    { name: 'RESP decoder', input: fc.oneof(respish, anyBytes), run: (b) => void respValue(b) },
    { name: 'HTTP result decoder', input: fc.oneof(hostileWords(bodies.map((x) => x.slice(0, 64))), anyBytes), run: (b) => void httpResultValue(b) },
    { name: 'HTTP key decoder', input: anyBytes, run: (b) => void httpKeyValue(b) },
    { name: 'HTTP request parser', input: anyBytes, run: (b) => void requestValue(b) },
    { name: 'SQL key decoder', input: anyBytes, run: (b) => void sqlKeyValue(b) },
    { name: 'Redis command decoder', input: anyBytes, run: (b) => void redisKeyValue(b) },
    {
      name: 'every kind decoder',
      input: fc.tuple(anyBytes, anyBytes).map(([a, b]) => u8(Buffer.concat([Buffer.from([a.length & 0xff]), a, b]))),
      run: (b) => {
        for (const kind of KIND_LIST) {
          const split = 1 + (b[0] ?? 0);
          decodeKey(kind, b.subarray(1, split));
          decodeResult(kind, b.subarray(1, split), b.subarray(split), (b[1] ?? 0) & 1, (b[2] ?? 0) % 8);
        }
      },
    },
  ];
}

export interface Finding {
  target: string;
  problem: string;
  inputHex: string;
}

/** The slowest an input may take. A single slow run is measured again to rule out a GC pause. */
export const INPUT_TIME_LIMIT_MS = 100;

/**
 * Runs one input and says what was wrong with it, or undefined: an exception other than
 * RecordingError, a run over the time limit, or array buffers grown far past the input's size
 * (an allocation sized from an unchecked length).
 */
export async function check(target: Target, bytes: Uint8Array): Promise<string | undefined> {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best > INPUT_TIME_LIMIT_MS; attempt++) {
    const before = process.memoryUsage().arrayBuffers;
    const t0 = performance.now();
    try {
      await target.run(bytes);
    } catch (e) {
      if (!(e instanceof RecordingError)) return `escaped ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      if (!e.message || e.message.includes('\n')) return `error message is not one line: ${JSON.stringify(e.message)}`;
    }
    best = Math.min(best, performance.now() - t0);
    const grown = process.memoryUsage().arrayBuffers - before;
    if (grown > 64 * bytes.length + 64 * 1024 * 1024) return `array buffers grew by ${grown} bytes for a ${bytes.length}-byte input`;
  }
  if (best > INPUT_TIME_LIMIT_MS) return `took ${best.toFixed(0)} ms (limit ${INPUT_TIME_LIMIT_MS} ms)`;
  return undefined;
}
