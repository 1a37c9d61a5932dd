// A trace whose program lies outside the workspace: replaying it would compile and run that
// program, so VS Code asks first, with a modal. "Cancel" keeps the trace trace-only (no machin
// process); "Run It" replays it (Replay to Panic then stops at the crash).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, withVsCode } from './harness';

async function waitFor(ok: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a program outside the workspace runs only after a modal yes', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'outside-program' }, async (vs) => {
    const { page } = vs;
    // examples/crash.mflrr, pointing at a copy of its program outside the workspace folder.
    const outside = join(vs.workspace, '..', 'outside');
    mkdirSync(outside, { recursive: true });
    copyFileSync(join(repoRoot, 'examples', 'crash.mfl'), join(outside, 'crash.mfl'));
    const trace = readFileSync(join(repoRoot, 'examples', 'crash.mflrr'), 'utf8').replace(/^program .*$/m, `program ${join(outside, 'crash.mfl')}`);
    mkdirSync(join(vs.workspace, 'mailed'), { recursive: true });
    writeFileSync(join(vs.workspace, 'mailed', 'mailed-crash.mflrr'), trace);

    await vs.openFile('mailed-crash.mflrr');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText('outside the workspace', { exact: false }).first().waitFor({ timeout: 60_000 });
    await dialog.getByText(join(outside, 'crash.mfl'), { exact: false }).first().waitFor();
    await vs.shot('asked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 30_000 });
    // The signal that the replay is settled: the store logs why machin did not run.
    await waitFor(() => /was not confirmed, so machin was not run/.test(vs.extensionHostLogs()), 60_000, 'no "not confirmed" warning in the Frozen Run output');
    assert.deepEqual(vs.toolchainRuns(), [], 'machin ran a program the user did not confirm');
    await vs.shot('trace-only');

    await vs.runCommand('Frozen Run: Replay to Panic');
    await dialog.getByText('outside the workspace', { exact: false }).first().waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Run It' }).click();
    await page.locator('.debug-call-stack').getByText('index out of range [12] with length 2').first().waitFor({ timeout: 90_000 });
    assert.ok(vs.toolchainRuns().some((l) => l.startsWith('machin replay')), 'machin did not run after the yes');
    // The timeline beside learns the panic too (without asking again).
    await vs.timeline().getByText('panic: index out of range [12] with length 2', { exact: false }).first().waitFor({ timeout: 60_000 });
    await vs.shot('replayed-after-yes');
  });
});
