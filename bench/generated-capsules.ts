// The capsules of the capsule benchmarks, made here (sealed by the tests' plain implementation of
// the format) under a key made for the run: one like a chatty or streaming handler (hundreds of
// thousands of ~68-byte effects: clock reads, task switches, short Redis answers, on 3 tasks) and
// one of the same size made of large effects (file reads and HTTP calls of kilobytes).
import { BodyWriter, buildBody, seal, type EffectSpec } from '../test/tcap/support/seal';

function wordBytes(v: number): Uint8Array {
  return new BodyWriter().word(v).toBytes();
}

/**
 * `effects` effects, mostly `tide.now@1` and `sched.resume@1`, switching among 3 tasks. The Redis
 * calls repeat (10 keys, one answer); `distinct`: every call and answer differs, the clock
 * advances by uneven steps, and one effect in 8 reads the wall clock (no effect but the task
 * switches is ever seen twice).
 */
export function manySmallEffectsCapsule(keyHex: string, effects = 300_000, distinct = false): Uint8Array {
  const list: EffectSpec[] = [];
  let task = 0;
  let clock = 88_000_000_000;
  for (let i = 0; i < effects; i++) {
    if (i % 4 === 0) {
      task = (task + 1 + (i % 7 === 0 ? 1 : 0)) % 3;
      list.push({ kind: 'sched.resume@1', data: wordBytes(task) });
    } else if (i % 8 === 7) {
      // `k:N` is 3 bytes: a well-formed command (the key said 4 before, which decoded as malformed)
      if (!distinct) list.push({ kind: 'redis@1', key: `3:GET 3:k:${i % 10}\n`, data: '$2\r\nok\r\n' });
      else {
        const k = `k:${i}`;
        const v = `v${(i * 7919) % 1_000_003}`;
        list.push({ kind: 'redis@1', key: `3:GET ${k.length}:${k}\n`, data: `$${v.length}\r\n${v}\r\n` });
      }
    } else if (distinct && i % 8 === 3) {
      list.push({ kind: 'tide.wall@1', data: new BodyWriter().word(1_700_000_000_000_000_000n + BigInt(clock)).toBytes() });
    } else {
      clock += distinct ? 1_000 + ((i * 2_654_435_761) % 4_093) : 1_250;
      list.push({ kind: 'tide.now@1', data: wordBytes(distinct ? clock : 88_000_000_000 + i * 1_250) });
    }
  }
  return seal(buildBody({ effects: list }), keyHex);
}

/** A capsule of about `bytes` bytes of large effects: file reads, HTTP calls, a few task switches. */
export function largeEffectsCapsule(keyHex: string, bytes: number): Uint8Array {
  const list: EffectSpec[] = [];
  const file = 'x'.repeat(3000) + '\n';
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    let e: EffectSpec;
    switch (i % 4) {
      case 0:
        e = { kind: 'sched.resume@1', data: wordBytes(i % 3) };
        break;
      case 1:
        e = { kind: 'quarry.read@1', key: `/srv/data/${i}.csv`, data: file };
        break;
      case 2:
        e = {
          kind: 'wire.http@1',
          key: `GET http://inventory.internal/stock/${i}\n\n`,
          data: new BodyWriter().word(200).string('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n').string(`{"sku":${i},"left":${i % 17}}`.repeat(100)).toBytes(),
        };
        break;
      default:
        e = { kind: 'quarry.read@1', key: `/srv/data/${i}.json`, data: file.repeat(2) };
    }
    list.push(e);
    size += 48 + e.kind.length + String(e.key ?? '').length + (typeof e.data === 'string' ? e.data.length : (e.data?.length ?? 0));
  }
  return seal(buildBody({ effects: list }), keyHex);
}
