// Finding machin: the setting, then MACHIN, then PATH; a clear error when it is nowhere.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { findMachin, readMachinVersion } from '../../replay-engine/machin/find-machin';
import { RecordingError } from '../../replay-engine/model/errors';
import { MACHIN_BIN, machinPath } from '../support/machin';
import { tempDir } from './support';

const machin = machinPath();

function fakeDir(): string {
  const dir = tempDir('find-machin-test-');
  writeFileSync(path.join(dir, 'machin'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(dir, 'machin'), 0o755);
  writeFileSync(path.join(dir, 'not-executable'), '');
  return dir;
}

describe('finding machin', () => {
  it('the setting first, then MACHIN, then PATH', () => {
    const dir = fakeDir();
    const env = { PATH: MACHIN_BIN, MACHIN: path.join(dir, 'machin') };
    assert.deepEqual(findMachin({ machinPath: machin }, env), { path: machin, from: 'setting' });
    assert.deepEqual(findMachin({ machinPath: 'machin' }, env), { path: machin, from: 'setting' }, 'a bare name is looked up on PATH');
    assert.deepEqual(findMachin({}, env), { path: path.join(dir, 'machin'), from: 'MACHIN' });
    assert.deepEqual(findMachin({}, { PATH: `/nonexistent${path.delimiter}${MACHIN_BIN}` }), { path: machin, from: 'PATH' });
  });

  it('missing: toolchain-missing saying how to install it or point at it', () => {
    const dir = fakeDir();
    const missing = (options: object, env: NodeJS.ProcessEnv, pattern: RegExp) =>
      assert.throws(() => findMachin(options, env), (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-missing' && pattern.test(e.message));
    missing({}, { PATH: dir.replace(/$/, '-none') }, /machin not found on PATH: install machin .*frozenRun\.machinPath.*MACHIN/);
    missing({ machinPath: path.join(dir, 'nope') }, { PATH: MACHIN_BIN }, /frozenRun\.machinPath/);
    missing({ machinPath: path.join(dir, 'not-executable') }, {}, /not found at/);
    missing({}, { MACHIN: path.join(dir, 'nope'), PATH: MACHIN_BIN }, /environment variable MACHIN/);
  });

  it('reads the version from `machin guide --json` (machin has no --version)', async () => {
    assert.equal(await readMachinVersion({ path: machin, from: 'setting' }, {}), '0.137.0');
    const dir = fakeDir();
    assert.equal(await readMachinVersion({ path: path.join(dir, 'machin'), from: 'setting' }, {}), undefined);
  });
});
