// machin compiles the recorded program into TMPDIR (`mfl-replay-*`) and, when the program panics,
// leaves it there: one folder per replay, two per Replay to Panic. Frozen Run runs each replay
// with a private TMPDIR inside its own private folder and removes it after, so nothing is left in
// the TMPDIR the user runs with. With the real machin, on a panicking fixture.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureBuilt } from '../support/built';
import { MACHIN, machinPath } from '../support/machin';
import { MACHIN_FIXTURES, REPO_ROOT } from '../support/paths';
import { assertSecurityRow } from '../support/security-row';
import { launchAndStop, machinEnv, startAdapter } from '../dap/support';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

describe("machin's compiled program is not left in TMPDIR after a panicking replay", () => {
  let dir = '';
  let tmp = '';
  before(() => {
    ensureBuilt();
    machinPath();
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-tmpdir-'));
    for (const f of ['crash.mfl', 'crash.mflrr']) copyFileSync(path.join(MACHIN_FIXTURES, 'crash', f), path.join(dir, f));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let machinLeft = -1;
  const left = () => readdirSync(tmp).filter((n) => n.startsWith('mfl-replay-'));

  test('machin itself leaves one (the reason for the private TMPDIR)', () => {
    tmp = mkdtempSync(path.join(dir, 'tmp-machin-'));
    const trace = path.join(dir, 'own.mflrr');
    writeFileSync(trace, readFileSync(path.join(dir, 'crash.mflrr'), 'latin1').replace(/^program .*$/m, `program ${path.join(dir, 'crash.mfl')}`), 'latin1');
    const r = spawnSync(MACHIN, ['replay', trace, '--verify'], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', timeout: 60_000 });
    assert.match(r.stderr, /panic: index out of range/);
    assert.equal(left().length, 1, `machin left ${left().join(', ') || 'nothing'}`);
    machinLeft = left().length;
  });

  test('frozen-run inspect: the panic is found, and TMPDIR holds nothing afterwards', () => {
    tmp = mkdtempSync(path.join(dir, 'tmp-cli-'));
    const r = spawnSync(process.execPath, [CLI, 'inspect', path.join(dir, 'crash.mflrr'), '--machin', MACHIN, '--json'], {
      env: { ...process.env, TMPDIR: tmp },
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 1 << 26,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(JSON.parse(r.stdout).panic.message, /index out of range/);
    assert.deepEqual(left(), []);
    assert.deepEqual(readdirSync(tmp), [], 'the trace copy and its private TMPDIR are removed too');
  });

  test('Replay to Panic in the standalone adapter (a plain and an instrumented replay): nothing left', async () => {
    tmp = mkdtempSync(path.join(dir, 'tmp-dap-'));
    const s = await startAdapter(machinEnv({ TMPDIR: tmp }));
    try {
      const stop = await launchAndStop(s, { recording: path.join(dir, 'crash.mflrr'), replayToPanic: true, timeLimitSeconds: 60 });
      assert.equal(stop.body.reason, 'exception');
      assert.deepEqual(left(), [], 'after the replays');
      assertSecurityRow('a panicking replay: machin\'s compiled program in TMPDIR', '0', `machin replay alone leaves ${machinLeft} \`mfl-replay-*\` folder; Replay to Panic (two replays) leaves ${left().length}`);
    } finally {
      await s.dc.stop();
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(left(), []);
  });
});
