// One owner per recording, in a real VS Code with the real machin: a trace shown on the timeline
// and then replayed to its panic in a debug session is read and enriched once, so machin runs
// exactly as many times as one engine open of the trace makes it run (counted in this process
// with the same machin). Before the extension handed its recording to the inline adapter, the
// session opened the trace again and machin ran twice as often. The same holds for a trace whose
// program is outside the workspace, once the user said it may run: the store asks once, and the
// launch carries nothing the user did not write (before, the configuration resolver asked again
// and wrote the program into the launch, so the session read and replayed the trace a second time).
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openRecording } from '../../replay-engine/open';
import { repoRoot, withVsCode } from './harness';

const REAL_MACHIN = join(repoRoot, '.tools', 'machin', 'machin');
const PANIC = 'index out of range [12] with length 2';

/** A `machin` that logs each start (one line per process) and runs the real one. */
function countingMachin(dir: string): { path: string; starts: () => string[] } {
  const log = join(dir, 'machin-starts.log');
  const path = join(dir, 'machin');
  writeFileSync(path, `#!/bin/sh\necho "machin $*" >> "${log}"\nexec "${REAL_MACHIN}" "$@"\n`, { mode: 0o755 });
  return { path, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

test('Replay to Panic with the timeline open starts machin only as often as one open of the trace', { timeout: 400_000 }, async () => {
  assert.ok(existsSync(REAL_MACHIN), `the real machin is not built at ${REAL_MACHIN}: run ../shared/toolchains/machin/build.sh ${join(repoRoot, '.tools', 'machin')}`);
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-one-owner-'));
  try {
    // What one open of crash.mflrr costs: the engine in this process, with the same machin.
    const baselineDir = mkdtempSync(join(dir, 'baseline-'));
    cpSync(join(repoRoot, 'examples'), join(baselineDir, 'examples'), { recursive: true });
    const baseline = countingMachin(baselineDir);
    const rec = await openRecording(join(baselineDir, 'examples', 'crash.mflrr'), { machinPath: baseline.path, programRoots: [join(baselineDir, 'examples')] });
    assert.equal(rec.panic?.message, PANIC, 'the real machin found no panic in crash.mflrr');
    const once = baseline.starts().length;
    assert.ok(once > 0, 'one open of the trace started no machin');

    const machin = countingMachin(dir);
    await withVsCode({ name: 'one-owner', env: { MACHIN: machin.path } }, async (vs) => {
      const { page } = vs;
      await vs.openFile('crash.mflrr');
      const button = vs.timeline().locator('vscode-button[data-command="replayToPanic"]', { hasText: 'Replay to Panic' });
      await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 90_000 });
      await button.click();
      await page.locator('.debug-call-stack').getByText(PANIC, { exact: false }).first().waitFor({ timeout: 90_000 });
      // The panic is placed after main's own last op (docs/value-positions.md): op 3 of 4.
      await page.locator('.statusbar').getByText('op 3/4 · goroutine 0 main').waitFor({ timeout: 30_000 });
      await vs.shot('stopped-at-panic');
      const starts = machin.starts();
      assert.equal(starts.length, once, `machin started ${starts.length} times for the timeline and the session, one open starts it ${once} times:\n${starts.join('\n')}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a confirmed program outside the workspace: asked once, and machin runs only as often as one open', { timeout: 400_000 }, async () => {
  assert.ok(existsSync(REAL_MACHIN), `the real machin is not built at ${REAL_MACHIN}`);
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-one-owner-outside-'));
  try {
    // The trace points at a program outside the folder it lies in (and outside the workspace).
    const outside = join(dir, 'outside');
    mkdirSync(outside, { recursive: true });
    copyFileSync(join(repoRoot, 'examples', 'crash.mfl'), join(outside, 'crash.mfl'));
    const trace = readFileSync(join(repoRoot, 'examples', 'crash.mflrr'), 'utf8').replace(/^program .*$/m, `program ${join(outside, 'crash.mfl')}`);
    const baselineDir = mkdtempSync(join(dir, 'baseline-'));
    writeFileSync(join(baselineDir, 'mailed-crash.mflrr'), trace);
    const baseline = countingMachin(baselineDir);
    const rec = await openRecording(join(baselineDir, 'mailed-crash.mflrr'), { machinPath: baseline.path, confirmProgram: async () => true });
    assert.equal(rec.panic?.message, PANIC, 'the real machin found no panic with the outside program');
    const once = baseline.starts().length;
    assert.ok(once > 0, 'one open of the trace started no machin');

    const machin = countingMachin(dir);
    await withVsCode({ name: 'one-owner-outside', env: { MACHIN: machin.path } }, async (vs) => {
      const { page } = vs;
      mkdirSync(join(vs.workspace, 'mailed'), { recursive: true });
      writeFileSync(join(vs.workspace, 'mailed', 'mailed-crash.mflrr'), trace);
      await vs.openFile('mailed-crash.mflrr');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByText('outside the workspace', { exact: false }).first().waitFor({ timeout: 60_000 });
      await dialog.getByRole('button', { name: 'Run It' }).click();
      await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 90_000 });
      await vs.shot('timeline-after-yes');
      await vs.timeline().locator('vscode-button[data-command="replayToPanic"]', { hasText: 'Replay to Panic' }).click();
      // Either the session stops at the panic, or a second question comes (the failure this catches).
      const stopped = page.locator('.debug-call-stack').getByText(PANIC, { exact: false }).first();
      const askedAgain = dialog.getByText('outside the workspace', { exact: false }).first();
      const first = await Promise.race([
        stopped.waitFor({ timeout: 90_000 }).then(() => 'stopped' as const),
        askedAgain.waitFor({ timeout: 90_000 }).then(() => 'asked again' as const),
      ]);
      await vs.shot('stopped-at-panic');
      assert.equal(first, 'stopped', 'Replay to Panic asked again whether the outside program may run');
      const starts = machin.starts();
      assert.equal(starts.length, once, `machin started ${starts.length} times for the timeline and the session, one open starts it ${once} times:\n${starts.join('\n')}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
