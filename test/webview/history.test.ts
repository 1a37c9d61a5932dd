// The variable history panel bundle in Chromium (host-like page and CSP), fed with histories the
// engine parsed from the fixtures' real `machin replay --print` output.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launch, openView, REPO } from './harness/browser';
import { hostileRecording, machinFixture, XSS_IMG } from './harness/fixtures';
import { fixtureHistories, historiesFromProbes, historyHost } from './harness/history-from-recording';
import { postToView } from './harness/host-stand-in';
import { openRecording } from '../../replay-engine/open';
import type { Recording } from '../../replay-engine/model/recording';
import { historyModel, historyVariables } from '../../extension/view-models/history-model';
import { packHistory, PROTOCOL_VERSION } from '../../webview-ui/protocol';
import { machinPath, recordProgram } from '../support/machin';
import { REORDER } from '../support/programs';
import { tempDir } from '../machin/support';

const SHOTS = join(REPO, 'test-results');
let browser: Browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
});
after(async () => browser?.close());

async function typeName(page: Page, name: string): Promise<void> {
  await page.locator('#variable-name').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
}

async function rows(page: Page): Promise<string[][]> {
  return page.locator('.table-rows [role=row]').evaluateAll((els) =>
    els.map((r) => Array.from(r.querySelectorAll('[role=gridcell]'), (c) => c.textContent ?? '')),
  );
}

describe('variable history panel', () => {
  it('lists the watched names, shows every value with op and thread, a chart for numbers, and goes to a clicked row', async () => {
    const recording = await machinFixture('gopanic');
    const histories = fixtureHistories('gopanic', recording);
    const v = await openView(browser, 'history', { host: historyHost(recording, histories) });
    await v.page.waitForSelector('vscode-single-select');
    const options = await v.page.locator('vscode-option').allTextContents();
    assert.deepEqual(options.slice(1), ['x', 'q', 'a', 'b']);

    await typeName(v.page, 'x');
    assert.deepEqual(await v.waitForSent('pickVariable'), { type: 'pickVariable', name: 'x' });
    await v.page.waitForSelector('.table-rows [role=row]');
    // x is set once on 0.1 (position 3: when the cursor is on op 2, as the status bar numbers
    // it) and once on 0.2 (position 6, op 5): names are per goroutine.
    assert.deepEqual(await rows(v.page), [
      ['2', '0.1', '1'],
      ['5', '0.2', '2'],
    ]);
    assert.equal(await v.page.locator('.value-chart canvas').count(), 1);
    assert.match((await v.page.locator('.summary').textContent()) ?? '', /x took 2 values on 2 threads/);

    await v.page.locator('.table-rows [role=row]').nth(1).click();
    assert.deepEqual(await v.waitForSent('goto'), { type: 'goto', position: 6 });
    // Clicking the chart near its start goes to the value in effect there (op 3).
    const chart = (await v.page.locator('.value-chart canvas').boundingBox())!;
    await v.page.mouse.click(chart.x + 60, chart.y + chart.height / 2);
    assert.deepEqual(await v.waitForSent('goto', (m) => m.position === 3), { type: 'goto', position: 3 });

    await postToView(v.page, { type: 'cursor', position: 4, thread: 0 });
    await v.page.waitForSelector('[aria-current=true]');
    assert.deepEqual(await v.page.locator('[aria-current=true] [role=gridcell]').allTextContents(), ['2', '0.1', '1']);
    await postToView(v.page, { type: 'cursor', position: 6, thread: 2 });
    await v.page.waitForFunction(() => document.querySelector('[aria-current=true] [role=gridcell]')?.textContent === '5');
    await v.page.screenshot({ path: join(SHOTS, 'webview-history-dark.png') });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows text values without a chart, keyboard moves and Enter goes to, state survives a reload', async () => {
    const recording = await machinFixture('flaky');
    const histories = fixtureHistories('flaky', recording);
    const v = await openView(browser, 'history', { host: historyHost(recording, histories), theme: 'light' });
    await v.page.waitForSelector('vscode-single-select');
    await typeName(v.page, 'order');
    await v.page.waitForSelector('.table-rows [role=row]');
    const expected = histories.entries('order');
    const shown = await rows(v.page);
    assert.equal(shown.length, expected.length);
    assert.deepEqual(shown.map((r) => r[2]), expected.map((e) => (e.value === '' ? '(empty)' : e.value)));
    assert.deepEqual(shown.map((r) => r[0]), expected.map((e) => (e.position === 0 ? 'start' : String(e.position - 1))));
    assert.equal(await v.page.locator('.value-chart').count(), 0);
    assert.match((await v.page.locator('.summary').textContent()) ?? '', /not all numbers: no chart/);

    await v.page.locator('.value-table').focus();
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    assert.deepEqual(await v.waitForSent('goto'), { type: 'goto', position: expected[1].position });
    assert.match((await v.page.locator('[aria-live]').textContent()) ?? '', new RegExp(`${expected[1].position === 0 ? 'start' : `op ${expected[1].position - 1}`}, 0: `));
    await v.page.screenshot({ path: join(SHOTS, 'webview-history-light.png') });

    await v.page.reload();
    await v.page.waitForSelector('.table-rows [role=row]');
    assert.ok((await v.sent()).some((m) => m.type === 'pickVariable' && m.name === 'order'), 'the panel asked for the variable it showed before the reload');
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows a value holding markup as text, and says when a variable never took a value', async () => {
    const recording = await hostileRecording();
    const histories = historiesFromProbes(recording, `probe 0 s = ${XSS_IMG} @op1\nprobe 0 s = <script>window.__xss=2</script> @op2\n`, ['s', 'never']);
    const v = await openView(browser, 'history', { host: historyHost(recording, histories) });
    await v.page.waitForSelector('vscode-single-select');
    await typeName(v.page, 's');
    await v.page.waitForSelector('.table-rows [role=row]');
    assert.deepEqual((await rows(v.page)).map((r) => r[2]), [XSS_IMG, '<script>window.__xss=2</script>']);
    const dom = await v.page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      imgs: document.querySelectorAll('img').length,
      scripts: Array.from(document.querySelectorAll('script')).filter((s) => !s.nonce).length,
    }));
    assert.deepEqual(dom, { xss: undefined, imgs: 0, scripts: 0 });
    await typeName(v.page, 'never');
    await v.page.waitForFunction(() => document.querySelector('.summary')?.textContent?.includes('never took a value'));
    await postToView(v.page, { type: 'error', message: 'The replay that records values failed: machin not found on PATH.' });
    assert.match((await v.page.locator('[role=alert]').textContent()) ?? '', /machin not found/);
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });
});

/** The host at source level, as extension/history-panel.ts answers: the picker's keys, each key's rows. */
function sourceHistoryHost(recording: Recording) {
  const vars = historyVariables(recording, recording.histories!);
  return async (m: Record<string, unknown>, page: Page): Promise<void> => {
    if (m.type === 'ready') await postToView(page, { type: 'names', version: PROTOCOL_VERSION, names: vars.names });
    if (m.type === 'pickVariable' && typeof m.name === 'string') {
      const b64 = Buffer.from(packHistory(historyModel(recording, recording.histories!, m.name, vars))).toString('base64');
      await page.evaluate((data) => (window as unknown as { harness: { postHistoryBase64(b: string): void } }).harness.postHistoryBase64(data), b64);
    }
  };
}

describe('variable history panel at source level (issue 29)', () => {
  it('lists each function\'s variable apart, one row per store with its statement; a click names the row; the cursor is by statement', async () => {
    const dir = tempDir('history-source-');
    const r = recordProgram(dir, 'reorder', REORDER);
    const recording = await openRecording(r.trace, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
    const v = await openView(browser, 'history', { host: sourceHistoryHost(recording) });
    await v.page.waitForSelector('vscode-single-select');
    const options = (await v.page.locator('vscode-option').allTextContents()).slice(1);
    for (const k of ['collector.base', 'place.base', 'slot.base']) assert.ok(options.includes(k), options.join(', '));
    assert.ok(!options.includes('base'), options.join(', '));
    await typeName(v.page, 'collector.base');
    await v.page.waitForSelector('.table-rows [role=row]');
    assert.deepEqual(await v.page.locator('.table-head [role=columnheader]').allTextContents(), ['statement', 'thread', 'value']);
    const shown = await rows(v.page);
    assert.deepEqual(shown.map((x) => [x[0], x[2]]), [['reorder.mfl:13:5', '0'], ['reorder.mfl:19:13', '1'], ['reorder.mfl:19:13', '2'], ['reorder.mfl:19:13', '3'], ['reorder.mfl:19:13', '4']]);
    assert.ok(shown.every((x) => x[1] === '0.2 collector'), JSON.stringify(shown));
    assert.match((await v.page.locator('.summary').textContent()) ?? '', /collector\.base took 5 values on 1 thread, each stored by a statement of collector/);
    // The chart's x axis in words users know: the n-th store and the op the status bar shows then,
    // never a statement's seq (`statement 13` reads like a line number). Ops are 0..N-1.
    const ops = readFileSync(r.trace, 'utf8').split('\n').filter((l) => l.startsWith('S ')).length;
    const chart = (await v.page.locator('.value-chart canvas').getAttribute('aria-label')) ?? '';
    const axis = /, over store 1 · (start|op \d+) to store 5 · op (\d+)$/.exec(chart);
    assert.ok(axis, chart);
    assert.ok(Number(axis[2]) < ops, chart);
    assert.doesNotMatch(chart, /statement/);
    // A click names the row; the host turns it into the statement to stand just after.
    await v.page.locator('.table-rows [role=row]').nth(2).click();
    const sent = await v.waitForSent('goto');
    assert.equal(sent.row, 2);
    // The cursor by statement: standing on the store of base = 2 it is not in yet (row 1 current),
    // one statement later it is (row 2).
    const model = historyModel(recording, recording.histories!, 'collector.base', historyVariables(recording, recording.histories!));
    const seq = model.stores!.seq[2];
    await postToView(v.page, { type: 'cursor', position: 7, thread: 2, seq });
    await v.page.waitForFunction(() => document.querySelector('[aria-current=true] [role=gridcell]:last-child')?.textContent === '1');
    await postToView(v.page, { type: 'cursor', position: 7, thread: 2, seq: seq + 1 });
    await v.page.waitForFunction(() => document.querySelector('[aria-current=true] [role=gridcell]:last-child')?.textContent === '2');
    // place's parameter `base` is a variable of its own, stored at place's entry on every call.
    await typeName(v.page, 'place.base');
    await v.page.waitForFunction(() => document.querySelector('.summary strong')?.textContent === 'place.base');
    assert.deepEqual((await rows(v.page)).map((x) => x[0]), Array(5).fill('reorder.mfl:2:1'));
    await typeName(v.page, 'collector.base');
    await v.page.waitForFunction(() => document.querySelector('.summary strong')?.textContent === 'collector.base');
    await v.page.screenshot({ path: join(SHOTS, 'webview-history-source-level.png') });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });
});
