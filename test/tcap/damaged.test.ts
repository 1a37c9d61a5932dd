// Damaged, cut and wrongly keyed capsules: one clear RecordingError each, never a crash or a view.
// Bodies with bad lengths are re-sealed with the key so they pass the tag and reach the body reader.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingError, type ErrorCode } from '../../replay-engine/model/errors';
import { openCapsuleBytes } from '../../replay-engine/tcap/read-capsule';
import { BodyWriter, buildBody, FIXTURE_KEY, randomKeyHex, seal, u8, unseal, type BodySpec } from './support/seal';
import { TIN_FIXTURES } from './support/fixtures';

const FILE = '/tmp/capsule-under-test.tcap';
const small = u8(readFileSync(`${TIN_FIXTURES}/checkout-declined.tcap`));

function refusal(bytes: Uint8Array, keyHex = FIXTURE_KEY): RecordingError {
  try {
    openCapsuleBytes(bytes, FILE, { keyHex, env: {} });
  } catch (e) {
    assert.ok(e instanceof RecordingError, `not a RecordingError: ${String(e)}`);
    assert.ok(e.message.startsWith(FILE), `names the file: ${e.message}`);
    assert.ok(!e.message.includes(keyHex), 'never shows the key');
    return e;
  }
  assert.fail('opened a capsule that should be refused');
}

function expectCode(bytes: Uint8Array, code: ErrorCode, text?: RegExp | string): RecordingError {
  const e = refusal(bytes);
  assert.equal(e.code, code, e.message);
  if (typeof text === 'string') assert.ok(e.message.includes(text), e.message);
  else if (text) assert.match(e.message, text);
  return e;
}

const good: BodySpec = {
  effects: [
    { kind: 'redis@1', key: '3:GET 6:cart:7\n', data: '$3\r\nabc\r\n' },
    { kind: 'tide.now@1', data: new BodyWriter().word(5).toBytes() },
  ],
};

describe('tcap damaged and cut capsules', () => {
  it('the helper and the reader agree on a good capsule', () => {
    const rec = openCapsuleBytes(seal(buildBody(good), FIXTURE_KEY), FILE, { keyHex: FIXTURE_KEY, env: {} });
    assert.equal(rec.timeline.recordCount, 2);
    assert.deepEqual(Buffer.from(unseal(small, FIXTURE_KEY)!.subarray(0, 8)), Buffer.from([2, 0, 0, 0, 0, 0, 0, 0]));
  });

  it('every truncation of a small capsule is refused, never opened', () => {
    for (let n = 0; n < small.length; n++) {
      const e = refusal(small.subarray(0, n));
      if (n === 0) assert.equal(e.code, 'empty');
      else if (n < 56) assert.ok(e.code === 'damaged' && /cut short at \d+ bytes/.test(e.message), `${n}: ${e.message}`);
      // Too small for the smallest body (10 words) and the tag: it says it looks cut, whatever the key.
      else if (n < 56 + 80) assert.ok(e.code === 'damaged' && /looks cut: its \d+ bytes cannot hold a capsule body/.test(e.message), `${n}: ${e.message}`);
      else assert.ok(e.code === 'wrong-key-or-damaged' && e.message.includes('capsule: wrong key or damaged'), `${n}: ${e.message}`);
    }
  });

  it('every single bit flip is refused as wrong key or damaged (or not a capsule / another version when the magic changes)', () => {
    for (let i = 0; i < small.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const copy = new Uint8Array(small);
        copy[i] ^= 1 << bit;
        const e = refusal(copy);
        if (i < 6) assert.equal(e.code, 'not-a-recording', `byte ${i}`);
        else if (i < 8) assert.ok(['unsupported-version', 'needs-identity'].includes(e.code), `byte ${i}: ${e.code}`);
        else assert.equal(e.code, 'wrong-key-or-damaged', `byte ${i} bit ${bit}: ${e.message}`);
      }
    }
  });

  it('a wrong key gives the same message as a changed byte, and does not say which', () => {
    const wrong = refusal(small, randomKeyHex());
    const flipped = new Uint8Array(small);
    flipped[100] ^= 4;
    const damaged = refusal(flipped);
    const strip = (m: string) => m.replace(FILE, '');
    assert.equal(strip(wrong.message), strip(damaged.message));
    assert.match(wrong.message, /capsule: wrong key or damaged/);
  });

  it('not a capsule, version 2 and unknown versions', () => {
    expectCode(u8(Buffer.from('hello, world; this is not a capsule at all, just some text')), 'not-a-recording', 'not a capsule');
    const cat = (...parts: Array<string | number>) => u8(Buffer.from(parts.map((p) => (typeof p === 'number' ? '\x07'.repeat(p) : p)).join(''), 'latin1'));
    const v2 = cat('TINCAP\x02\x00', 40, 'status=500\nmethod=GET\npath=/orders/9\npanic=index out of range\n', 64);
    const e = expectCode(v2, 'needs-identity', 'reader identity');
    assert.match(e.message, /status=500 method=GET path=\/orders\/9 panic=index out of range/);
    const v2line = cat('TINCAP\x02\x00', 'status=504 method=POST path=/pay\x00', 64);
    assert.match(expectCode(v2line, 'needs-identity').message, /status=504 method=POST path=\/pay(?! panic)/);
    expectCode(cat('TINCAP\x03\x00', 80), 'unsupported-version', 'version 3.0');
  });

  function sealed(body: Uint8Array): Uint8Array {
    return seal(body, FIXTURE_KEY);
  }

  it('negative and huge lengths in every string field are refused with the offset, before allocating', () => {
    const fields = ['tin', 'program', 'request', 'panic', 'peer'] as const;
    for (const field of fields) {
      for (const bad of [-1n, -(2n ** 63n), 2n ** 62n, 10n ** 9n, 0x1_0000_0000n]) {
        // Write the body by hand with one bad length word in place of `field`'s.
        const w = new BodyWriter().word(2);
        const put = (name: string, text: string) => (name === field ? w.word(bad).raw(text) : w.string(text));
        put('tin', 'dev');
        put('program', '/srv/app');
        w.word(1700000000123456789n).word(3).word(500).word(0);
        put('request', 'GET / HTTP/1.1\r\n\r\n');
        put('panic', '');
        put('peer', '1.2.3.4:5');
        w.word(0);
        const e = expectCode(sealed(w.toBytes()), 'damaged');
        assert.match(e.message, new RegExp(`${field === 'tin' ? 'tin version' : field} length ${bad} (is negative|is more than)`), e.message);
        assert.ok(e.place.offset !== undefined && e.place.offset >= 24, 'gives the offset');
        assert.match(e.message, /at byte \d+/);
      }
    }
  });

  it('bad lengths inside effect records, and a count larger than the records can be', () => {
    const base = buildBody(good);
    expectCode(sealed(buildBody({ ...good, count: 3 })), 'damaged', /effect 2: seq is cut|effect count 3 is more than/);
    expectCode(sealed(buildBody({ ...good, count: 2 ** 40 })), 'damaged', 'effect count');
    expectCode(sealed(buildBody({ ...good, count: -5 })), 'damaged', 'effect count -5 is negative');
    // Effect 1's data length word is the last 16..8 bytes before its data (tide.now data is 8 bytes).
    for (const bad of [-8n, 9n, 2n ** 63n - 1n]) {
      const body = new Uint8Array(base);
      new DataView(body.buffer).setBigInt64(body.length - 16, bad, true);
      expectCode(sealed(body), 'damaged', `effect 1: data length ${bad}`);
    }
  });

  it('seq out of order, trailing bytes, bad outcome or ident, unsupported schema, unknown kind', () => {
    expectCode(sealed(buildBody({ effects: [{ kind: 'tide.now@1', seq: 1, data: new Uint8Array(8) }] })), 'damaged', 'effect 0: seq is 1, expected 0');
    expectCode(sealed(buildBody({ ...good, trailing: 'xyz' })), 'damaged', '3 bytes after the last of 2 effect records');
    expectCode(sealed(buildBody({ effects: [{ kind: 'redis@1', outcome: 2 }] })), 'damaged', 'effect 0: outcome is 2');
    expectCode(sealed(buildBody({ effects: [{ kind: 'redis@1', outcome: 1, ident: 9 }] })), 'damaged', 'ident');
    expectCode(sealed(buildBody({ schema: 3, effects: [] })), 'unsupported-schema', 'schema 3 is not supported');
    expectCode(sealed(buildBody({ schema: 0, effects: [] })), 'unsupported-schema', 'schema 0');
    expectCode(sealed(buildBody({ effects: [{ kind: 'tide.now@1', data: new Uint8Array(8) }, { kind: 'mongo@1', key: 'find' }] })), 'unknown-kind', 'effect 1 has kind mongo@1, which this reader cannot show');
    expectCode(sealed(buildBody({ effects: [{ kind: 'sched.resume@1', data: 'abc' }] })), 'damaged', 'a task number is one 8-byte word');
    expectCode(sealed(new Uint8Array(0)), 'damaged', 'schema is cut');
  });

  it('random bodies sealed with the key never crash the reader', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const base = buildBody(good);
    for (let i = 0; i < 400; i++) {
      const body = new Uint8Array(base);
      for (let j = 0; j < 1 + Math.floor(rnd() * 4); j++) body[Math.floor(rnd() * body.length)] = Math.floor(rnd() * 256);
      try {
        openCapsuleBytes(sealed(body), FILE, { keyHex: FIXTURE_KEY, env: {} });
      } catch (e) {
        assert.ok(e instanceof RecordingError, String(e));
      }
    }
  });
});
