// Decoders for every effect kind of formats/tcap.md, on a capsule built and sealed by the test
// helper under a fresh key; and decoders never throw, whatever the bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { DecodedValue } from '../../replay-engine/model/recording';
import { decodeKey, decodeResult } from '../../replay-engine/tcap/decode/effect-kinds';
import { respValue } from '../../replay-engine/tcap/decode/resp';
import { KNOWN_KINDS } from '../../replay-engine/tcap/format';
import { capsuleInspectJson, capsuleInspectText } from '../../replay-engine/tcap/inspect';
import { openCapsuleBytes } from '../../replay-engine/tcap/read-capsule';
import { BodyWriter, buildBody, randomKeyHex, seal, u8, word, type EffectSpec } from './support/seal';

const str = (s: string | Uint8Array) => new BodyWriter().string(s).toBytes();
const cat = (...parts: Uint8Array[]) => u8(Buffer.concat(parts));

const EFFECTS: Array<EffectSpec & { want: RegExp | string; wantKey?: RegExp | string }> = [
  { kind: 'tide.now@1', data: word(88000111222n), want: '88000111222 ns (88.000 s on the monotonic clock)' },
  { kind: 'tide.wall@1', data: word(1700000000987654321n), want: '2023-11-14T22:13:20.987654321Z (1700000000987654321 ns)' },
  { kind: 'dice.seed@1', data: word(-5), want: '-5' },
  { kind: 'seal.random@1', key: '4', data: u8(Buffer.from([0, 1, 2, 255])), want: '000102ff (4 random bytes)', wantKey: '4 bytes' },
  { kind: 'wire.dial@1', key: '10.0.0.9:7000', data: word(2), want: 'connection 2', wantKey: '"10.0.0.9:7000"' },
  { kind: 'wire.write@1', key: '2 PING\r\n', data: '', want: 'empty', wantKey: 'conn 2 bytes "PING\\r\\n"' },
  { kind: 'wire.read@1', key: '2 4096', data: u8(Buffer.from([0xde, 0xad, 0xbe, 0xef])), want: 'deadbeef (4 bytes, hex)', wantKey: 'conn 2 max 4096' },
  { kind: 'wire.read@1', key: '2 4096', outcome: 1, ident: 0, data: 'EOF', want: 'fault: EOF' },
  {
    kind: 'wire.http@1',
    key: 'POST https://pay.example/charge\nAuthorization: tin-secret:0123456789abcdef0123456789abcdef\n\nbody',
    data: cat(word(503), str('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n'), str('declined')),
    want: '503 Service Unavailable, body "declined"',
    wantKey: 'POST https://pay.example/charge',
  },
  { kind: 'redis@1', key: '3:GET 6:cart:7\n', data: '$-1\r\n', want: 'nil', wantKey: 'GET cart:7' },
  { kind: 'redis@1', key: '4:MGET 1:a 3:b c\n4:PING\n', data: '*3\r\n$1\r\nx\r\n*2\r\n:1\r\n-ERR no\r\n+OK\r\n+PONG\r\n', want: '2 replies: array of 3 ["x", array of 2 [1, error ERR no], "OK"], "PONG"', wantKey: 'MGET a "b c"; PING' },
  { kind: 'kafka@1', key: 'Produce v9 \x00\x01', data: 'ok', want: '"ok"', wantKey: 'Produce v9' },
  { kind: 'mysql@1', key: "E insert into t values (\nI1\n, \nS'x'\n, \nF2.5\n, \nBtrue\n, \nX00ff\n)\n", data: 'affected=1', want: '"affected=1"', wantKey: 'exec "insert into t values (1, \\"\'x\'\\", 2.5, true, 0x00ff)"' },
  { kind: 'postgres@1', key: 'Q select 1\n', data: '', want: 'empty', wantKey: 'query "select 1"' },
  { kind: 'mysql.tx@1', key: 'begin', data: '', want: 'empty', wantKey: 'begin' },
  { kind: 'postgres.tx@1', key: 'rollback', data: '', want: 'empty', wantKey: 'rollback' },
  { kind: 'websocket.dial@1', key: 'wss://feed.example/ws', data: word(1), want: 'connection 1' },
  { kind: 'websocket.read@1', key: '1 65536', data: cat(word(1), str('{"tick":3}')), want: 'text message "{\\"tick\\":3}"' },
  { kind: 'websocket.read@1', key: '1 65536', data: cat(word(8), str('')), want: 'close message empty' },
  { kind: 'websocket.write@1', key: '1 hello', data: '', want: 'empty', wantKey: 'conn 1 bytes "hello"' },
  { kind: 'quarry.read@1', key: '/etc/x', data: 'a,b\n', want: '"a,b\\n"', wantKey: '"/etc/x"' },
  { kind: 'quarry.write@1', key: 'a /var/log/x\nline\n', data: '', want: 'empty', wantKey: 'append "/var/log/x" "line\\n"' },
  { kind: 'quarry.stat@1', key: 'exists /etc/x', data: word(1), want: 'true', wantKey: 'exists "/etc/x"' },
  { kind: 'quarry.stat@1', key: 'size /etc/x', data: word(4096), want: '4096 bytes' },
  { kind: 'quarry.stat@1', key: 'mtime /etc/x', data: word(1700000000000000001n), want: '2023-11-14T22:13:20.000000001Z (1700000000000000001 ns)' },
  { kind: 'quarry.dir@1', key: '/srv', data: cat(str('a.txt'), str('b'), str('')), want: '3 names: "a.txt", "b", empty' },
  { kind: 'quarry.fs@1', key: 'mv /a /b', data: '', want: 'empty', wantKey: 'mv "/a /b"' },
  { kind: 'sched.select@1', key: 'feed.tin:7', data: word(2), want: 'arm 2', wantKey: 'feed.tin:7' },
  { kind: 'sched.resume@1', data: word(1), want: 'task 1' },
  { kind: 'sched.cancel@1', key: 'guard 1', outcome: 1, ident: 4, data: 'context canceled', want: 'cancelled: context canceled (sentinel 4)', wantKey: 'guard boundary of task 1' },
  { kind: 'sched.resume@1', data: word(0), want: 'task 0' },
  { kind: 'tide.now@1', data: word(5), want: '5 ns (5 ns on the monotonic clock)' },
];

function textOf(v: DecodedValue): string {
  return v.text;
}

describe('tcap decoders', () => {
  it('covers every kind of the format document', () => {
    assert.deepEqual(new Set(EFFECTS.map((e) => e.kind)), KNOWN_KINDS);
  });

  const key = randomKeyHex();
  const body = buildBody({
    request: 'PUT /items/7?token=tin-secret:00112233445566778899aabbccddeeff&x=1 HTTP/1.1\r\nHost: a\r\nCookie: tin-secret:ffeeddccbbaa99887766554433221100\r\n\r\n{"qty":2}',
    flags: 3,
    panic: 'boom',
    effects: EFFECTS,
  });
  const rec = openCapsuleBytes(seal(body, key), '/tmp/every-kind.tcap', { keyHex: key, env: {} });

  for (const [r, e] of EFFECTS.entries()) {
    it(`#${r} ${e.kind}${e.outcome ? ' fault' : ''}`, () => {
      const result = textOf(rec.decodedResult(r));
      if (typeof e.want === 'string') assert.equal(result, e.want);
      else assert.match(result, e.want);
      if (e.wantKey !== undefined) {
        const k = textOf(rec.decodedKey(r));
        if (typeof e.wantKey === 'string') assert.equal(k, e.wantKey);
        else assert.match(k, e.wantKey);
      }
    });
  }

  it('tasks follow the resumes; the recording says panicked and sampled', () => {
    const tasks = EFFECTS.map((_, r) => rec.task(r));
    const firstResume = EFFECTS.findIndex((e) => e.kind === 'sched.resume@1');
    assert.ok(tasks.slice(0, firstResume).every((t) => t === 0));
    assert.ok(tasks.slice(firstResume, -2).every((t) => t === 1));
    assert.deepEqual(tasks.slice(-2), [0, 0]);
    assert.equal(rec.timeline.threads.length, 2);
    assert.equal(rec.panicked, true);
    assert.equal(rec.sampled, true);
    assert.equal(rec.panic?.message, 'boom');
    assert.equal(rec.panic?.thread, rec.timeline.threadIndex('0'));
  });

  it('the request: method, target, version, headers and query with secret handles marked, body', () => {
    const json = capsuleInspectJson(rec) as { request: { method: string; target: string; version: string; headers: unknown[]; query: unknown[]; body: string } };
    assert.equal(json.request.method, 'PUT');
    assert.equal(json.request.version, 'HTTP/1.1');
    assert.deepEqual(json.request.headers, [
      { name: 'Host', value: 'a', secret: false },
      { name: 'Cookie', value: 'tin-secret:ffeeddccbbaa99887766554433221100', secret: true },
    ]);
    assert.deepEqual(json.request.query, [
      { name: 'token', value: 'tin-secret:00112233445566778899aabbccddeeff', secret: true },
      { name: 'x', value: '1', secret: false },
    ]);
    assert.equal(json.request.body, '{"qty":2}');
    const text = capsuleInspectText(rec);
    assert.match(text, /Request: PUT \/items\/7\?token=/);
    assert.match(text, /Effects by kind:/);
    assert.match(text, /\s2\s+sched\.resume@1/);
    assert.match(text, /task 1$/m);
  });

  it('RESP: nested arrays, nulls, integers, errors, RESP3 maps; broken replies fall back to hex', () => {
    const enc = (s: string) => u8(Buffer.from(s, 'latin1'));
    assert.equal(respValue(enc('*2\r\n*1\r\n:-7\r\n*-1\r\n')).text, 'array of 2 [array of 1 [-7], nil]');
    assert.equal(respValue(enc('%1\r\n+k\r\n$2\r\nv1\r\n')).text, 'map of 1 ["k": "v1"]');
    assert.equal(respValue(enc('$5\r\nab\r\n')).type, 'malformed');
    assert.equal(respValue(enc('*99999999\r\n')).type, 'malformed');
    assert.equal(respValue(enc('*1\r\n'.repeat(200))).type, 'malformed', 'depth limit');
  });

  it('decoders never throw on arbitrary keys and data', () => {
    const kinds = [...KNOWN_KINDS];
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.uint8Array({ maxLength: 80 }), fc.uint8Array({ maxLength: 80 }), fc.integer({ min: 0, max: 1 }), (kind, k, d, outcome) => {
        const a = decodeKey(kind, k);
        const b = decodeResult(kind, k, d, outcome, outcome ? 3 : 0);
        assert.equal(typeof a.text, 'string');
        assert.equal(typeof b.text, 'string');
        assert.ok(!/[\r\n]/.test(a.text + b.text), `one line: ${JSON.stringify([a.text, b.text])}`);
      }),
      { numRuns: 3000 },
    );
  });
});
