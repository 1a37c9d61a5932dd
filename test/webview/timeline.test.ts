// The timeline webview bundle in Chromium, in a page built like the host's (same CSP, nonce'd
// scripts), fed through the real protocol with models derived from real fixtures by the engine.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { PROTOCOL_VERSION } from '../../webview-ui/protocol';
import { launch, openView, REPO } from './harness/browser';
import { canvasBox, differs, fitAllView, frames, pixelAt, recordPoint, savedView, waitForSaved, type Pixel } from './harness/canvas';
import { hostileRecording, machinFixture, machinPanic, tinFixture, XSS_IMG } from './harness/fixtures';
import { postModel, postToView, timelineHost } from './harness/host-stand-in';
import { timelineModel } from '../../extension/view-models/timeline-model';
import { syntheticModel } from './harness/synthetic-model';
import { bankRecording } from './harness/source-level';

const SHOTS = join(REPO, 'test-results');
const DARK_BLUE: Pixel = [0x37, 0x94, 0xff]; // --vscode-charts-blue in the harness dark theme
const DARK_CURSOR: Pixel = [0xff, 0xcc, 0x00];

let browser: Browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
});
after(async () => browser?.close());

async function crash() {
  const recording = await machinFixture('crash');
  // machin's panic as the host has it (the host's builder maps its goroutine to its lane).
  recording.panic = machinPanic('crash', recording);
  return { recording, model: timelineModel(recording) };
}

describe('timeline webview', () => {
  it('draws one lane per goroutine with its label, each record in its own lane', async () => {
    const recording = await machinFixture('pipeline');
    const model = timelineModel(recording);
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), width: 900 });
    await v.page.waitForSelector('canvas');
    const labels = await v.page.locator('ul[aria-label="Goroutines"] li').allTextContents();
    // The lanes in the order the host sends them (main first, then by id).
    assert.deepEqual(
      labels.map((l) => l.split(':')[0]),
      model.threads.map((t) => t.id),
    );
    assert.deepEqual([...model.threads.map((t) => t.id)].sort(), recording.timeline.threads.map((t) => t.id).sort());
    await frames(v.page);
    const box = await canvasBox(v.page);
    const view = fitAllView(model.recordCount, box.width);
    const t = recording.timeline;
    for (let r = 0; r < t.recordCount; r++) {
      for (let lane = 0; lane < t.threads.length; lane++) {
        const p = recordPoint(view, r, lane);
        const px = await pixelAt(v.page, p.x, p.y);
        const drawn = !differs(px, DARK_BLUE, 40);
        assert.equal(drawn, model.recordThread[r] === lane, `record ${r} (lane ${model.recordThread[r]}) at lane ${lane}: pixel ${px}`);
      }
    }
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows the header facts and the panic; a click shows the record decoded and moves only a running session', async () => {
    const { recording, model } = await crash();
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    const facts = await v.page.locator('dl.facts').textContent();
    assert.match(facts ?? '', /crash\.mflrr/);
    assert.match(facts ?? '', /\/home\/ci\/app\/crash\.mfl/);
    assert.match(facts ?? '', /yes \(--safe\)/);
    assert.match((await v.page.locator('.panic-line').textContent()) ?? '', /panic: index out of range \[12\] with length 2 +\(goroutine 0, after 4\/4 ops\)/);
    assert.match((await v.page.locator('ul[aria-label="Goroutines"] li').nth(model.panic!.thread).textContent()) ?? '', /panicked/);

    const box = await canvasBox(v.page);
    const view = fitAllView(model.recordCount, box.width);
    const p = recordPoint(view, 2, model.recordThread[2]);
    await v.page.mouse.click(box.x + p.x, box.y + p.y);
    // No session runs (no cursor): the click selects and shows the record, and starts nothing.
    assert.deepEqual(await v.waitForSent('requestDetails'), { type: 'requestDetails', record: 2 });
    await v.page.waitForSelector('.details .record-summary');
    assert.equal(await v.page.locator('.details .record-summary').textContent(), recording.describe(2).summary);
    assert.match((await v.page.locator('.details').textContent()) ?? '', /op 2\/4, goroutine 0/);
    assert.match((await v.page.locator('[aria-live]').textContent()) ?? '', /Record 2\/4 · op 2\/4 · 0 · sched/);
    assert.deepEqual((await v.sent()).filter((m) => m.type === 'goto'), []);
    // The explicit action debugs from there.
    await v.page.locator('.details vscode-button[data-command="debugFromHere"]').click();
    assert.deepEqual(await v.waitForSent('goto'), { type: 'goto', position: 3, record: 2 });
    // With a session running, a click moves it; the details follow the debug cursor.
    await postToView(v.page, { type: 'cursor', position: 1, thread: 0, record: 0 });
    assert.deepEqual(await v.waitForSent('requestDetails', (m) => m.record === 0), { type: 'requestDetails', record: 0 });
    await v.page.mouse.click(box.x + p.x, box.y + p.y);
    await v.page.waitForFunction(() => (window as unknown as { harness: { sent: Array<{ type: string }> } }).harness.sent.filter((m) => m.type === 'goto').length === 2);
    assert.deepEqual((await v.sent()).filter((m) => m.type === 'goto')[1], { type: 'goto', position: 3, record: 2 });

    // A session back at the start: the details say so as the status bar does, not the old selection (issue 29).
    await postToView(v.page, { type: 'cursor', position: 0, thread: 0, record: -1, atStart: true });
    await v.page.waitForFunction(() => document.querySelector('.details h2')?.textContent === 'start · 0/4 ops done');
    await postToView(v.page, { type: 'cursor', position: 0, thread: 0, record: -1, atStart: false });
    await v.page.waitForFunction(() => document.querySelector('.details h2')?.textContent === 'before op 0/4');

    await v.page.getByText('Replay to Panic').click();
    assert.deepEqual(await v.waitForSent('command'), { type: 'command', id: 'replayToPanic' });
    await v.page.screenshot({ path: join(SHOTS, 'webview-timeline-dark.png') });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('at source level names the statement of each op on the canvas, on hover and in the details; Open in program posts its line and column', async () => {
    // Recorded here with the real machin and opened as the extension opens it (statements ready).
    const bank = await bankRecording();
    try {
      const { recording } = bank;
      const model = timelineModel(recording);
      const p = model.program!;
      // main's first receive: `v := <-ch` at bank.mfl:17:9.
      const k = p.stepOp.findIndex((o) => p.opWords[o] === 'recv');
      const r = model.stepRecord[k];
      assert.equal(`${p.stepLine[k]}:${p.stepColumn[k]}`, '17:9');
      const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), width: 2400 });
      await v.page.waitForSelector('canvas');
      // Record labels drawn on the canvas (records are wide enough at this size): spy on fillText.
      await v.page.evaluate(() => {
        const w = window as unknown as { drawn: string[] };
        w.drawn = [];
        const fill = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, max?: number) {
          w.drawn.push(text);
          return max === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, max);
        };
      });
      await v.page.locator('canvas').focus();
      await v.page.keyboard.press('0'); // the whole recording, redrawn
      await v.page.waitForFunction(() => (window as unknown as { drawn: string[] }).drawn.includes('op 0'));
      const drawn = await v.page.evaluate(() => (window as unknown as { drawn: string[] }).drawn);
      for (const label of ['recv · bank.mfl:17', 'send · bank.mfl:4', 'close · bank.mfl:7', 'select · bank.mfl:21', 'println · bank.mfl:22']) {
        assert.ok(drawn.includes(label), `the canvas shows ${label}: ${JSON.stringify(drawn)}`);
      }
      // Narrower records: the file name (the same for every op) goes first.
      await v.page.evaluate(() => ((window as unknown as { drawn: string[] }).drawn = []));
      await v.page.setViewportSize({ width: 1300, height: 760 });
      await v.page.keyboard.press('0');
      await frames(v.page);
      const narrow = await v.page.evaluate(() => (window as unknown as { drawn: string[] }).drawn);
      assert.ok(narrow.includes('recv :17') && narrow.includes('select :21'), JSON.stringify(narrow));
      await frames(v.page);
      const box = await canvasBox(v.page);
      const view = fitAllView(model.recordCount, box.width);
      const at = recordPoint(view, r, model.recordThread[r]);
      await v.page.mouse.move(box.x + at.x, box.y + at.y);
      // Hover: the status line under the canvas.
      assert.match((await v.page.locator('.status').textContent()) ?? '', new RegExp(`^Record ${r}/${model.recordCount} · op ${k}/${model.stepRecord.length} · 0 main · recv · bank\\.mfl:17: S 0 · `));
      // Click: the details name the statement and offer to open it.
      await v.page.mouse.click(box.x + at.x, box.y + at.y);
      await v.page.waitForSelector('.details .record-summary');
      assert.match((await v.page.locator('.details h2').textContent()) ?? '', / · 0 main · recv · bank\.mfl:17$/);
      assert.equal(await v.page.locator('.details .record-statement').textContent(), 'recv · bank.mfl:17:9');
      assert.match((await v.page.locator('[aria-live]').textContent()) ?? '', /recv · bank\.mfl:17/);
      const open = v.page.locator('.details vscode-button[data-command="openProgram"]');
      assert.equal((await open.textContent())?.trim(), 'Open in program');
      await open.click();
      assert.deepEqual(await v.waitForSent('openProgram'), { type: 'openProgram', line: 17, column: 9 });
      assert.deepEqual((await v.sent()).filter((m) => m.type === 'goto'), [], 'opening the program starts no session');
      // An I/O-free op whose statement is a print on the same line as the select: its own column.
      const print = p.stepOp.findIndex((o, i) => p.opWords[o] === 'println' && p.stepColumn[i] === 32);
      await v.page.locator('canvas').focus();
      const target = model.stepRecord[print];
      await v.page.mouse.click(box.x + recordPoint(view, target, model.recordThread[target]).x, box.y + recordPoint(view, target, model.recordThread[target]).y);
      await v.page.waitForFunction(() => document.querySelector('.details .record-statement')?.textContent === 'println · bank.mfl:21:32');
      await v.page.locator('.details vscode-button[data-command="openProgram"]').click();
      assert.deepEqual(await v.waitForSent('openProgram', (m) => m.column === 32), { type: 'openProgram', line: 21, column: 32 });
      await v.page.screenshot({ path: join(SHOTS, 'webview-timeline-source-level.png') });
      assert.deepEqual(await v.problems(), []);
      await v.page.context().close();
    } finally {
      bank.dispose();
    }
  });

  it('a record without statements shows no Open in program', async () => {
    const { recording, model } = await crash();
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('Home');
    await v.page.waitForSelector('.details .record-summary');
    assert.equal(await v.page.locator('.details vscode-button[data-command="openProgram"]').count(), 0);
    assert.equal(await v.page.locator('.details vscode-button[data-command="debugFromHere"]').count(), 1);
    await v.page.context().close();
  });

  it('is keyboard accessible: toolbar then canvas in tab order, arrows select, Enter goes to', async () => {
    const { recording, model } = await crash();
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    const buttons = await v.page.locator('vscode-button').count();
    assert.ok(buttons >= 6);
    const order: string[] = [];
    for (let i = 0; i < buttons + 1; i++) {
      await v.page.keyboard.press('Tab');
      order.push(await v.page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? ''));
    }
    assert.deepEqual(order, [...Array(buttons).fill('vscode-button'), 'canvas']);
    assert.match((await v.page.locator('canvas').getAttribute('aria-label')) ?? '', /4 records, 4 schedule ops, 3 goroutines/);

    const live = v.page.locator('[aria-live]');
    // Lanes main first (0, 0.1, 0.2): the first key selects the top lane's first record.
    await v.page.keyboard.press('ArrowRight');
    assert.match((await live.textContent()) ?? '', /^Record 2\/4 · op 2\/4 · 0 · sched/);
    await v.page.keyboard.press('ArrowDown');
    assert.match((await live.textContent()) ?? '', /^Record 0\/4 · op 0\/4 · 0\.1 · sched/);
    await v.page.keyboard.press('ArrowDown');
    assert.match((await live.textContent()) ?? '', /^Record 1\/4 · op 1\/4 · 0\.2/);
    await v.page.keyboard.press('Enter');
    assert.deepEqual(await v.waitForSent('goto'), { type: 'goto', position: 2, record: 1 });
    await v.page.keyboard.press('End');
    assert.match((await live.textContent()) ?? '', /^Record 3\/4 · op 3\/4 · 0 · sched/);
    await v.page.keyboard.press('ArrowLeft');
    assert.match((await live.textContent()) ?? '', /^Record 2\/4/);
    await v.page.keyboard.press('Home');
    assert.match((await live.textContent()) ?? '', /^Record 0\/4/);
    await v.page.keyboard.press('Enter');
    assert.deepEqual(await v.waitForSent('goto', (m) => m.record === 0), { type: 'goto', position: 1, record: 0 });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('zoomed out, draws each lane where its records are and nowhere else (level of detail)', async () => {
    const records = 4_000_000;
    const v = await openView(browser, 'timeline', { width: 1300 });
    await v.page.evaluate((n) => (window as unknown as { harness: { postPatternModel(n: number): void } }).harness.postPatternModel(n), records);
    await v.page.waitForSelector('canvas');
    await frames(v.page);
    const box = await canvasBox(v.page);
    const bg: Pixel = [0x1f, 0x1f, 0x1f];
    const stripe: Pixel = [0x2a, 0x2d, 0x2e];
    const check = async (view: { x0: number; scale: number; scrollY: number }, label: string) => {
      const half = records / 2;
      const span = (box.width - 160 - 14) * view.scale;
      for (const r of [view.x0 + span * 0.1, view.x0 + span * 0.5, view.x0 + span * 0.9]) {
        if (Math.abs(r - half) < 4 * view.scale) continue; // the boundary column holds both
        const lane0 = await pixelAt(v.page, recordPoint(view, r, 0).x, recordPoint(view, r, 0).y - 4);
        const lane1 = await pixelAt(v.page, recordPoint(view, r, 1).x, recordPoint(view, r, 1).y - 4);
        const sparse = Math.round((r - 500) / 1000) * 1000 + 500; // the nearest record of lane 2
        const lane2 = await pixelAt(v.page, recordPoint(view, sparse, 2).x, recordPoint(view, sparse, 2).y - 4);
        assert.equal(differs(lane0, bg), r < half, `${label}: lane 0 at record ${Math.round(r)}: ${lane0}`);
        assert.equal(differs(lane1, stripe), r >= half, `${label}: lane 1 at record ${Math.round(r)}: ${lane1}`);
        assert.ok(differs(lane2, bg), `${label}: the sparse lane's record ${sparse} is visible: ${lane2}`);
      }
    };
    // Whole run: about 3,500 records per pixel, column edges snapped to the index's buckets.
    await check(fitAllView(records, box.width), 'whole run');
    // Zoomed around the middle: ~20 records per pixel, searched within buckets.
    await v.page.locator('canvas').focus();
    for (let i = 0; i < 12; i++) await v.page.keyboard.press('+');
    const zoomed = await waitForSaved(v.page, (s) => s.scale < 30, 'zoomed in');
    await frames(v.page);
    await check(zoomed, 'zoomed');
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('zooms with +/-, the wheel and ctrl+wheel, pans with shift+wheel, and follows the debug cursor', async () => {
    const model = syntheticModel(200_000, 8, false);
    const v = await openView(browser, 'timeline', { host: async (m, page) => (m.type === 'ready' ? postModel(page, model) : undefined) });
    await v.page.waitForSelector('canvas');
    const box = await canvasBox(v.page);
    const fit = fitAllView(model.recordCount, box.width);
    await v.page.locator('canvas').focus();
    for (let i = 0; i < 10; i++) await v.page.keyboard.press('+');
    const expected = fit.scale / Math.pow(1.5, 10);
    const zoomed = await waitForSaved(v.page, (s) => Math.abs(s.scale - expected) < 1e-6 * fit.scale, `scale is ${expected}`);

    await v.page.mouse.move(box.x + 400, box.y + 60);
    await v.page.mouse.wheel(0, 300); // zoom out around the pointer
    const out = await waitForSaved(v.page, (s) => s.scale > zoomed.scale, 'the wheel zoomed out');
    await v.page.keyboard.down('Shift');
    await v.page.mouse.wheel(0, 200);
    await v.page.keyboard.up('Shift');
    const panned = await waitForSaved(v.page, (s) => Math.abs(s.x0 - (out.x0 + 200 * out.scale)) < 1, 'shift+wheel panned by 200 px');
    await v.page.keyboard.down('Control');
    await v.page.mouse.wheel(0, -100); // a trackpad pinch arrives as ctrl+wheel
    await v.page.keyboard.up('Control');
    await waitForSaved(v.page, (s) => s.scale < panned.scale, 'ctrl+wheel zoomed in');

    // The session moves far off screen: the view pans to keep the cursor visible and draws it.
    const position = model.stepRecord.length - 50;
    await postToView(v.page, { type: 'cursor', position, thread: model.recordThread[model.stepRecord[position - 1]] });
    const frontier = model.stepRecord[position];
    const plot = box.width - 160;
    const followed = await waitForSaved(v.page, (s) => frontier >= s.x0 && frontier <= s.x0 + plot * s.scale, `cursor record ${frontier} is in view`);
    await frames(v.page);
    const x = 160 + (frontier - followed.x0) / followed.scale;
    const bottom = box.height - 4;
    const near = await Promise.all([-1, 0, 1].map((dx) => pixelAt(v.page, x + dx, bottom)));
    assert.ok(near.some((p) => !differs(p, DARK_CURSOR, 40)), `cursor line at x=${x}: ${JSON.stringify(near)}`);
    await v.page.screenshot({ path: join(SHOTS, 'webview-timeline-zoomed-dark.png') });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows markup from a recording as text and never runs it (CSP as the host sets it)', async () => {
    const recording = await hostileRecording();
    const model = timelineModel(recording);
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    assert.match((await v.page.locator('dl.facts').textContent()) ?? '', new RegExp(XSS_IMG.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    // Lanes main first: 0 (records 1, 2: the hostile I/O reads, then 3) and 0.1 (records 0, 4).
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('ArrowRight'); // the top lane's first: record 1, the <img> read
    await v.page.waitForFunction(() => document.querySelector('.details .record-summary')?.textContent?.includes('<img'));
    const imgDetails = (await v.page.locator('.details').textContent()) ?? '';
    await v.page.keyboard.press('ArrowRight'); // record 2, the <script> read
    await v.page.waitForFunction(() => document.querySelector('.details .record-summary')?.textContent?.includes('<script>'));
    const scriptDetails = (await v.page.locator('.details').textContent()) ?? '';
    assert.ok(imgDetails.includes('<img src=x onerror='), imgDetails);
    assert.ok(scriptDetails.includes('<script>window.__xss=2</script>'), scriptDetails);
    assert.ok((await v.page.locator('[aria-live]').textContent())?.includes('I/O read'));
    // With a session running, clicking an I/O read goes to the position where its goroutine had
    // consumed it (the engine's positionOf).
    await postToView(v.page, { type: 'cursor', position: 0, thread: 0 });
    const box = await canvasBox(v.page);
    const p = recordPoint(fitAllView(model.recordCount, box.width), 1, model.recordThread[1]);
    await v.page.mouse.click(box.x + p.x, box.y + p.y);
    assert.deepEqual(await v.waitForSent('goto'), { type: 'goto', position: recording.timeline.positionOf(1), record: 1 });
    const dom = await v.page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      imgs: document.querySelectorAll('img').length,
      scripts: Array.from(document.querySelectorAll('script')).filter((s) => !s.nonce).length,
    }));
    assert.deepEqual(dom, { xss: undefined, imgs: 0, scripts: 0 });
    await v.page.screenshot({ path: join(SHOTS, 'webview-timeline-hostile.png') });
    assert.deepEqual(await v.problems(), []);
    // The page carries the host's CSP: nothing but nonce'd scripts and styles, no unsafe-*.
    const csp = (await v.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    assert.match(csp, /^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'; style-src 'nonce-[A-Za-z0-9+/=]+'$/);
    // The page's CSP is live: an inline script added to the DOM is refused and reported.
    await v.page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.appendChild(s);
    });
    await v.page.waitForFunction(() => (window as unknown as { harness: { cspViolations: string[] } }).harness.cspViolations.length > 0);
    assert.equal(await v.page.evaluate(() => (window as unknown as { __inline?: number }).__inline), undefined);
    assert.ok((await v.problems()).some((p) => p.startsWith('csp: script-src')), 'the CSP reported the inline script');
    await v.page.context().close();
  });

  it('restores zoom, scroll and selection after a reload', async () => {
    const recording = await machinFixture('pipeline');
    const model = timelineModel(recording);
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('ArrowRight');
    await v.page.keyboard.press('ArrowRight');
    await v.page.keyboard.press('+');
    await v.page.keyboard.press('+');
    const box = await canvasBox(v.page);
    const fit = fitAllView(model.recordCount, box.width);
    // The first key selects the top lane's first record, the second its next one.
    const topLane = Array.from(model.recordThread.keys()).filter((r) => model.recordThread[r] === 0);
    const second = topLane[1];
    const before = await waitForSaved(v.page, (s) => s.selected === second && Math.abs(s.scale - fit.scale / 2.25) < 1e-9, `record ${second} is selected and zoomed in twice`);
    const announced = await v.page.locator('[aria-live]').textContent();
    await v.page.reload();
    await v.page.waitForSelector('canvas');
    await v.page.waitForFunction((text) => document.querySelector('[aria-live]')?.textContent === text, announced);
    await frames(v.page);
    assert.deepEqual(await savedView(v.page), before);
    assert.ok((await v.sent()).some((m) => m.type === 'requestDetails' && m.record === before.selected));
    // The host sends the model again (machin's results arrived): the view stays where it was.
    await postModel(v.page, model);
    await frames(v.page);
    await v.page.waitForFunction((text) => document.querySelector('[aria-live]')?.textContent === text, announced);
    assert.deepEqual(await savedView(v.page), before);
    await v.page.context().close();
  });

  it('shows an error instead of the view (with its action), a banner, a diverged verdict, a protocol mismatch and the divergence', async () => {
    const { recording, model } = await crash();
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model) });
    await v.page.waitForSelector('canvas');
    await postToView(v.page, { type: 'banner', text: 'Restricted mode: replays are off until you trust this workspace.' });
    assert.match((await v.page.locator('.banner').first().textContent()) ?? '', /Restricted mode/);
    await postToView(v.page, { type: 'divergence', record: 1, message: 'effect 1 differs' });
    await frames(v.page);
    const box = await canvasBox(v.page);
    const view = fitAllView(model.recordCount, box.width);
    const x = recordPoint(view, 1, 1).x - 0.5 / view.scale;
    const row = await Promise.all([-1, 0, 1].map((dx) => pixelAt(v.page, x + dx, box.height - 6)));
    assert.ok(row.some((p) => !differs(p, [0xcc, 0xa7, 0x00], 40)), `divergence line: ${JSON.stringify(row)}`);
    assert.equal(await v.page.locator('.divergence-line').textContent(), 'Replay against build: effect 1 differs');

    // A huge decoded value (a hostile body) is shown bounded, and says what it left out.
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('Home');
    await v.page.waitForFunction((text) => document.querySelector('.details .record-summary')?.textContent === text, recording.describe(0).summary);
    const huge = {
      record: 0, kind: 'sched', thread: 0, line: 5, step: 0, position: 1, summary: 'huge',
      value: { text: 'x'.repeat(100_000), type: 'text', children: Array.from({ length: 2000 }, (_, i) => ({ name: `h${i}`, value: { text: String(i), type: 'number' } })) },
    };
    await postToView(v.page, { type: 'recordDetails', record: 0, view: huge });
    await v.page.waitForSelector('.value-more');
    assert.equal(await v.page.locator('.details .value-children > li').count(), 501);
    assert.equal(await v.page.locator('.value-more').textContent(), '… 1500 more not shown');
    assert.match((await v.page.locator('.details .value-text').first().textContent()) ?? '', /… \(80000 more characters\)$/);

    await postToView(v.page, { type: 'model', version: PROTOCOL_VERSION + 1, data: new Uint8Array([1, 2, 3]) });
    assert.match((await v.page.locator('[role=alert]').textContent()) ?? '', /protocol version 1 but the extension sent version 2/);
    await postToView(v.page, { type: 'error', message: 'orders-panic.tcap: wrong key: the capsule does not authenticate with this key.', actions: [{ id: 'setCapsuleKey', label: 'Set Key…' }] });
    assert.match((await v.page.locator('[role=alert]').textContent()) ?? '', /wrong key/);
    assert.equal(await v.page.locator('canvas').count(), 0);
    // The wrong-key page's button runs Set Capsule Key.
    await v.page.locator('[role=alert] vscode-button[data-command="setCapsuleKey"]').click();
    assert.deepEqual(await v.waitForSent('command', (m) => m.id === 'setCapsuleKey'), { type: 'command', id: 'setCapsuleKey' });
    // A diverged replay: the verdict with its numbers in the header, and a banner.
    await postModel(v.page, { ...model, verdict: { verdict: 'DIVERGED', detail: '3/4 ops replayed, I/O ran short (underrun), boundary faithful' } });
    await v.page.waitForSelector('canvas');
    assert.equal(await v.page.locator('[aria-label="Verify verdict"]').textContent(), 'verify: DIVERGED · 3/4 ops replayed, I/O ran short (underrun), boundary faithful');
    assert.match((await v.page.locator('.banner').allTextContents()).join(' | '), /Diverged replay: machin replay --verify says 3\/4 ops replayed/);
    // The crash trace's replay panics, so machin gave no verdict: the header says what is known (issue 29).
    await postModel(v.page, model);
    await v.page.waitForSelector('canvas');
    assert.match((await v.page.locator('[aria-label="Verify verdict"]').textContent()) ?? '', /^replay: PANIC REPRODUCED · machin replay --verify gives no verdict for a run that panics/);
    // A model whose arrays disagree (a thread index past the thread list) is refused with a message.
    await postModel(v.page, { ...model, recordThread: Uint16Array.from([0, 1, 7, 2]) });
    assert.match((await v.page.locator('[role=alert]').textContent()) ?? '', /inconsistent: record 2 names thread 7 of 3/);
    await postModel(v.page, { ...model, stepRecord: Uint32Array.from([0, 2, 1, 3]) });
    assert.match((await v.page.locator('[role=alert]').textContent()) ?? '', /step records are not ascending/);
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows a capsule: tasks as lanes, the request and each effect decoded, the recorded panic', async () => {
    const recording = await tinFixture('orders-panic');
    const model = timelineModel(recording);
    assert.ok(model.request, 'the engine decoded the request');
    for (const theme of ['dark', 'light'] as const) {
      const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), theme });
      await v.page.waitForSelector('canvas');
      const lanes = await v.page.locator('ul[aria-label="Tasks"] li').allTextContents();
      assert.deepEqual(lanes.map((l) => l.split(':')[0]), recording.timeline.threads.map((t) => (t.label ? `${t.id} ${t.label}` : t.id)));
      const facts = (await v.page.locator('dl.facts').textContent()) ?? '';
      assert.ok(facts.includes('GET /orders/9 HTTP/1.1') && facts.includes('[2001:db8::5]:40112'), facts);
      assert.match((await v.page.locator('.panic-line').textContent()) ?? '', /index out of range \[3\] with length 3/);
      assert.match((await v.page.locator('.details').textContent()) ?? '', /Request/);
      await v.page.locator('canvas').focus();
      await v.page.keyboard.press('ArrowRight');
      await v.page.keyboard.press('ArrowRight');
      await v.page.waitForFunction(() => document.querySelector('.details .record-summary') !== null);
      assert.equal(await v.page.locator('.details .record-summary').textContent(), recording.describe(1).summary);
      await v.page.screenshot({ path: join(SHOTS, `webview-timeline-capsule-${theme}.png`) });
      assert.deepEqual(await v.problems(), []);
      await v.page.context().close();
    }
  });

  it('reads well in the light theme', async () => {
    const { recording, model } = await crash();
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), theme: 'light' });
    await v.page.waitForSelector('canvas');
    await postToView(v.page, { type: 'cursor', position: 2, thread: 1 });
    await v.page.locator('canvas').focus();
    await v.page.keyboard.press('End');
    await v.page.waitForSelector('.details .record-summary');
    const bg = await pixelAt(v.page, 5, (await canvasBox(v.page)).height - 3);
    assert.ok(bg[0] > 240 && bg[1] > 240 && bg[2] > 240, `light background, got ${bg}`);
    await v.page.screenshot({ path: join(SHOTS, 'webview-timeline-light.png') });
    // VS Code switches theme under an open view: the canvas follows.
    await v.page.evaluate(() => (window as unknown as { harness: { setTheme(n: string): void } }).harness.setTheme('dark'));
    await frames(v.page);
    const dark = await pixelAt(v.page, 5, (await canvasBox(v.page)).height - 3);
    assert.deepEqual(dark, [0x1f, 0x1f, 0x1f]);
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });
});
