// inspect --json's byte writer (effect-json/) against the generic path (decoded value trees and
// JSON.stringify, inspect.ts's effectJson): the same text for every effect of every fixture, of
// the benchmark's generated capsule, and of a capsule of odd values of every kind (unicode,
// escapes, control bytes, bytes that are not UTF-8, words beyond 2^53, duration ties, Redis
// pipelines and nested replies, faults); and the whole document still parses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteSink, CollectTarget } from '../../replay-engine/byte-sink';
import { durationText } from '../../replay-engine/tcap/decode/words';
import { writeDuration } from '../../replay-engine/tcap/effect-json/word-results';
import { effectWriter } from '../../replay-engine/tcap/effect-json/effect-writer';
import { capsuleInspectJson, effectJson } from '../../replay-engine/tcap/inspect';
import { openCapsuleBytes, openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import type { TcapRecording } from '../../replay-engine/tcap/tcap-recording';
import { manySmallEffectsCapsule } from '../../bench/generated-capsules';
import { fixtureCapsules, TIN_FIXTURES } from './support/fixtures';
import { BodyWriter, buildBody, randomKeyHex, seal, type EffectSpec } from './support/seal';
import { join } from 'node:path';

/** The first effect whose byte-written line differs from the generic one, or undefined. */
function firstDifference(rec: TcapRecording): string | undefined {
  const generic = effectJson(rec);
  const write = effectWriter(rec);
  const target = new CollectTarget();
  // A small chunk, so that lines cross chunk ends.
  const sink = new ByteSink(target, 4096);
  for (let r = 0; r < rec.timeline.recordCount; r++) {
    write(r, sink);
    sink.flush();
    const got = target.text();
    target.chunks.length = 0;
    const want = generic(r);
    if (got !== want) return `effect ${r} (${rec.timeline.kindName(r)}):\n got  ${got}\n want ${want}`;
    JSON.parse(got);
  }
  return undefined;
}

const word = (v: number | bigint) => new BodyWriter().word(v).toBytes();
const resp = (s: string) => Buffer.from(s, 'latin1');

/** Odd values of every kind the writer has a fast path for, and of some it leaves to the generic path. */
function oddEffects(): EffectSpec[] {
  const list: EffectSpec[] = [];
  const words = [0, 1, -1, 999, 1000, 999_999, 1_000_000, 1_500_000, 2_500_000, 1_000_000_000, 1_000_500_000, 1_999_999_999, 2 ** 31, 2 ** 32, -(2 ** 32), 2 ** 50 - 1, 2 ** 50, 2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), -1_000_500_000, -999_999];
  for (const w of words) {
    for (const kind of ['tide.now@1', 'tide.wall@1', 'dice.seed@1', 'sched.select@1', 'wire.dial@1', 'websocket.dial@1']) {
      list.push({ kind, key: kind === 'sched.select@1' ? 'main.tin:12' : kind.endsWith('dial@1') ? 'db:5432' : '', data: word(w) });
    }
  }
  list.push({ kind: 'tide.now@1', data: 'short' }, { kind: 'tide.now@1', key: 'odd key', data: word(5) }, { kind: 'sched.resume@1', data: word(0) });
  list.push({ kind: 'sched.resume@1', key: '\u00e9', data: word(0) });
  for (const site of ['a"b\\c.tin:1', 'tab\there.tin:2', 'é.tin:3', '', 'x\u2028y', '\x7f.tin:9']) list.push({ kind: 'sched.select@1', key: site, data: word(1) });
  const keys: Array<string | Uint8Array> = [
    '3:GET 6:cart:7\n',
    '3:SET 1:k 5:a b c\n',
    '3:GET 3:a"b\n',
    '3:GET 3:a\\b\n',
    '3:GET 2:\u00e9\n',
    '3:GET 0:\n',
    '3:GET 3:k:7\n4:INCR 1:n\n',
    '3:GET 3:k:7',
    '3:GET 4:k:7\n',
    `4:MGET ${Array.from({ length: 120 }, (_, i) => `${String(i).length}:${i}`).join(' ')}\n`,
    `3:GET 130:${'x'.repeat(130)}\n`,
    `4:MSET ${Array.from({ length: 30 }, () => '8:abcdefgh').join(' ')}\n`,
    '',
    Uint8Array.from([0x33, 0x3a, 0x47, 0x45, 0x54, 0x20, 0x31, 0x3a, 0xff, 0x0a]),
    '3:GET 1:\x01\n',
  ];
  const replies = [
    '$2\r\nok\r\n', '$0\r\n\r\n', '$-1\r\n', '+OK\r\n', '+say "hi" \\ \t\r\n', ':0\r\n', ':-5\r\n', ':+5\r\n', ':007\r\n', ':-0\r\n', ':123456789012345678901\r\n',
    '-ERR wrong type\r\n', '-ERR "q"\t\r\n', '$3\r\n\x00\x01\x02\r\n', `$130\r\n${'y'.repeat(130)}\r\n`, '$4\r\n\u00e9\u00e9\r\n', '$2\r\n\u00e9\r\n',
    '*2\r\n$1\r\na\r\n:1\r\n', '%1\r\n+k\r\n+v\r\n', '$2\r\nok\r\n$2\r\nok\r\n', '$5\r\nok\r\n', '', '?\r\n', '_\r\n', '#t\r\n', ',1.5\r\n', '$2\r\nok', ':1\r\n:2\r\n', '$02\r\nok\r\n',
  ];
  for (const k of keys) for (const d of replies.slice(0, 3)) list.push({ kind: 'redis@1', key: k, data: resp(d) });
  for (const d of replies) list.push({ kind: 'redis@1', key: '3:GET 1:k\n', data: d === '$4\r\n\u00e9\u00e9\r\n' || d === '$2\r\n\u00e9\r\n' ? Buffer.from(d, 'utf8') : resp(d) });
  const datas: Array<string | Uint8Array> = ['', 'plain text', 'quote " backslash \\ tab \t nl \n cr \r', 'x'.repeat(119), 'x'.repeat(120), 'x'.repeat(121), 'é'.repeat(130), '\u{1F600} emoji', Uint8Array.from([0xff, 0xfe]), Uint8Array.from(Array.from({ length: 70 }, (_, i) => i)), Uint8Array.from(Array.from({ length: 60 }, (_, i) => i)), '\x7f', 'a\x00b', '\u2028'];
  for (const kind of ['wire.read@1', 'wire.write@1', 'quarry.read@1', 'quarry.write@1', 'quarry.fs@1', 'kafka@1', 'mysql@1', 'postgres.tx@1', 'websocket.write@1', 'seal.random@1', 'quarry.stat@1', 'quarry.dir@1', 'websocket.read@1', 'wire.http@1', 'sched.cancel@1']) {
    for (const d of datas) list.push({ kind, key: kind === 'wire.read@1' ? '1 512' : kind === 'quarry.stat@1' ? 'size /x' : '/srv/é', data: d });
  }
  for (const kind of ['wire.read@1', 'websocket.read@1', 'wire.write@1', 'websocket.write@1']) {
    const keys: Array<string | Uint8Array> = ['3 512', '3 ', '3', ' 512', '3 5 12', '3 "q"', '3 back\\slash', '3 tab\there', '3 nl\n', '"c" 1', 'c\\ 1', '12 é', '3 ' + 'w'.repeat(119), '3 ' + 'w'.repeat(121), '3 ' + 'w'.repeat(1100), Uint8Array.from([0x33, 0x20, 0x00, 0x01, 0xff]), Uint8Array.from([0x33, 0x20, ...Array.from({ length: 70 }, (_, i) => i)]), '\x01 2'];
    for (const key of keys) list.push({ kind, key, data: kind === 'websocket.read@1' ? new BodyWriter().word(1).string('hi').toBytes() : 'ok' });
  }
  const message = (kind: number | bigint, text: string | Uint8Array, lengthWord?: number) => {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    return Buffer.concat([new BodyWriter().word(kind).word(lengthWord ?? bytes.length).toBytes(), bytes]);
  };
  for (const [kind, text] of [[1, 'hi'], [1, ''], [2, Uint8Array.from([0, 1, 2, 0xff])], [8, 'bye'], [9, ''], [10, 'pong'], [3, 'odd kind'], [11, 'x'], [2n ** 32n + 1n, 'big'], [-1, 'neg'], [1, 'q"uo\\te'], [1, 'é'], [1, 'm'.repeat(121)], [1, 'm'.repeat(1100)], [2, Uint8Array.from(Array.from({ length: 70 }, (_, i) => i))]] as Array<[number | bigint, string | Uint8Array]>) {
    list.push({ kind: 'websocket.read@1', key: '4 65536', data: message(kind, text) });
  }
  list.push({ kind: 'websocket.read@1', key: '4 65536', data: message(1, 'hi', 3) }, { kind: 'websocket.read@1', key: '4 65536', data: 'short' });
  for (const kind of ['quarry.read@1', 'quarry.dir@1']) {
    for (const key of ['/srv/a"b\\c', 'p'.repeat(119), 'p'.repeat(120), 'p'.repeat(130), 'tab\there', 'nl\n', '', '/ok/path', '\x7f', 'a\x01b']) list.push({ kind, key, data: 'x' });
  }
  for (const n of [1, 8, 16, 61, 62, 200]) list.push({ kind: 'seal.random@1', key: String(n), data: Uint8Array.from(Array.from({ length: n }, (_, i) => (i * 37) & 255)) });
  // Faults, with and without a sentinel, of fast and generic kinds.
  for (const kind of ['tide.now@1', 'redis@1', 'wire.read@1', 'sched.cancel@1', 'sched.resume@1']) {
    list.push({ kind, key: kind === 'sched.cancel@1' ? 'task 1' : '', outcome: 1, ident: 2, data: 'EOF' });
    list.push({ kind, outcome: 1, ident: 0, data: Uint8Array.from([0x80, 0x41]) });
  }
  list.push({ kind: 'sched.resume@1', data: word(7) }, { kind: 'tide.now@1', data: word(1) });
  return list;
}

/**
 * Effects that repeat, for the kept lines (line-memo.ts) and the line templates (word-line.ts):
 * the same Redis call and answer on tasks of one and two digits, the same bytes as result and as
 * fault, with another ident, split otherwise between key and data; clock reads whose digits,
 * duration and unit change width, ties among them; seqs up to five digits; a kind of unique
 * values long enough to be no longer looked up, then repeated.
 */
function repeatedEffects(): EffectSpec[] {
  const list: EffectSpec[] = [];
  for (let i = 0; i < 14_000; i++) {
    if (i % 40 === 0) {
      list.push({ kind: 'sched.resume@1', data: word((i / 40) % 13) });
      continue;
    }
    switch (i % 8) {
      case 4:
        if (i % 16 === 4) list.push({ kind: 'redis@1', key: `3:GET 3:k:${i % 3}\n`, data: resp(i % 2 ? '$2\r\nok\r\n' : '$-1\r\n') });
        else {
          // never the same twice, mostly of one shape (the Redis line template), other replies between
          const v = String((i * 7919) % 100_000).padStart(5, '0');
          const reply = i % 48 === 12 ? '+OK\r\n' : i % 48 === 28 ? `:${i}\r\n` : i % 80 === 44 ? `$${i}\r\n` : `$6\r\nv${v}\r\n`;
          list.push({ kind: 'redis@1', key: `3:${i % 3 ? 'GET' : 'DEL'} ${String(i).length + 2}:k:${i}\n`, data: resp(reply) });
        }
        break;
      case 5:
        list.push({ kind: 'quarry.read@1', key: i % 2 ? 'ab' : 'a', data: i % 2 ? 'c' : 'bc' });
        break;
      case 6:
        list.push({ kind: 'wire.read@1', key: '1 512', outcome: i % 3 === 0 ? 1 : 0, ident: i % 5 === 0 ? 2 : 0, data: 'EOF' });
        break;
      case 7:
        list.push({ kind: 'seal.random@1', data: i < 12_000 ? word(i * 7919) : word(42) });
        break;
      default: {
        // clock reads growing through every width and unit (runs of one width), ties among them
        const ns = i % 97 === 0 ? 1_000_500 : i % 89 === 0 ? 2_000_500_000 : Math.floor(1.0021 ** i);
        list.push({ kind: 'tide.now@1', data: word(ns) });
      }
    }
  }
  return list;
}

/** Wall clock reads (wall-line.ts): the edges of its range, leap days, year ends, every digit width of the ns, random words over the whole signed range, runs for its template. */
function wallClockEffects(): EffectSpec[] {
  const ns = (iso: string, frac = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + frac;
  const values: bigint[] = [0n, 1n, -1n, 999_999_999n, 1_000_000_000n, 1_000_000_001n, 9_999_999_999n, 10_000_000_000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 10n ** 18n - 1n, 10n ** 18n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 48n, 2n ** 62n];
  for (const iso of ['1970-01-01T00:00:01Z', '1999-12-31T23:59:59Z', '2000-01-01T00:00:00Z', '2000-02-28T23:59:59Z', '2000-02-29T12:00:00Z', '2000-03-01T00:00:00Z', '2001-09-09T01:46:40Z', '2023-11-14T22:13:20Z', '2024-02-29T23:59:59Z', '2100-02-28T23:59:59Z', '2100-03-01T00:00:00Z', '2262-04-11T23:47:16Z']) {
    values.push(ns(iso), ns(iso, 999_999_999n), ns(iso, 1n));
  }
  let seed = 12345n;
  for (let i = 0; i < 3000; i++) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    values.push(BigInt.asIntN(64, seed));
    values.push(1_700_000_000_000_000_000n + BigInt(i) * 1_234_567n); // runs: the template
  }
  return values.map((v) => ({ kind: 'tide.wall@1', data: word(v) }));
}

describe('inspect --json: the byte writer gives the generic path\'s text', () => {
  it('wall clock reads: dates worked out in integers, as Date gives them, over the whole signed range', () => {
    const keyHex = randomKeyHex();
    const effects = wallClockEffects();
    const rec = openCapsuleBytes(seal(buildBody({ effects }), keyHex), 'wall.tcap', { keyHex, env: {} });
    assert.equal(rec.timeline.recordCount, effects.length);
    assert.equal(firstDifference(rec), undefined);
  });

  it('effects that repeat: kept lines and line templates, across every change of width', () => {
    const keyHex = randomKeyHex();
    const effects = repeatedEffects();
    const rec = openCapsuleBytes(seal(buildBody({ effects }), keyHex), 'repeated.tcap', { keyHex, env: {} });
    assert.equal(rec.timeline.recordCount, effects.length);
    assert.ok(rec.timeline.threads.length >= 13, 'tasks of one and two digits');
    assert.equal(firstDifference(rec), undefined);
  });

  it('every effect of every fixture, and of the saved regression test', async () => {
    const files = fixtureCapsules().filter((f) => !f.expected.error).map((f) => ({ file: f.capsule, key: f.expected.key }));
    files.push({ file: join(TIN_FIXTURES, 'tests', 'regressions', 'checkout-total.tcap'), key: '' });
    for (const { file, key } of files) {
      const rec = await openCapsuleFile(file, key ? { keyHex: key, env: {} } : { env: {} });
      assert.equal(firstDifference(rec), undefined, file);
    }
  });

  it('every effect of the benchmark\'s many-small capsules (3,000 effects of each: repeated and never repeated)', () => {
    const keyHex = randomKeyHex();
    for (const distinct of [false, true]) {
      const rec = openCapsuleBytes(manySmallEffectsCapsule(keyHex, 3000, distinct), 'many-small.tcap', { keyHex, env: {} });
      assert.equal(firstDifference(rec), undefined, distinct ? 'never repeated' : 'repeated');
    }
  });

  it('odd values of every kind: unicode, escapes, control bytes, not UTF-8, big words, ties, pipelines, nested replies, faults', () => {
    const keyHex = randomKeyHex();
    const effects = oddEffects();
    const rec = openCapsuleBytes(seal(buildBody({ effects }), keyHex), 'odd.tcap', { keyHex, env: {} });
    assert.equal(rec.timeline.recordCount, effects.length);
    assert.equal(firstDifference(rec), undefined);
    const doc = capsuleInspectJson(rec) as { effects: unknown[] };
    assert.equal(doc.effects.length, effects.length);
  });

  it('durations: the same text as durationText, ties and big values included', () => {
    const values: number[] = [0, 1, -1, 999, -999, 1000, 1500, 999_999, 1_000_000, 1_000_500, 1_000_499, 1_000_501, 999_999_999, 1e9, 1_000_500_000, 2_000_500_000, -1_000_500_000, 88_000_001_250, 2 ** 50 - 1, 2 ** 50, 2 ** 52 + 500_000, 2 ** 53 - 1, -(2 ** 53 - 1)];
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const scale = 10 ** (i % 16);
      values.push(Math.floor((seed / 2 ** 31) * scale) * (i % 3 === 0 ? -1 : 1), Math.round(seed / 1000) * 1000 + 500);
    }
    const target = new CollectTarget();
    const sink = new ByteSink(target);
    for (const v of values) {
      writeDuration(sink, v);
      sink.flush();
      const got = target.text();
      target.chunks.length = 0;
      assert.equal(got, durationText(BigInt(v)), `duration of ${v}`);
    }
  });
});
