// The Capsules view in a real VS Code: a spool written into the workspace shows as groups of the
// same failure with their counts (largest first), the capsules that cannot be read under
// "Unreadable"; the key is asked for once per folder, when the user clicks the row that says the
// capsules need it; a click on a capsule opens its timeline (without asking again); a new
// capsule written as `.tmp` and renamed joins its group; the quick filter hides what does not
// match. The key never reaches the logs.
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { randomKeyHex, seal } from '../tcap/support/seal';
import { BUGS, bugBody, spoolName, writeSpool } from '../tcap/support/spool';
import { withVsCode } from './harness';

/** The key of examples/orders-panic.tcap (bytes 0x00..0x1f); the test spool is sealed under it too. */
const KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const PAY = BUGS.find((b) => b.id === 'pay-timeout')!;
const ORDERS = BUGS.find((b) => b.id === 'orders-index')!;

test('the Capsules view shows the spool in groups and opens a capsule on click', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'capsules-view' }, async (vs) => {
    const { page } = vs;
    const spool = join(vs.workspace, 'spool');
    const specs = writeSpool(spool, KEY, [PAY, ORDERS], [3, 2]);
    const foreign = spoolName(1_764_600_000_000_000_000n, 1, 50);
    writeFileSync(join(spool, foreign), seal(bugBody(PAY, 50, 1n, 1), randomKeyHex()));
    writeFileSync(join(spool, `${spoolName(1_764_600_000_000_000_001n, 1, 51)}.tmp`), 'TINCAP\x01\x00being written');

    await vs.runCommand('Explorer: Focus on Capsules View');
    // Room for the view: fold the workspace's file tree.
    await page.locator('.pane-header', { hasText: 'examples' }).first().click();
    // The spool's capsules need its key: the view says so, and asks when that row is clicked.
    const needsKey = page.getByRole('treeitem', { name: /6 capsules need the spool's key/ });
    await needsKey.waitFor({ timeout: 60_000 });
    await vs.shot('needs-key');
    await needsKey.click();
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ timeout: 20_000 });
    await box.fill(KEY);
    await box.press('Enter');
    const payGroup = page.getByRole('treeitem', { name: /500 POST \/pay/ });
    await payGroup.waitFor({ timeout: 60_000 });
    assert.equal(await box.isVisible(), false, 'asked for the key again');
    await vs.shot('groups');
    const treeText = async () => (await page.locator('.pane-body .monaco-list-row').allInnerTexts()).join('\n');
    const text = await treeText();
    assert.match(text, /500 POST \/pay\s*3× · wire\.http@1 failed/);
    // Routes are templated: /orders/9 is /orders/{id} (issue 29).
    assert.match(text, /504 GET \/orders\/\{id\}\?page=&sort=\s*2× · panic: index out of range \[<n>\] with length <n>/);
    assert.match(text, /Unreadable \(1\)/);
    assert.ok(!text.includes('.tmp'), 'a capsule being written is listed');
    // Largest group first.
    assert.ok(text.indexOf('500 POST /pay') < text.indexOf('504 GET /orders/{id}'));

    await payGroup.click();
    const newest = specs.filter((s) => s.bug === PAY.id).sort((a, b) => (a.wall > b.wall ? -1 : 1))[0];
    const capsuleRow = page.getByRole('treeitem', { name: /core \d+ · POST \/pay/ }).first();
    await capsuleRow.waitFor({ timeout: 20_000 });
    await vs.shot('group-open');
    await capsuleRow.click();
    const tl = vs.timeline();
    await tl.locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
    await tl.getByText('/pay').first().waitFor({ timeout: 20_000 });
    await vs.shot('timeline');
    assert.equal(await page.locator('.tab.active').getAttribute('aria-label').then((l) => l?.includes(newest.name) ?? false), true, `the newest capsule ${newest.name} did not open`);

    // Tin writes a new capsule under a .tmp name and renames it: it joins its group.
    const wall = 1_764_700_000_000_000_000n;
    const name = spoolName(wall, 2, 60);
    writeFileSync(join(spool, `${name}.tmp`), seal(bugBody(PAY, 60, wall, 2), KEY));
    renameSync(join(spool, `${name}.tmp`), join(spool, name));
    await page.getByRole('treeitem', { name: /500 POST \/pay/ }).filter({ hasText: '4×' }).waitFor({ timeout: 30_000 });
    await vs.shot('new-capsule');

    // The quick filter: only what matches stays.
    await vs.runCommand('Frozen Run: Filter Capsules...');
    const input = page.locator('.quick-input-widget input');
    await input.fill('status:5xx index');
    await input.press('Enter');
    await page.getByRole('treeitem', { name: /500 POST \/pay/ }).waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByRole('treeitem', { name: /504 GET \/orders\/\{id\}/ }).waitFor({ timeout: 20_000 });
    await vs.shot('filtered');
    assert.ok(!vs.extensionHostLogs().includes(KEY), 'the key is in the logs');
  });
});
