// Tin capsules in a real VS Code: the orders capsule opens with its key from TIN_REPLAY_KEY and
// shows the request and its effects; a wrong key shows the engine's error (and no view of
// garbage); a saved regression test opens with the public test key without asking. Nothing the
// extension writes (logs, output channels) may contain the key.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { withVsCode } from './harness';

/** Every text file under a folder (settings, workspace state, logs), for a key search. */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && st.size < 20_000_000 && readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

/** The fixture key: bytes 0x00..0x1f. */
const ORDERS_KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const WRONG_KEY = 'f'.repeat(64);

test('the orders capsule opens with its key and shows the request and effects', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'capsule-key', env: { TIN_REPLAY_KEY: ORDERS_KEY } }, async (vs) => {
    await vs.openFile('orders-panic.tcap');
    const tl = vs.timeline();
    await tl.locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
    // The request (decoded by the engine) is in the details panel before any selection.
    await tl.getByText('/orders/9').first().waitFor({ timeout: 20_000 });
    // The recorded panic is in the capsule itself.
    await tl.getByText('index out of range [3] with length 3').first().waitFor({ timeout: 20_000 });
    await vs.shot('opened');
    // Select the first effect from the keyboard and see it decoded.
    await tl.locator('canvas').first().focus();
    await vs.page.keyboard.press('Home');
    await tl.getByText('sched.resume@1').first().waitFor({ timeout: 20_000 });
    for (let i = 0; i < 3; i++) await vs.page.keyboard.press('ArrowRight');
    await tl.getByText('postgres@1').first().waitFor({ timeout: 20_000 });
    await tl.getByText('select id, qty from lines', { exact: false }).first().waitFor({ timeout: 20_000 });
    await vs.shot('effect-selected');
    assert.ok(!vs.extensionHostLogs().includes(ORDERS_KEY), 'the capsule key appears in the extension host logs');
  });
});

test('a wrong key shows the wrong-key error, never a garbled view', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'capsule-wrong-key', env: { TIN_REPLAY_KEY: WRONG_KEY } }, async (vs) => {
    await vs.openFile('orders-panic.tcap');
    const tl = vs.timeline();
    await tl.getByText('wrong key or damaged', { exact: false }).first().waitFor({ timeout: 60_000 });
    await tl.locator('vscode-button[data-command="setCapsuleKey"]', { hasText: 'Set Key' }).waitFor({ timeout: 10_000 });
    assert.equal(await tl.locator('canvas').count(), 0, 'a timeline was drawn for a capsule that did not open');
    await vs.shot('wrong-key');
    assert.ok(!vs.extensionHostLogs().includes(WRONG_KEY), 'the key appears in the extension host logs');
  });
});

test('a saved regression test opens with the public test key, without asking', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'capsule-saved-test' }, async (vs) => {
    await vs.openFile('checkout-total.tcap');
    const tl = vs.timeline();
    await tl.locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
    assert.equal(await vs.page.locator('.quick-input-widget input[type="password"]').isVisible(), false, 'a key was asked for');
    await vs.shot('opened');
  });
});

test('asked for on first open, kept in secret storage only, forgettable', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'capsule-prompt' }, async (vs) => {
    const { page } = vs;
    await vs.openFile('orders-panic.tcap');
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ timeout: 60_000 });
    await page.locator('.quick-input-widget').getByText('TIN_REPLAY_KEY', { exact: false }).first().waitFor();
    await vs.shot('prompt');
    await box.fill(ORDERS_KEY);
    await box.press('Enter');
    const tl = vs.timeline();
    await tl.getByText('/orders/9').first().waitFor({ timeout: 60_000 });
    await vs.shot('opened-with-entered-key');

    await vs.runCommand('Frozen Run: Forget Capsule Key');
    await page.locator('.notifications-toasts').getByText('was removed from secret storage', { exact: false }).first().waitFor({ timeout: 20_000 });
    // The view reads the capsule again, and asks again.
    await box.waitFor({ timeout: 30_000 });
    await vs.shot('asked-again');
    await page.keyboard.press('Escape');
    await tl.getByText('no key was given', { exact: false }).first().waitFor({ timeout: 30_000 });

    // The key is nowhere but in secret storage: not in settings, workspace files, logs or state.
    const ud = filesContaining(vs.userDataDir, ORDERS_KEY);
    assert.deepEqual(ud, [], `the key was written to ${ud.join(', ')}`);
    assert.deepEqual(filesContaining(vs.workspace, ORDERS_KEY), []);
  });
});
