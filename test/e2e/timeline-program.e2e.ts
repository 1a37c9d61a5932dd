// The timeline knows the program (issue 14, point 5), in a real VS Code with the real machin: on
// the bundled crash trace, main's first op is the receive of `a := <-ch` (crash.mfl line 8), so
// the timeline's details name it `recv · crash.mfl:8`, and Open in program opens crash.mfl at that
// line without starting a session or moving the timeline, which still draws its lanes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

const PANIC = 'index out of range [12] with length 2';

test('a schedule op names its statement and opens the program there', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'timeline-program' }, async (vs) => {
    const { page } = vs;
    await vs.openFile('crash.mflrr');
    const tl = vs.timeline();
    await tl.getByText(PANIC).first().waitFor({ timeout: 90_000 });
    // Lanes main first: the first key selects main's first op.
    await tl.locator('canvas').first().focus();
    await page.keyboard.press('ArrowRight');
    const details = tl.locator('section.details');
    await details.getByText('recv · crash.mfl:8', { exact: false }).first().waitFor({ timeout: 60_000 });
    const groups = await page.locator('.editor-group-container').count();
    await details.locator('vscode-button[data-command="openProgram"]').click();
    // crash.mfl opens with the cursor on line 8.
    await page.locator('.tabs-container .tab', { hasText: 'crash.mfl' }).filter({ hasNotText: 'mflrr' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.statusbar').getByText(/Ln 8, Col \d+/).first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.debug-toolbar').isVisible(), false, 'opening the program started a session');
    assert.ok((await page.locator('.editor-group-container').count()) <= groups + 1);
    // The timeline still draws: its lanes are listed and its details still show the record.
    await tl.locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 20_000 });
    assert.ok(((await details.textContent()) ?? '').includes('recv · crash.mfl:8'));
    await vs.shot('opened-in-program');
  });
});
