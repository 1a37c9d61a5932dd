// The timeline of a trace with 250,000 goroutines (issue 19, point 12), in Chromium as the other
// webview tests: read by the engine, sent as the host sends it. What a user would notice: the view
// shows at all, a goroutine is found by its id and its records are drawn on its lane, the page
// keeps a few hundred DOM nodes (lanes are virtual), the lanes scroll, and the debug cursor's
// goroutine stays on screen when a filter would hide it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { readRecording } from '../../replay-engine/open';
import type { Recording } from '../../replay-engine/model/recording';
import { timelineModel } from '../../extension/view-models/timeline-model';
import type { TimelineModel } from '../../webview-ui/protocol';
import { launch, openView, REPO } from './harness/browser';
import { canvasBox, differs, frames, pixelAt, recordPoint, savedView, waitForSaved, type Pixel } from './harness/canvas';
import { postToView, timelineHost } from './harness/host-stand-in';

/** Workers 0.1.1 .. 0.1.WORKERS, spawned by 0.1, spawned by main: 250,000 goroutines. */
const WORKERS = 249_998;
const dir = mkdtempSync(join(tmpdir(), 'frozen-run-many-'));
let browser: Browser;
let recording: Recording;
let model: TimelineModel;

before(async () => {
  // Every worker runs twice, once in each half of the trace: worker k's records are 2 + k and
  // 2 + WORKERS + k (plus an I/O read before some of them).
  const lines = ['MFLRR 1', 'boundary faithful', 'program /home/ci/app/server.mfl', 'safe 1', 'S 0', 'S 0.1'];
  for (let round = 0; round < 2; round++) for (let k = 1; k <= WORKERS; k++) lines.push(`S 0.1.${k}`);
  const file = join(dir, 'server.mflrr');
  writeFileSync(file, lines.join('\n') + '\n');
  recording = await readRecording(file);
  model = timelineModel(recording);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const BG: Pixel = [0x1f, 0x1f, 0x1f];

async function laneNames(page: Page): Promise<string[]> {
  return (await page.locator('ul[aria-label="Goroutines"] li').allTextContents()).map((l) => l.split(':')[0]);
}

async function nodeCount(page: Page): Promise<number> {
  return page.evaluate(() => document.getElementsByTagName('*').length);
}

describe('timeline webview, 250,000 goroutines', () => {
  it('shows, finds a goroutine by id and draws it, keeps the DOM small, scrolls, and keeps the cursor goroutine in view', async () => {
    assert.equal(model.threads.length, WORKERS + 2);
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), width: 1200, height: 760 });
    await v.page.waitForSelector('canvas', { timeout: 60_000 });
    await frames(v.page);
    const count = v.page.locator('#lane-count');
    assert.match((await count.textContent()) ?? '', /^250,000 goroutines; 1–\d+ in view$/);
    assert.match((await v.page.locator('canvas').getAttribute('aria-label')) ?? '', /250000 goroutines/);
    // Only the lanes in view are listed, top first: main, its child, then the workers by number.
    const top = await laneNames(v.page);
    assert.ok(top.length >= 5 && top.length <= 60, `${top.length} lanes listed`);
    assert.deepEqual(top.slice(0, 4), ['0', '0.1', '0.1.1', '0.1.2']);
    const nodes = await nodeCount(v.page);
    assert.ok(nodes < 400, `${nodes} DOM nodes for 250,000 goroutines`);

    // Find a goroutine by id: type it, Enter selects its first record and shows its lane first.
    const k = 123_456;
    const id = `0.1.${k}`;
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('/');
    assert.equal(await v.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Find goroutine');
    await v.page.keyboard.type(id);
    await v.page.keyboard.press('Enter');
    const first = 2 + (k - 1);
    const second = 2 + WORKERS + (k - 1);
    assert.equal(recording.timeline.threads[recording.timeline.thread[first]].id, id);
    await v.page.waitForFunction((r) => document.querySelector('[aria-live]')?.textContent?.startsWith(`Record ${r}/`), first);
    assert.match((await v.page.locator('[aria-live]').textContent()) ?? '', new RegExp(`· ${id.replace(/\./g, '\\.')} · sched`));
    assert.equal(await v.page.evaluate(() => document.activeElement?.tagName), 'CANVAS');
    assert.match((await count.textContent()) ?? '', new RegExp(`^1 of 250,000 goroutines match ${id.replace(/\./g, '\\.')}; 1–1 in view$`));
    assert.deepEqual(await laneNames(v.page), [id]);
    // Its other record, far from the selection, is drawn on its lane (row 0 now) and nowhere below.
    const view = await waitForSaved(v.page, (s) => s.selected === first, 'the found record is selected');
    await frames(v.page);
    const at = recordPoint(view, second, 0);
    const drawn = await pixelAt(v.page, at.x, at.y - 4);
    assert.ok(differs(drawn, BG), `record ${second} of ${id} at (${at.x}, ${at.y}): ${drawn}`);
    const below = await pixelAt(v.page, at.x, recordPoint(view, second, 2).y - 4);
    assert.ok(!differs(below, BG, 12), `no lane below the only match: ${below}`);
    // A parent path shows the goroutine and all it spawned: 0.1.* is every worker and 0.1.
    await v.page.keyboard.press('/');
    await v.page.keyboard.type('0.1.*');
    await v.page.waitForFunction(() => /^249,999 of 250,000 goroutines match 0\.1\.\*/.test(document.getElementById('lane-count')?.textContent ?? ''));
    assert.deepEqual((await laneNames(v.page)).slice(0, 3), ['0.1', '0.1.1', '0.1.2']);

    await v.page.screenshot({ path: join(REPO, 'test-results', 'webview-timeline-many-goroutines.png') });

    // The debug session moves to a goroutine the filter hides: its lane is kept in view.
    await v.page.locator('.lane-find-input').fill(id);
    await v.page.waitForFunction(() => /^1 of 250,000/.test(document.getElementById('lane-count')?.textContent ?? ''));
    const elsewhere = 2 + WORKERS + 200_000 - 1; // worker 200,000's second op
    const position = recording.timeline.positionOf(elsewhere);
    await postToView(v.page, { type: 'cursor', position, thread: recording.timeline.thread[elsewhere], record: elsewhere });
    await v.page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Goroutines"] li').length === 2);
    assert.deepEqual(await laneNames(v.page), [id, '0.1.200000']);
    await v.page.waitForFunction((r) => document.querySelector('[aria-live]')?.textContent?.startsWith(`Record ${r}/`), elsewhere);

    // Escape shows every lane again, around the selection; the lanes scroll with the wheel over
    // their names, and the list follows (still only the lanes in view).
    await v.page.locator('.lane-find-input').focus();
    await v.page.keyboard.press('Escape');
    await v.page.waitForFunction(() => /^250,000 goroutines; /.test(document.getElementById('lane-count')?.textContent ?? ''));
    const around = await laneNames(v.page);
    assert.ok(around.includes('0.1.200000'), `the selected goroutine's lane is in view: ${around.slice(0, 3)}…`);
    const box = await canvasBox(v.page);
    const before = (await savedView(v.page))!.scrollY;
    await v.page.mouse.move(box.x + 60, box.y + 200);
    for (let i = 0; i < 5; i++) await v.page.mouse.wheel(0, 2400);
    const scrolled = await waitForSaved(v.page, (s) => s.scrollY >= before + 5 * 2400 - 1, 'the lanes scrolled by 12,000 px');
    await frames(v.page);
    const firstRow = Math.floor(scrolled.scrollY / 24);
    const after = await laneNames(v.page);
    assert.equal(after[0], model.threads[firstRow].id, 'the list starts at the first lane on screen');
    assert.ok(after.length <= 60);
    assert.ok((await nodeCount(v.page)) < 400);
    // ↓ at the last lane on screen moves to the next lane and scrolls to it.
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('ArrowDown');
    assert.match((await v.page.locator('[aria-live]').textContent()) ?? '', /^Record \d+\/\d+ · op \d+\/\d+ · 0\.1\.\d+ · sched/);
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });
});
