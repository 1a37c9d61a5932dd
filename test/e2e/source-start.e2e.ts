// Statements before the first op, backward, in a real VS Code with the real machin (issue 29,
// point 3): from the panic of a reorder buffer recorded here, Run Back to Cursor on the
// collector's first line (12, before any op) lands there; the status bar says it is before op 0,
// and the reverse buttons stay enabled (there is the start before it); Reverse Continue then
// reaches the start, where they are disabled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { recordProgram } from '../support/machin';
import { REORDER } from '../support/programs';
import { withVsCode } from './harness';

const REVERSE = ['Reverse Continue', 'Step Back', 'Step Back Into', 'Step Back Out', 'Run Back to Cursor'];

/** Each debug toolbar button's label and whether it is disabled. */
async function disabled(page: Page): Promise<Map<string, boolean>> {
  const pairs = await page.locator('.debug-toolbar .action-item .action-label').evaluateAll((els) =>
    els.map((e) => [(e.getAttribute('aria-label') ?? '').replace(/\s*\(.*\)$/, ''), e.classList.contains('disabled') || e.getAttribute('aria-disabled') === 'true'] as [string, boolean]),
  );
  return new Map(pairs);
}

test('Run Back to Cursor reaches the collector\'s first line before any op; the reverse buttons stay enabled there', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'source-start' }, async (vs) => {
    const { page } = vs;
    recordProgram(vs.workspace, 'reorder', REORDER);
    await vs.openFile('reorder.mflrr');
    await vs.timeline().getByText('index out of range [4] with length 4').first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    const stack = page.locator('.debug-call-stack .monaco-list-row');
    await stack.filter({ hasText: /place\s*reorder\.mfl\s*2:55/ }).first().waitFor({ timeout: 90_000 });
    // The editor's cursor on line 12 of reorder.mfl (`buf := []int{...}`), then Run Back to Cursor.
    await vs.goToLine(12);
    // The extension host hears of the cursor after the workbench shows it: on a loaded machine a
    // click at once reached it with the cursor still on the panic's line 2 (it ran back to line 2).
    await page.waitForTimeout(2_000);
    await page.locator('.debug-toolbar [aria-label^="Run Back to Cursor"]').click();
    await stack.filter({ hasText: /collector\s*reorder\.mfl\s*12:5/ }).first().waitFor({ timeout: 30_000 });
    const status = page.locator('.statusbar');
    await status.getByText('before op 0/10 · goroutine 0.2 collector').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const there = await disabled(page);
    for (const l of REVERSE) assert.equal(there.get(l), false, `${l} before the first op: ${JSON.stringify([...there])}`);
    await vs.shot('before-first-op-reverse-enabled');
    await page.locator('.debug-toolbar [aria-label="Reverse Continue"]').click();
    await status.getByText('start · 0/10 ops done').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const start = await disabled(page);
    for (const l of REVERSE) assert.equal(start.get(l), true, `${l} at the start: ${JSON.stringify([...start])}`);
    await vs.shot('at-start-reverse-disabled');
  });
});
