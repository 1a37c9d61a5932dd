// What a user trips on with Tin capsules (and with no toolchain at all) in VS Code (issue 15),
// tried as they would try it. No machin and no tin on PATH here:
//   - TIN_REPLAY_KEY does not open the capsule: the page says so and has a Set Key button, which
//     asks for the key; with it the capsule opens;
//   - a capsule's words are effect and task, never op or goroutine (timeline, status bar);
//   - Replay Against Build without tin says so at once, naming frozenRun.tinPath, with a button
//     to it, and asks for no build first;
//   - a cut capsule says it looks cut;
//   - a trace with no machin: one line in the header on what machin would add, and a button that
//     opens the setting.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { withVsCode, type VsCode } from './harness';

/** The fixture key: bytes 0x00..0x1f. */
const ORDERS_KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const WRONG_KEY = 'e'.repeat(64);

function toast(vs: VsCode, text: string) {
  return vs.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
}

/** The Settings editor shows the one setting `id` (its key shown as "Frozen Run: ..."). */
async function settingShown(vs: VsCode, title: string): Promise<void> {
  await vs.page.locator('.settings-editor').waitFor({ timeout: 30_000 });
  await vs.page.locator('.settings-editor .setting-item-label', { hasText: title }).first().waitFor({ timeout: 30_000 });
}

test('capsule keys, words, tin missing, a cut capsule and a trace without machin', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'workbench-capsule', toolchains: false, env: { TIN_REPLAY_KEY: WRONG_KEY } }, async (vs) => {
    const { page } = vs;
    // A copy cut to 100 bytes: it cannot hold a body and a tag.
    const whole = readFileSync(join(vs.workspace, 'orders-panic.tcap'));
    writeFileSync(join(vs.workspace, 'orders-cut.tcap'), whole.subarray(0, 100));

    // 9. TIN_REPLAY_KEY does not open it: the page says so and offers the key prompt.
    await vs.openFile('orders-panic.tcap');
    const tl = vs.timeline();
    await tl.getByText('wrong key or damaged', { exact: false }).first().waitFor({ timeout: 60_000 });
    await tl.getByText('The TIN_REPLAY_KEY this VS Code was started with does not open it', { exact: false }).waitFor({ timeout: 10_000 });
    const setKey = tl.locator('vscode-button[data-command="setCapsuleKey"]', { hasText: 'Set Key' });
    await setKey.waitFor({ timeout: 10_000 });
    await vs.shot('wrong-env-key');
    await setKey.click();
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ timeout: 30_000 });
    await box.fill(ORDERS_KEY);
    await box.press('Enter');
    await tl.locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });

    // 8. Effect and task, never op or goroutine.
    const panicLine = (await tl.locator('.panic-line').textContent()) ?? '';
    assert.match(panicLine, /\(task \d+.*, after 12\/12 effects\)/, panicLine);
    await tl.locator('canvas').first().focus();
    await page.keyboard.press('Home');
    const details = tl.locator('section.details');
    await details.getByText('Record 0/12 · effect 0/12 · ', { exact: false }).waitFor({ timeout: 20_000 });
    // The view's own words (not the recorded effects' text): header, lanes, legend, details' titles.
    const words = (await tl.locator('.panic-line, .legend, ul[aria-label="Tasks"], .details h2, .details .record-meta, .status').allTextContents()).join(' | ');
    assert.doesNotMatch(words, /\bops?\b|goroutine/, words);
    await vs.shot('capsule-words');
    await tl.locator('vscode-button[data-command="replayToPanic"]').click();
    const status = page.locator('.statusbar');
    await status.getByText('effect 11/12 · task', { exact: false }).waitFor({ timeout: 90_000 });
    assert.doesNotMatch((await status.textContent()) ?? '', /\bop \d|goroutine/);
    await vs.shot('capsule-status-bar');
    await page.locator('.debug-toolbar [aria-label^="Stop"]').click();
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });

    // 6. Replay Against Build without tin: said at once, with the setting's name and a button.
    await vs.timeline().locator('vscode-button[data-command="replayAgainstBuild"]').click();
    const missing = toast(vs, 'frozenRun.tinPath');
    await missing.waitFor({ timeout: 30_000 });
    const said = (await missing.textContent()) ?? '';
    assert.doesNotMatch(said, /--tin\b|--\w+ PATH/, said);
    assert.equal(await page.locator('.quick-input-widget').isVisible(), false, 'a build was asked for without tin');
    await vs.shot('tin-missing');
    await missing.getByRole('button', { name: 'Open Setting' }).click();
    await settingShown(vs, 'Tin Path');
    await vs.shot('tin-setting');

    // 9. A cut capsule says it looks cut.
    await vs.openFile('orders-cut.tcap');
    await vs.timeline().getByText('capsule looks cut', { exact: false }).first().waitFor({ timeout: 60_000 });
    await vs.shot('cut-capsule');

    // 5. A trace with no machin: one line on what machin would add, with a button to the setting.
    await vs.openFile('crash.mflrr');
    const note = vs.timeline().locator('.toolchain-note');
    await note.waitFor({ timeout: 60_000 });
    assert.match((await note.textContent()) ?? '', /No machin: with it Frozen Run adds the panic/);
    await vs.shot('no-machin-note');
    await note.locator('vscode-button[data-command="openMachinSetting"]').click();
    await settingShown(vs, 'Machin Path');
    await vs.shot('machin-setting');
    assert.ok(!vs.extensionHostLogs().includes(ORDERS_KEY), 'the capsule key appears in the extension host logs');
  });
});
