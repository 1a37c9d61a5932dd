import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact } from '../../extension/redact';

const KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

test('a key-shaped run is hidden wherever it is', () => {
  assert.equal(redact(`TIN_REPLAY_KEY=${KEY} tin replay`), 'TIN_REPLAY_KEY=<64 hex digits hidden> tin replay');
  assert.equal(redact(KEY.toUpperCase()), '<64 hex digits hidden>');
  assert.equal(redact(`key: ${KEY}.\n${KEY}`), 'key: <64 hex digits hidden>.\n<64 hex digits hidden>');
});

test('shorter or longer hex runs are left alone', () => {
  assert.equal(redact(KEY.slice(0, 63)), KEY.slice(0, 63));
  assert.equal(redact(`${KEY}00`), `${KEY}00`);
  assert.equal(redact('op 3/4 · goroutine 0.2'), 'op 3/4 · goroutine 0.2');
});
