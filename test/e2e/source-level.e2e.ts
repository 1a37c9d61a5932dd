// Source level in a real VS Code with the real machin (issue 14): Replay to Panic on the bundled
// crash trace stops on the program's statement that panicked (crash.mfl, line 12, `println(xs[idx])`)
// with the editor on it, not on a trace record; Step Back goes to the statement before it in the
// same goroutine (line 11), with the values as of it; the record stays in the Call Stack below the
// program's frame; the timeline beside it draws and follows the cursor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { withVsCode } from './harness';

const PANIC = 'index out of range [12] with length 2';

/** The Call Stack's rows as text (allTextContents: no waiting for a row). */
async function stackRows(page: Page): Promise<string[]> {
  return (await page.locator('.debug-call-stack .monaco-list-row').allTextContents()).map((t) => t.trim());
}

async function waitForRow(page: Page, pattern: RegExp): Promise<string[]> {
  let rows: string[] = [];
  for (let waited = 0; waited < 90_000; waited += 250) {
    rows = await stackRows(page);
    if (rows.some((r) => pattern.test(r))) return rows;
    await page.waitForTimeout(250);
  }
  throw new Error(`no Call Stack row matches ${pattern}: ${rows.join(' | ')}`);
}

test('Replay to Panic stops on the .mfl statement that panicked; Step Back goes to the statement before it', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'source-level' }, async (vs) => {
    const { page } = vs;
    await vs.openFile('crash.mflrr');
    await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    // The program's frame: main, in crash.mfl, line 12 column 5.
    const rows = await waitForRow(page, /^main\s*crash\.mfl\s*12:5/);
    assert.ok(rows.some((r) => /^S 0 · op/.test(r)), `the record stays below the program's frames: ${rows.join(' | ')}`);
    // The editor shows the program at the statement that panicked.
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-lines').getByText('println(xs[idx])').waitFor({ timeout: 30_000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'crash.mfl' }).first().waitFor({ timeout: 30_000 });
    // The timeline, moved beside the program, draws again (its webview reloads there) and follows
    // the cursor: the panic's op, main's recv on line 10.
    await vs.timeline().getByText('Record 3/4 · op 3/4 · 0 main · recv · crash.mfl:10', { exact: false }).first().waitFor({ timeout: 30_000 });
    await vs.shot('panic-on-statement');
    await page.locator('.debug-toolbar [aria-label="Step Back"]').click();
    await waitForRow(page, /^main\s*crash\.mfl\s*11:5/);
    // The values as of that statement, before it runs: idx is still 5 (a = 5 came first), b = 7.
    const vars = page.locator('.debug-variables');
    await vars.locator('.monaco-list-row', { hasText: /idx\s*=\s*5$/ }).first().waitFor({ timeout: 30_000 });
    const shown = (await vars.locator('.monaco-list-row').allTextContents()).map((t) => t.replace(/\s+/g, ''));
    assert.ok(shown.includes('b=7') && shown.includes('idx=5'), shown.join(' | '));
    await vs.shot('stepped-back-a-statement');
    // The replay's steps were shown in its progress notification and kept in the output channel.
    let logs = '';
    for (let waited = 0; waited < 15_000 && !/statement index ready: \d+ statements executed/.test(logs); waited += 500) {
      await page.waitForTimeout(500);
      logs = vs.extensionHostLogs();
    }
    // the statements first (the statements-only copy), then the values
    assert.match(logs, /replaying against the instrumented program \(statements\)/);
    assert.match(logs, /statement index ready: \d+ statements executed; machin now prints the values/);
    assert.match(logs, /replaying against the instrumented program \(values\)/);
  });
});
