// Asking the whole run in a real VS Code with the real machin (issue 30): after Replay to Panic
// on the bundled crash trace, a log point added on crash.mfl's line 1 (`ch <- v` in worker, run by
// two goroutines) prints both hits to the Debug Console at once with their values (v = 5 and v = 7,
// the program's `go worker(ch, 5)`, `go worker(ch, 7)`); the Log Point Hits view lists them; the
// line hit counts are toggled on. Screenshots of the console, the Hits view and the counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('a log point prints every hit at once; the Hits view lists them; line counts show', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'run-questions' }, async (vs) => {
    const { page } = vs;
    await vs.openFile('crash.mflrr');
    await vs.timeline().getByText('index out of range', { exact: false }).first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    // On the statement that panicked: the statements are in.
    for (let waited = 0; ; waited += 250) {
      const rows = (await page.locator('.debug-call-stack .monaco-list-row').allTextContents()).map((t) => t.trim());
      if (rows.some((r) => /^main\s*crash\.mfl\s*12:5/.test(r))) break;
      if (waited > 90_000) throw new Error(`no stop on crash.mfl 12:5: ${rows.join(' | ')}`);
      await page.waitForTimeout(250);
    }
    await page.locator('.tabs-container .tab.active', { hasText: 'crash.mfl' }).first().waitFor({ timeout: 30_000 });
    // Line 1, then Debug: Add Logpoint... with a message.
    // Go to Line, again until the status bar says the cursor is there (on a loaded machine the
    // Debug Console can take the focus and the keys go elsewhere).
    for (let tries = 0; ; tries++) {
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+G');
      await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: 15_000 });
      await page.keyboard.type('1');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      if (/Ln 1,/.test((await page.locator('.statusbar').allTextContents()).join(' '))) break;
      if (tries >= 4) throw new Error('the cursor never reached line 1');
    }
    await vs.runCommand('Debug: Add Logpoint...');
    await page.waitForTimeout(500);
    await page.keyboard.type('v={v}');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Shift+Y');
    const repl = page.locator('.repl');
    let text = '';
    for (let waited = 0; waited < 30_000; waited += 250) {
      text = (await repl.allTextContents()).join('\n');
      if ((text.match(/worker line 1:\d+ op \d+\] v=\d/g) ?? []).length >= 2) break;
      await page.waitForTimeout(250);
    }
    const said = text.match(/goroutine (\S+) worker line 1:\d+ op \d+\] v=(\d+)/g) ?? [];
    assert.equal(said.length, 2, text);
    assert.deepEqual(said.map((x) => x.replace(/.*v=/, '')).sort(), ['5', '7']);
    await vs.shot('log-point-hits-in-console');
    // The Hits view lists them.
    // The Run and Debug side bar is open while debugging; the view's header expands it.
    const header = page.locator('.pane-header', { hasText: 'Log Point Hits' }).first();
    await header.waitFor({ timeout: 30_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const view = page.locator('.pane', { has: header });
    await view.locator('.monaco-list-row', { hasText: 'v=5' }).first().waitFor({ timeout: 30_000 });
    await view.locator('.monaco-list-row', { hasText: 'v=7' }).first().waitFor({ timeout: 30_000 });
    await vs.shot('hits-view');
    // The line counts beside the program.
    await vs.runCommand('Frozen Run: Toggle Line Hit Counts');
    await page.waitForTimeout(1500);
    await vs.shot('line-hit-counts');
  });
});
