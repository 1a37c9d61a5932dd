// A program inside the workspace that is a symlink to a file outside it is outside: the extension
// asks with the same modal as for any outside program (the engine and the extension share one
// rule, on real paths), and "Cancel" keeps the trace trace-only with no machin process.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, withVsCode } from './harness';

test('a workspace link to a program outside the workspace needs the modal yes', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'linked-program' }, async (vs) => {
    const { page } = vs;
    const outside = join(vs.workspace, '..', 'outside-linked');
    mkdirSync(outside, { recursive: true });
    copyFileSync(join(repoRoot, 'examples', 'crash.mfl'), join(outside, 'crash.mfl'));
    const mailed = join(vs.workspace, 'linked');
    mkdirSync(mailed, { recursive: true });
    // Looks like the program beside the trace, inside the workspace; really the outside file.
    symlinkSync(join(outside, 'crash.mfl'), join(mailed, 'crash.mfl'));
    const trace = readFileSync(join(repoRoot, 'examples', 'crash.mflrr'), 'utf8').replace(/^program .*$/m, `program ${join(mailed, 'crash.mfl')}`);
    writeFileSync(join(mailed, 'linked-crash.mflrr'), trace);

    await vs.openFile('linked-crash.mflrr');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText('outside the workspace', { exact: false }).first().waitFor({ timeout: 60_000 });
    await dialog.getByText(`(a link to ${join(outside, 'crash.mfl')})`, { exact: false }).first().waitFor();
    await vs.shot('asked-for-link');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForTimeout(2000);
    assert.deepEqual(vs.toolchainRuns(), [], 'machin ran a linked program the user did not confirm');
  });
});
