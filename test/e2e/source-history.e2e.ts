// Variable History at source level in a real VS Code with the real machin (issue 29, points 1 and
// 2): a reorder buffer recorded here into the workspace. The picker lists `collector.base` and the
// helpers' `place.base` apart; the collector's has the 5 values machin prints, each row the
// statement that stored it; clicking the row of `base = 2` moves the session just after that
// statement, so the Variables view shows `base = 2` (it showed the value before, `1`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordProgram } from '../support/machin';
import { REORDER } from '../support/programs';
import { withVsCode } from './harness';

test('Variable History at source level: one function\'s variable, a row per statement, a click lands just after the store', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'source-history' }, async (vs) => {
    const { page } = vs;
    recordProgram(vs.workspace, 'reorder', REORDER);
    await vs.openFile('reorder.mflrr');
    await vs.timeline().getByText('index out of range [4] with length 4').first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: /place\s*reorder\.mfl\s*2:55/ }).first().waitFor({ timeout: 90_000 });
    await vs.runCommand('Frozen Run: Open Variable History');
    const history = await vs.webviewWith('#variable-name');
    await history.getByText(/took \d+ values? on/).first().waitFor({ timeout: 60_000 });
    const options = (await history.locator('vscode-option').allTextContents()).map((o) => o.trim());
    assert.ok(options.includes('collector.base') && options.includes('place.base') && options.includes('slot.base'), options.join(', '));
    await history.locator('#variable-name input').fill('collector.base');
    await history.locator('#variable-name input').press('Enter');
    await history.getByText('collector.base took 5 values', { exact: false }).first().waitFor({ timeout: 30_000 });
    assert.deepEqual((await history.locator('.table-rows .cell.value').allTextContents()).map((v) => v.trim()), ['0', '1', '2', '3', '4']);
    assert.deepEqual((await history.locator('.table-rows .cell.statement').allTextContents()).map((v) => v.trim()), ['reorder.mfl:13:5', 'reorder.mfl:19:13', 'reorder.mfl:19:13', 'reorder.mfl:19:13', 'reorder.mfl:19:13']);
    await vs.shot('history-by-statement');
    // The row of base = 2: the session stands just after `base = base + 1`, where base is 2.
    await history.locator('.table-rows [role="row"]').nth(2).click();
    const vars = page.locator('.debug-variables');
    await vars.locator('.monaco-list-row', { hasText: /^\s*base\s*=\s*2\s*$/ }).first().waitFor({ timeout: 30_000 });
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: /collector\s*reorder\.mfl\s*1[58]:/ }).first().waitFor({ timeout: 30_000 });
    // The row it landed after is the current one in the panel.
    await history.locator('[aria-current="true"] .cell.value', { hasText: '2' }).waitFor({ timeout: 30_000 });
    await vs.shot('row-clicked-base-2');
  });
});
