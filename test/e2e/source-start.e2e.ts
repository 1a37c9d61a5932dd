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
    // VS Code shows the stop's frame in the editor (its statement selected) after the call stack: the
    // cursor is moved only then, or that reveal puts it back on line 2 (on a loaded machine the
    // button then ran back to line 2).
    const statusText = async () => (await page.locator('.statusbar').allTextContents()).join(' ');
    for (let waited = 0; !/Ln 2, Col \d+ \(\d+ selected\)/.test(await statusText()); waited += 250) {
      if (waited > 30_000) throw new Error(`the panic's statement was never shown selected: ${await statusText()}`);
      await page.waitForTimeout(250);
    }
    // The editor's cursor on line 12 of reorder.mfl (`buf := []int{...}`), still there a moment
    // later (the extension host reads it when the button is pressed), then Run Back to Cursor.
    for (let attempt = 1; ; attempt++) {
      await vs.goToLine(12);
      await page.waitForTimeout(1_000);
      if (/Ln 12, Col \d+/.test(await statusText())) break;
      if (attempt === 3) throw new Error(`the cursor does not stay on line 12: ${await statusText()}`);
    }
    const pressedAt = await statusText();
    await page.locator('.debug-toolbar [aria-label^="Run Back to Cursor"]').click();
    await stack.filter({ hasText: /collector\s*reorder\.mfl\s*12:5/ }).first().waitFor({ timeout: 30_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\n(the status bar when the button was pressed: ${pressedAt})`);
    });
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
