// A balancer dividing by a weight another goroutine sent, recorded here with the real machin, in
// a real VS Code (issue 29): at the divide by zero, the balancer's frame in the Call Stack shows
// the select-bound `nw = 0` (where the zero came from) and `r = 76` (point 6), and the note for
// the values machin cannot print names the variables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordProgram } from '../support/machin';
import { BALANCER } from '../support/programs';
import { withVsCode } from './harness';

test('the balancer\'s panic: select-bound r and nw have their values', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'source-balancer' }, async (vs) => {
    const { page } = vs;
    recordProgram(vs.workspace, 'balancer', BALANCER);
    await vs.openFile('balancer.mflrr');
    await vs.timeline().getByText('integer divide by zero').first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    const stack = page.locator('.debug-call-stack .monaco-list-row');
    await stack.filter({ hasText: /share\s*balancer\.mfl\s*1:24/ }).first().waitFor({ timeout: 90_000 });
    // The balancer's frame: its locals as of the call it is making.
    await stack.filter({ hasText: /balancer\s*balancer\.mfl\s*13:9/ }).first().click();
    const vars = page.locator('.debug-variables');
    await vars.locator('.monaco-list-row', { hasText: /^\s*nw\s*=\s*0\s*$/ }).first().waitFor({ timeout: 30_000 });
    const rows = (await vars.locator('.monaco-list-row').allTextContents()).map((t) => t.replace(/\s+/g, ' ').replace(/ =/, ' = ').replace(/ = +/, ' = ').trim());
    assert.ok(rows.includes('r = 76'), rows.join(' | '));
    assert.ok(rows.some((r) => r.startsWith('(no value: results, weights, done) = machin --print prints only scalars and strings')), rows.join(' | '));
    assert.ok(!rows.some((r) => r.startsWith('(no value) ')), rows.join(' | '));
    await stack.filter({ hasText: 'I 0.2 → 1 (select case 1, balancer.mfl:9:9)' }).first().waitFor({ timeout: 30_000 });
    await vs.shot('select-bound-values');
    await page.locator('.statusbar').getByText('I/O after op 21/22 · goroutine 0.2 balancer').waitFor({ timeout: 30_000 });
    const details = vs.timeline().locator('section.details');
    await details.getByText(/^Record 28\/29 · I\/O read after op 21\/22 · 0\.2 balancer/).first().waitFor({ timeout: 30_000 });
    assert.match((await details.locator('.record-meta').textContent()) ?? '', /^trace line \d+ · \S+ · consumed by its thread after op 21\/22$/);
    // main, in the Call Stack: expanded, its frame is the statement it waits in.
    await stack.filter({ hasText: /^\s*0 main/ }).first().click();
    await page.keyboard.press('ArrowRight');
    await stack.filter({ hasText: /main · blocked in receive · this replay only\s*balancer\.mfl\s*22:5/ }).first().waitFor({ timeout: 30_000 });
    await vs.shot('main-blocked-in-receive');
  });
});
