// One owner per recording, in a real VS Code with the real machin: a trace shown on the timeline
// and then replayed to its panic in a debug session is read and enriched once, so machin runs
// exactly as many times as one engine open of the trace makes it run (counted in this process
// with the same machin). Before the extension handed its recording to the inline adapter, the
// session opened the trace again and machin ran twice as often.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
