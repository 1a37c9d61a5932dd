// Opening a ~20 MB Tin capsule (authenticate, decrypt, decode the body, index the timeline), in
// MB/s and as a ratio to a plain open that is the same except for its keystream: one createHmac
// call per 32-byte block, as the format document reads. Both run here, on the same capsule.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseBody } from '../replay-engine/tcap/body';
import { deriveKeys } from '../replay-engine/tcap/keys';
import { openCapsuleBytes, openCapsuleBytesAsync } from '../replay-engine/tcap/read-capsule';
import { BodyWriter, buildBody, randomKeyHex, seal, u8, type EffectSpec } from '../test/tcap/support/seal';
import type { BenchResult } from './types';

const TARGET_BYTES = 20 * 1024 * 1024;

/** A capsule like a busy request: Redis calls, file reads, HTTP calls, clocks and task switches. */
function buildCapsule(keyHex: string): Uint8Array {
  const effects: EffectSpec[] = [];
  const file = 'x'.repeat(3000) + '\n';
  let size = 0;
  for (let i = 0; size < TARGET_BYTES; i++) {
    let e: EffectSpec;
    switch (i % 8) {
      case 0:
        e = { kind: 'sched.resume@1', data: new BodyWriter().word(i % 3).toBytes() };
        break;
      case 1:
        e = { kind: 'quarry.read@1', key: `/srv/data/${i}.csv`, data: file };
        break;
      case 2:
        e = {
          kind: 'wire.http@1',
          key: `GET http://inventory.internal/stock/${i}\n\n`,
          data: new BodyWriter().word(200).string('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n').string(`{"sku":${i},"left":${i % 17}}`.repeat(20)).toBytes(),
        };
        break;
      case 3:
        e = { kind: 'tide.now@1', data: new BodyWriter().word(88_000_000_000 + i).toBytes() };
        break;
      default:
        e = { kind: 'redis@1', key: `3:GET ${`sku:${i}`.length}:sku:${i}\n`, data: `$3\r\n${String(i % 1000).padStart(3, '0')}\r\n` };
    }
    effects.push(e);
    size += 48 + e.kind.length + String(e.key ?? '').length + (typeof e.data === 'string' ? e.data.length : (e.data?.length ?? 0));
  }
  return seal(buildBody({ effects }), keyHex);
}

/** The same open, with the keystream computed the plain way. */
function plainOpen(bytes: Uint8Array, keyHex: string): number {
  const keys = deriveKeys(u8(Buffer.from(keyHex, 'hex')));
  const tagAt = bytes.length - 32;
  const tag = u8(createHmac('sha256', keys.km).update(bytes.subarray(0, tagAt)).digest());
  if (!timingSafeEqual(tag, bytes.subarray(tagAt))) throw new Error('tag');
  const nonce = bytes.subarray(8, 24);
  const enc = bytes.subarray(24, tagAt);
  const body = new Uint8Array(enc.length);
  const counter = new Uint8Array(8);
  const view = new DataView(counter.buffer);
  for (let i = 0; i * 32 < enc.length; i++) {
    view.setBigInt64(0, BigInt(i), true);
    const block = createHmac('sha256', keys.ke).update(nonce).update(counter).digest();
    const at = i * 32;
    const end = Math.min(at + 32, enc.length);
    for (let k = at; k < end; k++) body[k] = enc[k] ^ block[k - at];
  }
  return parseBody(body, 'bench.tcap', 24).effects.count;
}

function time(f: () => void): number {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function timeAsync(f: () => Promise<void>): Promise<number> {
  const t = process.hrtime.bigint();
  await f();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export async function run(): Promise<BenchResult[]> {
  const keyHex = randomKeyHex();
  const capsule = buildCapsule(keyHex);
  const mb = capsule.length / 1e6;
  let count = 0;
  // What readCapsule does (two threads for a large body), and the same on one thread.
  const opened: number[] = [];
  const oneThread: number[] = [];
  const oneThreadCpu: number[] = [];
  for (let i = 0; i < 7; i++) {
    opened.push(await timeAsync(async () => void (count = (await openCapsuleBytesAsync(capsule, 'bench.tcap', { keyHex, env: {} })).timeline.recordCount)));
    const cpu = process.cpuUsage();
    oneThread.push(time(() => void openCapsuleBytes(capsule, 'bench.tcap', { keyHex, env: {} })));
    const used = process.cpuUsage(cpu);
    oneThreadCpu.push((used.user + used.system) / 1000);
  }
  const fastMs = median(opened);
  const oneMs = median(oneThread);
  let plainCount = 0;
  const plainCpuStart = process.cpuUsage();
  const plainMs = time(() => void (plainCount = plainOpen(capsule, keyHex)));
  const plainCpu = process.cpuUsage(plainCpuStart);
  const plainCpuMs = (plainCpu.user + plainCpu.system) / 1000;
  if (plainCount !== count) throw new Error('the plain open read a different capsule');
  const rate = mb / (fastMs / 1000);
  const ratio = plainMs / fastMs;
  return [
    { name: `open ${mb.toFixed(1)} MB capsule (${count} effects): authenticate+decrypt+decode+index`, value: rate, unit: 'MB/s', goal: '>= 125 MB/s', ok: rate >= 125 },
    { name: 'open, keystream on one thread', value: mb / (oneMs / 1000), unit: 'MB/s' },
    // On a busy machine wall time measures the scheduler: MB per CPU second is what one free core does.
    { name: 'open, one thread, per CPU second used', value: mb / (median(oneThreadCpu) / 1000), unit: 'MB/cpu-s' },
    { name: 'open, plain keystream (createHmac per 32-byte block)', value: mb / (plainMs / 1000), unit: 'MB/s' },
    { name: 'open, plain keystream, per CPU second used', value: mb / (plainCpuMs / 1000), unit: 'MB/cpu-s' },
    { name: 'open speed-up over the plain keystream', value: ratio, unit: 'x', goal: '>= 10x plain', ok: ratio >= 10 },
    { name: 'open speed-up over the plain keystream, one thread', value: plainMs / oneMs, unit: 'x' },
    { name: 'open speed-up, one thread, in CPU time (steady under load)', value: plainCpuMs / median(oneThreadCpu), unit: 'x' },
  ];
}
