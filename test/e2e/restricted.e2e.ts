// Restricted Mode (workspace trust on, the folder not trusted): a recording opens trace-only with
// a banner that says why and how to enable replays, and no toolchain process is ever started,
// not on open, not from Replay to Panic, not from the variable history. The harness puts
// recording `machin`/`tin` wrappers first on PATH; the trusted test in trace.test.ts shows the
// same wrappers do record a run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('in Restricted Mode a trace opens trace-only with a banner and no toolchain runs', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'restricted', trust: false }, async (vs) => {
    const { page } = vs;
    // The startup prompt: answer "No".
    const no = page.getByRole('button', { name: /No, I don.t trust the authors/ });
    await no.waitFor({ timeout: 60_000 });
    await vs.shot('trust-prompt');
    await no.click();
    await vs.openFile('crash.mflrr');
    const tl = vs.timeline();
    await tl.locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
    await tl.getByText('Restricted Mode', { exact: false }).first().waitFor({ timeout: 20_000 });
    await tl.getByText('trust this folder', { exact: false }).first().waitFor({ timeout: 5_000 });
    await vs.shot('banner');

    await vs.runCommand('Frozen Run: Replay to Panic');
    await page.locator('.notifications-toasts').getByText('needs a trusted workspace', { exact: false }).first().waitFor({ timeout: 20_000 });
    await vs.shot('replay-refused');
    // The variable history says why it has no values (they come from machin) instead of running it.
    await vs.runCommand('Frozen Run: Open Variable History');
    await vs.webviewWith('text=Trust this folder to see them', 60_000);
    await vs.shot('history');

    assert.deepEqual(vs.toolchainRuns(), [], 'a toolchain process was started in Restricted Mode');
    assert.equal(await page.locator('.debug-call-stack').count(), 0, 'a debug session started');
  });
});
