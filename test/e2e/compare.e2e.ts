// Compare With... in a real VS Code (code-server in Chromium, harness.ts): two real flaky
// runs side by side, the divergence shown and selected, and "Debug from divergence" starting a
// session stopped there. machin is the real machin 0.137.0 on PATH.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FLAKY_RUNS, scheduleOf } from '../compare/support/traces';
import { withVsCode } from './harness';

test('Compare With... shows where two runs part and debugs from there', { timeout: 400_000 }, async () => {
  const sa = scheduleOf(join(FLAKY_RUNS, 'r1.mflrr'));
  const sb = scheduleOf(join(FLAKY_RUNS, 'r3.mflrr'));
  let k = 0;
  while (sa[k].goroutine === sb[k].goroutine) k++;

  await withVsCode({ name: 'compare' }, async (vs) => {
    const { page } = vs;
    // Two more runs of the example program, next to it (so the program and labels are found).
    for (const f of ['r1.mflrr', 'r3.mflrr']) cpSync(join(FLAKY_RUNS, f), join(vs.workspace, f));
    await vs.openFile('r1.mflrr');
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 60_000 });

    await vs.runCommand('Frozen Run: Compare With...');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('r3.mflrr');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'r3.mflrr' }).first().waitFor({ timeout: 15_000 });
    await input.press('Enter');

    const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    const headline = view.locator('.headline');
    await headline.waitFor({ timeout: 90_000 });
    const text = (await headline.textContent()) ?? '';
    const g = (id: string) => id.replace('.', '\\.');
    assert.match(text, new RegExp(`op ${k}: r1\\.mflrr runs goroutine ${g(sa[k].goroutine)}\\b.*r3\\.mflrr runs goroutine ${g(sb[k].goroutine)}\\b`), text);
    // Marked and selected on both sides: the records of op k.
    const divA = await view.locator('.pane-a').getAttribute('data-divergence');
    assert.equal(await view.locator('.pane-a').getAttribute('data-selected'), divA);
    assert.notEqual(divA, '');
    await vs.shot('compare');

    // Debug A from divergence: a session on r1.mflrr stopped on op k (the status bar numbers it as the Call Stack does).
    await view.locator('#debug-a').click();
    await page.locator('.statusbar').getByText(`op ${k}/${sa.length}`).waitFor({ timeout: 120_000 });
    await vs.shot('debug-from-divergence');
  });
});
