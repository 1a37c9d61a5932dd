// A machin trace in a real VS Code: open the crash trace and see its goroutines on the timeline,
// Replay to Panic stops on the exception with the panic message in the Call Stack view, and
// stepping back moves the timeline's cursor. machin is the real machin 0.137.0 on PATH
// (test/support/machin.ts builds it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode, type VsCode } from './harness';

const PANIC = 'index out of range [12] with length 2';

async function openTimeline(vs: VsCode, file: string): Promise<void> {
  await vs.openFile(file);
  // One lane per goroutine; the list is the canvas's accessible twin.
  await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
}

async function goroutines(vs: VsCode): Promise<string[]> {
  return vs.timeline().locator('ul[aria-label="Goroutines"] li').allTextContents();
}

test('the crash trace opens on the timeline with one lane per goroutine', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'trace-open' }, async (vs) => {
    await openTimeline(vs, 'crash.mflrr');
    // In a trusted workspace machin adds the panic, and the program the labels.
    await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 60_000 });
    const lanes = await goroutines(vs);
    assert.equal(lanes.length, 3, `lanes: ${lanes.join(' | ')}`);
    assert.ok(lanes.some((l) => /^0 main\b/.test(l)), lanes.join(' | '));
    assert.ok(lanes.some((l) => l.startsWith('0.1')), lanes.join(' | '));
    assert.ok(lanes.some((l) => l.startsWith('0.2')), lanes.join(' | '));
    // The page the host serves: a strict CSP, scripts only by nonce, no remote content.
    const csp = (await vs.timeline().locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-[^']+'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|https?:/);
    // The header facts come from the engine, not from the webview.
    await vs.timeline().getByText('faithful').first().waitFor({ timeout: 10_000 });
    await vs.shot('timeline');
    // The other half of the Restricted Mode test: in a trusted workspace machin does run.
    assert.ok(vs.toolchainRuns().some((l) => l.startsWith('machin replay')), `toolchain runs: ${vs.toolchainRuns().join(' | ')}`);
  });
});

test('Replay to Panic stops on the exception; stepping back moves the timeline cursor', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'trace-replay' }, async (vs) => {
    const { page } = vs;
    await openTimeline(vs, 'crash.mflrr');
    // The timeline's own button (a webview message to the host), once machin has found the panic.
    const button = vs.timeline().locator('vscode-button[data-command="replayToPanic"]', { hasText: 'Replay to Panic' });
    await button.waitFor({ timeout: 60_000 });
    await vs.shot('opened');
    await button.click();
    // The Call Stack view shows the stopped goroutine with the panic as its state.
    const callStack = page.locator('.debug-call-stack');
    await callStack.getByText(PANIC, { exact: false }).first().waitFor({ timeout: 90_000 });
    const status = page.locator('.statusbar');
    // The op the cursor is on, numbered as the Call Stack's frame (op 3 of 0..3 is the fourth).
    await status.getByText('op 3/4').waitFor({ timeout: 30_000 });
    await vs.shot('stopped-at-panic');

    const canvas = vs.timeline().locator('canvas').first();
    const before = await canvas.screenshot();
    // VS Code's own Step Back (debug toolbar), then Frozen Run's Step Back Into (palette). They
    // move by statement (issue 14): from `println(xs[idx])` (line 12) to `idx = idx + b` (11),
    // then to `b := <-ch` (10), the receive of op 3, so the cursor is before that op; then into
    // `idx = idx + a` (9).
    const frameAt = (line: number) => callStack.locator('.monaco-list-row', { hasText: new RegExp(`^\\s*main\\s*crash\\.mfl\\s*${line}:5`) }).first();
    await page.locator('.debug-toolbar [aria-label="Step Back"]').click();
    await frameAt(11).waitFor({ timeout: 30_000 });
    await page.locator('.debug-toolbar [aria-label="Step Back"]').click();
    await frameAt(10).waitFor({ timeout: 30_000 });
    await status.getByText('op 2/4').waitFor({ timeout: 30_000 });
    await vs.runCommand('Frozen Run: Step Back Into');
    await frameAt(9).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500); // one animation frame of the canvas
    const after = await canvas.screenshot();
    assert.notDeepEqual(after, before, 'the timeline canvas did not change after two steps back');
    await vs.shot('stepped-back-twice');
  });
});

test('the variable history lists every value and moves the session on click', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'trace-history' }, async (vs) => {
    const { page } = vs;
    await openTimeline(vs, 'crash.mflrr');
    await vs.runCommand('Frozen Run: Replay to Panic');
    const status = page.locator('.statusbar');
    await status.getByText('op 3/4').waitFor({ timeout: 90_000 });
    await vs.runCommand('Frozen Run: Open Variable History');
    const history = await vs.webviewWith('#variable-name');
    // The names have arrived (the first variable is shown) before a name is typed: typing earlier
    // races the view's first render.
    await history.getByText(/took \d+ values? on/).first().waitFor({ timeout: 30_000 });
    // Type a name: crash.mfl sets idx := 0, then idx + a (5), then idx + b (7), as machin probed.
    // With machin the program's statements are known, so `idx` is main's (`main.idx`), each row
    // the statement that stored it (issue 29).
    await history.locator('#variable-name input').fill('idx');
    await history.locator('#variable-name input').press('Enter');
    await history.getByText('main.idx took 3 values', { exact: false }).first().waitFor({ timeout: 60_000 });
    const rows = history.locator('.table-rows [role="row"]');
    assert.deepEqual((await history.locator('.table-rows .cell.value').allTextContents()).map((v) => v.trim()), ['0', '5', '12']);
    assert.deepEqual((await history.locator('.table-rows .cell.statement').allTextContents()).map((v) => v.trim()), ['crash.mfl:7:5', 'crash.mfl:9:5', 'crash.mfl:11:5']);
    await vs.shot('history');
    // Clicking a value moves the session just after the statement that stored it: main stands on
    // `b := <-ch` (line 10) with idx = 5, after op 2 (main's first receive), as the status bar says.
    await rows.nth(1).click();
    await status.getByText('op 2/4').waitFor({ timeout: 30_000 });
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: /main\s*crash\.mfl\s*10:5/ }).first().waitFor({ timeout: 30_000 });
    await page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*idx\s*=\s*5\s*$/ }).first().waitFor({ timeout: 30_000 });
    await vs.shot('history-row-clicked');
  });
});

test('Open as Text, then the "Replay to here" code lens starts a session stopped on that record', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'trace-code-lens' }, async (vs) => {
    const { page } = vs;
    await openTimeline(vs, 'crash.mflrr');
    await vs.timeline().locator('vscode-button[data-command="openAsText"]').click();
    // The trace as text, decorated by the language server: a lens on each goroutine block.
    const lens = page.locator('.codelens-decoration a', { hasText: 'Replay to here (op 2' }).first();
    await lens.waitFor({ timeout: 60_000 });
    await vs.shot('text-with-lenses');
    await lens.click();
    const status = page.locator('.statusbar');
    await status.getByText('op 2/4').waitFor({ timeout: 90_000 });
    await page.locator('.debug-call-stack').getByText('0 main').first().waitFor({ timeout: 30_000 });
    // The timeline beside the text, following the session.
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForTimeout(500);
    await vs.shot('replayed-to-here');
  });
});
