// With the `trace` launch attribute the protocol is logged to the Debug Console; a key a client
// sends anyway (a `restart` or a second `launch` with a `key` attribute, refused) must not be in
// that log: every request is logged with its key-like attributes and 64-hex-digit values
// redacted. Through Microsoft's DebugClient against the standalone adapter.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertSecurityRow } from '../support/security-row';
import { buildAdapter, MACHIN_FIXTURES, startAdapter, type Session } from './support';

const TRACE = path.join(MACHIN_FIXTURES, 'reader/reader.mflrr');
const KEY = 'c0ffee'.repeat(10) + 'abcd'; // 64 hex digits, in no fixture

before(buildAdapter);

describe('the protocol log never holds a key a client sends', () => {
  let s: Session;
  before(async () => {
    s = await startAdapter();
    await Promise.all([
      s.dc.configurationSequence(),
      s.dc.launch({ recording: TRACE, stopOnEntry: true, noToolchain: true, trace: true } as never),
      s.dc.waitForEvent('stopped'),
    ]);
  });
  after(() => s.dc.stop());

  const logged = async () => {
    await s.dc.threadsRequest(); // logged after the request before it, so its log is in
    await new Promise((r) => setTimeout(r, 100));
    return s.output.join('');
  };

  test('a restart carrying `key` is refused, and the key is not logged', async () => {
    await assert.rejects(
      s.dc.restartRequest({ arguments: { recording: TRACE, noToolchain: true, key: KEY } } as never),
      /A capsule key never goes in a launch configuration/,
    );
    const log = await logged();
    assert.match(log, /From client: restart\(/, 'the restart is in the protocol log');
    assert.ok(!log.toLowerCase().includes(KEY), `the key reached the Debug Console:\n${log}`);
    assert.match(log, /"key":"<not logged>"/);
    const line = log.split('\n').find((l) => l.includes('From client: restart(')) ?? '';
    assertSecurityRow('adapter: a `key` in a restart, with the `trace` attribute', 'refused', line.trim(), path.dirname(TRACE));
  });

  test('a second launch carrying `keyHex` or `capsuleKey` is refused, and neither key is logged', async () => {
    for (const attribute of ['keyHex', 'capsuleKey', 'tinReplayKey']) {
      await assert.rejects(s.dc.launchRequest({ recording: TRACE, noToolchain: true, [attribute]: KEY.toUpperCase() } as never), /A capsule key never goes/);
    }
    const log = await logged();
    assert.match(log, /From client: launch\(/);
    assert.ok(!log.toLowerCase().includes(KEY), `the key reached the Debug Console:\n${log}`);
  });

  test('a key pasted into another attribute or an expression is not logged either', async () => {
    await s.dc.evaluateRequest({ expression: `x == "${KEY}"`, context: 'repl' }).catch(() => undefined);
    await s.dc.restartRequest({ arguments: { recording: TRACE, noToolchain: true, program: `/tmp/${KEY}.mfl`, stopOnEntry: true } } as never).catch(() => undefined);
    const log = await logged();
    assert.match(log, /From client: evaluate\(/);
    assert.ok(!log.toLowerCase().includes(KEY), `the key reached the Debug Console:\n${log}`);
    assert.match(log, /<64 hex digits, not logged>/);
  });
});
