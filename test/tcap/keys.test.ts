// Where keys come from (option, key file, TIN_REPLAY_KEY, the public test key of a saved test),
// what happens without one, and that no message ever holds a key.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { publicTestKey } from '../../replay-engine/tcap/keys';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import { checkSecret } from '../../replay-engine/tcap/secret';
import { TIN_FIXTURES } from './support/fixtures';
import { buildBody, FIXTURE_KEY, randomKeyHex, seal, secretHandleOf, u8 } from './support/seal';

const SAVED = join(TIN_FIXTURES, 'tests', 'regressions');
const DECLINED = join(TIN_FIXTURES, 'checkout-declined.tcap');

async function refused(p: Promise<unknown>, code: string, keyHex?: string): Promise<RecordingError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RecordingError, String(e));
    assert.equal(e.code, code, e.message);
    if (keyHex) assert.ok(!e.message.toLowerCase().includes(keyHex.toLowerCase()), 'the key is not in the message');
    return e;
  }
  assert.fail('expected a refusal');
}

describe('tcap keys', () => {
  it('the public test key is the documented derivation and matches the saved test\'s cases.json', () => {
    const cases = JSON.parse(readFileSync(join(SAVED, 'cases.json'), 'utf8')) as Array<{ replay: { key: string } }>;
    assert.equal(Buffer.from(publicTestKey()).toString('hex'), cases[0].replay.key);
  });

  it('opens a saved test through its cases.json with no key given', async () => {
    const rec = await openCapsuleFile(join(SAVED, 'checkout-total.tcap'), { env: {} });
    assert.equal(rec.timeline.recordCount, 2);
    assert.equal(rec.request.headers.find((h) => h.name === 'Authorization')?.value, 'tin-secret:68b85d464ce4f804daae42a13c4f3a03');
  });

  it('a saved test opens even with an unrelated TIN_REPLAY_KEY in the environment', async () => {
    const rec = await openCapsuleFile(join(SAVED, 'checkout-total.tcap'), { env: { TIN_REPLAY_KEY: randomKeyHex() } });
    assert.equal(rec.timeline.recordCount, 2);
  });

  it('the same capsule outside its cases.json needs a key, and says how to give one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcap-nokey-'));
    copyFileSync(join(SAVED, 'checkout-total.tcap'), join(dir, 'checkout-total.tcap'));
    const e = await refused(openCapsuleFile(join(dir, 'checkout-total.tcap'), { env: {} }), 'no-key');
    assert.match(e.message, /Set Capsule Key/);
    assert.match(e.message, /TIN_REPLAY_KEY/);
    assert.match(e.message, /--key/);
    // A cases.json that lists it under another key is not a saved test.
    writeFileSync(join(dir, 'cases.json'), JSON.stringify([{ replay: { capsule: 'checkout-total.tcap', key: FIXTURE_KEY } }]));
    await refused(openCapsuleFile(join(dir, 'checkout-total.tcap'), { env: {} }), 'no-key');
    writeFileSync(join(dir, 'cases.json'), JSON.stringify([{ replay: { capsule: 'checkout-total.tcap' } }]));
    assert.equal((await openCapsuleFile(join(dir, 'checkout-total.tcap'), { env: {} })).timeline.recordCount, 2);
  });

  it('TIN_REPLAY_KEY from the given environment; an explicit key wins and is the only one tried', async () => {
    assert.equal((await openCapsuleFile(DECLINED, { env: { TIN_REPLAY_KEY: FIXTURE_KEY } })).timeline.recordCount, 2);
    const wrong = randomKeyHex();
    await refused(openCapsuleFile(DECLINED, { keyHex: wrong, env: { TIN_REPLAY_KEY: FIXTURE_KEY } }), 'wrong-key-or-damaged', wrong);
    await refused(openCapsuleFile(DECLINED, { env: { TIN_REPLAY_KEY: wrong } }), 'wrong-key-or-damaged', wrong);
  });

  it('a malformed key is refused without being echoed', async () => {
    const bad = `${FIXTURE_KEY.slice(0, 60)}zz`;
    const e = await refused(openCapsuleFile(DECLINED, { keyHex: bad, env: {} }), 'usage', bad);
    assert.match(e.message, /64 hex digits/);
    await refused(openCapsuleFile(DECLINED, { env: { TIN_REPLAY_KEY: 'abc' } }), 'usage', 'abc0');
  });

  it('a key file: read when private, refused when group or others can read it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcap-keyfile-'));
    const file = join(dir, 'key');
    writeFileSync(file, `${FIXTURE_KEY}\n`);
    chmodSync(file, 0o600);
    assert.equal((await openCapsuleFile(DECLINED, { keyFile: file, env: {} })).timeline.recordCount, 2);
    for (const mode of [0o640, 0o604, 0o644]) {
      chmodSync(file, mode);
      const e = await refused(openCapsuleFile(DECLINED, { keyFile: file, env: {} }), 'usage', FIXTURE_KEY);
      assert.match(e.message, /group or others can read it/);
      assert.match(e.message, /chmod 600/);
    }
  });

  it('a key file that is a FIFO or a device is refused without being read', async () => {
    const { execFileSync } = await import('node:child_process');
    const { symlinkSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'tcap-keyfile-special-'));
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const zero = join(dir, 'zero');
    symlinkSync('/dev/zero', zero);
    for (const file of [fifo, zero]) {
      const e = await refused(openCapsuleFile(DECLINED, { keyFile: file, env: {} }), 'usage', FIXTURE_KEY);
      assert.match(e.message, /not a regular file of at most 4 KB/);
    }
  });

  it('the secret check finds handles in headers, query arguments and SQL arguments, under any key', async () => {
    const key = randomKeyHex();
    const dir = mkdtempSync(join(tmpdir(), 'tcap-secret-'));
    const token = secretHandleOf(key, 'hunter2');
    const cookie = secretHandleOf(key, 'session=abc');
    const body = buildBody({
      request: `GET /x?token=${token}&page=2 HTTP/1.1\r\nHost: a\r\nCookie: ${cookie}\r\nX-Dropped: \r\n\r\n`,
      effects: [{ kind: 'postgres@1', key: `Q select * from users where token = \nH${token}\n`, data: 'ok' }],
    });
    writeFileSync(join(dir, "c.tcap"), seal(body, key));
    const rec = await openCapsuleFile(join(dir, 'c.tcap'), { keyHex: key, env: {} });
    const hit = checkSecret(rec, 'hunter2');
    assert.deepEqual(hit.matches.map((m) => m.where), ['request query token', 'effect 0 (postgres@1) key']);
    assert.deepEqual(checkSecret(rec, 'session=abc').matches.map((m) => m.where), ['request header Cookie']);
    assert.equal(checkSecret(rec, 'hunter3').matches.length, 0);
    assert.equal(hit.handles.length, 3);
    const { inspect } = await import('node:util');
    const dump = inspect(rec, { depth: 6, showHidden: true, maxArrayLength: 1e6 });
    const ks = (await import('node:crypto')).createHmac('sha256', u8(Buffer.from(key, 'hex'))).update('tin replay secret').digest();
    assert.ok(!dump.includes(key) && !dump.includes(ks.toString('hex')), 'no key material on the recording object');
    // Typed arrays print as numbers: look for the secret-handle key's bytes as a run too.
    assert.ok(!dump.replace(/\s+/g, '').includes([...ks.subarray(0, 12)].join(',')), 'the secret-handle key is not on the object');
  });
});
