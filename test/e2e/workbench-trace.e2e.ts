// What a user of rr, Pernosco or Replay.io trips on in VS Code, tried on a machin trace as they
// would try it (issue 15), with the real machin 0.137.0 on PATH:
//   - a click on the timeline with no session selects and shows the record, and starts nothing;
//     Debug from Here does; with a session running a click moves it and the layout stays;
//   - the debug toolbar groups the reverse buttons after the forward ones, with their own icons,
//     disabled (not hidden) where they cannot go;
//   - Variables lead with the program's values; Continue at the panic says the run ends there;
//     after moving away no thread says "Paused on exception"; status bar, Call Stack and the
//     timeline's details agree;
//   - lanes main first; the verify verdict in the header; Open as Text is read-only; one
//     "Replay to here" lens per goroutine block; F5 with no launch.json replays without a picker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { withVsCode, type VsCode } from './harness';

const PANIC = 'index out of range [12] with length 2';

async function openTimeline(vs: VsCode, file: string): Promise<void> {
  await vs.openFile(file);
  await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
}

/** The debug toolbar's buttons, left to right: [label, disabled]. */
async function toolbar(page: Page): Promise<Array<[string, boolean]>> {
  return page.locator('.debug-toolbar .action-item .action-label').evaluateAll((els) =>
    els.map((e) => [(e.getAttribute('aria-label') ?? '').replace(/\s*\(.*\)$/, ''), e.classList.contains('disabled') || e.getAttribute('aria-disabled') === 'true'] as [string, boolean]),
  );
}

/**
 * Clicks record `r` on lane `lane` of the canvas: the pointer sweeps the lane until the view's
 * hover line names the record (so the test does not depend on the zoom), then clicks there.
 */
async function clickRecord(vs: VsCode, r: number, lane: number): Promise<void> {
  const tl = vs.timeline();
  // The timeline may have just moved beside the program (a new panel, still loading): its lanes first.
  await tl.locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
  const canvas = tl.locator('canvas').first();
  await canvas.waitFor({ timeout: 30_000 });
  const box = (await canvas.boundingBox())!;
  const y = 22 + lane * 24 + 12;
  for (let x = 165; x < box.width - 4; x += 6) {
    await canvas.hover({ position: { x, y } });
    const text = (await tl.locator('.status').first().textContent()) ?? '';
    if (text.startsWith(`Record ${r}/`)) {
      await canvas.click({ position: { x, y } });
      return;
    }
  }
  throw new Error(`record ${r} not found on lane ${lane}`);
}

/**
 * Waits until the timeline's details pane heads with `text`. On a timeout the error says what the
 * pane, the hover line and the editor tabs showed instead, so a CI failure says which view lagged.
 */
async function detailsShow(vs: VsCode, text: string): Promise<void> {
  const tl = vs.timeline();
  try {
    await tl.locator('section.details').getByText(text, { exact: false }).waitFor({ timeout: 20_000 });
  } catch (err) {
    const read = (p: Promise<string | null>) => p.then((t) => (t ?? '').replace(/\s+/g, ' ').slice(0, 300), (e: Error) => `(unreadable: ${e.message.split('\n')[0]})`);
    const shown = await read(tl.locator('section.details').first().textContent({ timeout: 2_000 }));
    const hover = await read(tl.locator('.status').first().textContent({ timeout: 2_000 }));
    const tabs = await vs.page.locator('.tabs-container .tab').allTextContents();
    const frames = await vs.page.locator('iframe.webview').count();
    throw new Error(`the details pane does not show "${text}": it shows "${shown}"; hover line "${hover}"; tabs ${JSON.stringify(tabs)}; ${frames} webview frames\n${String(err)}`);
  }
}

test('timeline clicks, the debug toolbar, variables and nothing stale at the panic', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'workbench-trace' }, async (vs) => {
    const { page } = vs;
    await openTimeline(vs, 'crash.mflrr');
    await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 60_000 });
    // Lanes: main first, then by id (the trace names 0.1 and 0.2 before 0).
    const lanes = await vs.timeline().locator('ul[aria-label="Goroutines"] li').allTextContents();
    assert.deepEqual(lanes.map((l) => l.split(':')[0]), ['0 main', '0.1 worker', '0.2 worker']);

    // 3. A click with no session: the record is selected and shown; no session, no new group.
    const groupsBefore = await page.locator('.editor-group-container').count();
    await clickRecord(vs, 0, 1);
    const details = vs.timeline().locator('section.details');
    await detailsShow(vs, 'Record 0/4 · op 0/4 · 0.1 worker');
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('.debug-toolbar').isVisible(), false, 'a click started a debug session');
    assert.equal(await page.locator('.editor-group-container').count(), groupsBefore, 'a click moved the timeline to another group');
    await vs.shot('click-selects');

    // The explicit action debugs from there.
    await details.locator('vscode-button[data-command="debugFromHere"]').click();
    const status = page.locator('.statusbar');
    await status.getByText('op 0/4 · goroutine 0.1 worker').waitFor({ timeout: 90_000 });
    await page.locator('.debug-toolbar').waitFor({ timeout: 30_000 });

    // 2. The toolbar: forward, then the five reverse buttons, then Restart and Stop.
    const buttons = await toolbar(page);
    const labels = buttons.map(([l]) => l);
    assert.deepEqual(labels.slice(1), [
      'Step Over', 'Step Into', 'Step Out', 'Reverse Continue', 'Step Back', 'Step Back Into', 'Step Back Out', 'Run Back to Cursor', 'Restart', 'Stop',
    ], labels.join(' | '));
    assert.match(labels[0], /^(Continue|Pause)$/);
    // Own icons: no reverse button draws a forward one.
    // (The toolbar can be drawn a moment before its items get their icon classes: read them once they have.)
    const readIcons = () => page.locator('.debug-toolbar .action-item .action-label').evaluateAll((els) => els.map((e) => `${e.className} ${getComputedStyle(e).backgroundImage}`));
    let icons = await readIcons();
    for (let waited = 0; waited < 10_000 && !/step-back-into/.test(icons[6] ?? ''); waited += 250) {
      await page.waitForTimeout(250);
      icons = await readIcons();
    }
    for (const i of [6, 7, 8]) assert.doesNotMatch(icons[i], /codicon-debug-step-(into|out)|codicon-debug-reverse-continue/, `button ${labels[i]}: ${icons[i]}`);
    assert.match(icons[6], /step-back-into/);
    assert.match(icons[7], /step-back-out/);
    assert.match(icons[8], /run-back-to-cursor/);
    assert.match(icons[4], /codicon-debug-reverse-continue/);
    await vs.shot('toolbar-at-op-0');

    // With a session running a click moves it, and the layout stays.
    const groupsInSession = await page.locator('.editor-group-container').count();
    await clickRecord(vs, 3, 0);
    await status.getByText('op 3/4 · goroutine 0 main').waitFor({ timeout: 30_000 });
    await detailsShow(vs, 'Record 3/4 · op 3/4 · 0 main');
    assert.equal(await page.locator('.editor-group-container').count(), groupsInSession);

    // Back to the start: the reverse buttons are disabled there, not hidden.
    await page.locator('.debug-toolbar [aria-label="Reverse Continue"]').click();
    await status.getByText('start · 0/4 ops done').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const atStart = new Map(await toolbar(page));
    for (const l of ['Reverse Continue', 'Step Back', 'Step Back Into', 'Step Back Out', 'Run Back to Cursor']) {
      assert.equal(atStart.get(l), true, `${l} at the start: ${JSON.stringify([...atStart])}`);
    }
    assert.equal(atStart.get('Step Over'), false);
    await vs.shot('toolbar-at-start');
    await page.locator('.debug-toolbar [aria-label^="Stop"]').click();
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });

    // 1. Replay to Panic: the program's values first, expanded; the record after, collapsed.
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    await status.getByText('op 3/4 · goroutine 0 main').waitFor({ timeout: 90_000 });
    const callStack = page.locator('.debug-call-stack');
    // The panicking goroutine's state says the panic (VS Code shows the stop's description).
    const panicState = callStack.getByText(/panic: index out of range/i);
    await panicState.first().waitFor({ timeout: 30_000 });
    const vars = page.locator('.debug-variables');
    await vars.locator('.monaco-list-row', { hasText: 'idx' }).first().waitFor({ timeout: 30_000 });
    const rows = (await vars.locator('.monaco-list-row').allTextContents()).map((t) => t.trim());
    assert.match(rows[0], /^Program \(goroutine 0 main\)/, rows.join(' | '));
    const recordRow = rows.findIndex((r) => r.startsWith('Record'));
    assert.ok(recordRow > 0, rows.join(' | '));
    assert.deepEqual(rows.slice(1, recordRow).map((r) => r.replace(/\s+/g, '')).filter((r) => !r.startsWith('(')), ['idx=12', 'a=5', 'b=7'], rows.join(' | '));
    assert.equal(await vars.locator('.monaco-list-row', { hasText: 'Record' }).first().getAttribute('aria-expanded'), 'false');
    await vs.shot('variables-at-panic');

    // 4. Continue at the panic: the run ends there; no second stop at the same op.
    await page.locator('.debug-toolbar [aria-label^="Continue"]').click();
    await page.locator('.notifications-toasts').getByText('The run ends here', { exact: false }).first().waitFor({ timeout: 20_000 });
    await status.getByText('op 3/4 · goroutine 0 main').waitFor({ timeout: 5_000 });
    assert.equal(await panicState.count(), 1);
    await vs.shot('continue-at-panic');

    // Step Back (by statement, issue 14: line 12, then 11, then 10, the receive of op 3, so the
    // cursor is before that op): no thread still says "Paused on exception"; status, Call Stack
    // and details agree.
    const frameAt = (line: number) => callStack.locator('.monaco-list-row', { hasText: new RegExp(`^\\s*main\\s*crash\\.mfl\\s*${line}:5`) }).first();
    await page.locator('.debug-toolbar [aria-label="Step Back"]').click();
    await frameAt(11).waitFor({ timeout: 30_000 });
    await page.locator('.debug-toolbar [aria-label="Step Back"]').click();
    await frameAt(10).waitFor({ timeout: 30_000 });
    await status.getByText('op 2/4 · goroutine 0 main').waitFor({ timeout: 30_000 });
    await callStack.getByText('op 2/4', { exact: false }).first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(800);
    // No thread keeps the panic's state (or "Paused on exception") once the cursor left it.
    assert.equal(await callStack.getByText(/panic|exception/i).count(), 0, (await callStack.allTextContents()).join(' | '));
    await detailsShow(vs, 'Record 2/4 · op 2/4 · 0 main');
    await vs.shot('stepped-back-from-panic');
    // Step Back Into: the statement before, `idx = idx + a` (line 9), at the same op.
    await page.locator('.debug-toolbar [aria-label^="Step Back Into"]').click();
    await frameAt(9).waitFor({ timeout: 30_000 });
    await status.getByText('op 2/4 · goroutine 0 main').waitFor({ timeout: 30_000 });
    assert.equal(await callStack.getByText(/panic|exception/i).count(), 0, (await callStack.allTextContents()).join(' | '));
    await vs.shot('stepped-back-into');
  });
});

test('the verdict in the header, Open as Text read-only, a lens per block, F5 without launch.json', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'workbench-text' }, async (vs) => {
    const { page } = vs;
    // 5. The verify verdict and the boundary sit in the header.
    await openTimeline(vs, 'pipeline.mflrr');
    const verdict = vs.timeline().locator('[aria-label="Verify verdict"]');
    await verdict.waitFor({ timeout: 60_000 });
    assert.match((await verdict.textContent()) ?? '', /verify: FAITHFUL · 21\/21 ops replayed, no I\/O underrun, boundary faithful/);
    await vs.shot('verdict-in-header');

    // 10. F5 on the timeline, no launch.json: a replay, no debugger picker.
    await openTimeline(vs, 'crash.mflrr');
    await vs.timeline().getByText(PANIC).first().waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab.active').click();
    await page.keyboard.press('F5');
    const status = page.locator('.statusbar');
    await status.getByText('op 3/4 · goroutine 0 main').waitFor({ timeout: 90_000 });
    assert.equal(await page.locator('.quick-input-widget').isVisible(), false, 'F5 showed a picker');
    await vs.shot('f5-replayed');
    await page.locator('.debug-toolbar [aria-label^="Stop"]').click();
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });

    // 7. Open as Text: read-only, typing changes nothing, the file on disk stays as it was.
    const file = join(vs.workspace, 'crash.mflrr');
    const before = readFileSync(file, 'utf8');
    await vs.openFile('crash.mflrr');
    await vs.timeline().locator('vscode-button[data-command="openAsText"]').click();
    // The active group's text editor (the replay's served copy may still be open in another).
    const editor = page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').getByText('boundary faithful').waitFor({ timeout: 30_000 });
    // 10. One "Replay to here" lens per goroutine block: 0.1, 0.2, then 0 (its two ops).
    const lenses = editor.locator('.codelens-decoration a', { hasText: 'Replay to here' });
    await lenses.first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    assert.deepEqual((await lenses.allTextContents()).map((t) => t.replace(/^Replay to here \(|\)$/g, '')), ['op 0 · 0.1', 'op 1 · 0.2', 'op 2 · 0']);
    await editor.locator('.view-lines').getByText('S 0.2').click();
    await page.keyboard.type('oops 123');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1500);
    assert.equal(readFileSync(file, 'utf8'), before, 'the trace changed on disk');
    assert.equal(await editor.locator('.view-lines').getByText('oops 123').count(), 0, 'typing changed the trace');
    assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'the text editor is dirty');
    await page.locator('.monaco-editor-overlaymessage, .monaco-hover').getByText('read-only', { exact: false }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    await vs.shot('text-read-only');
  });
});
