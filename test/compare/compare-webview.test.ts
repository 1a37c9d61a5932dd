// The compare webview bundle in Chromium (the WEBVIEW helper's harness: a page built like the
// host's, same CSP), fed through the compare protocol with two real flaky runs the engine read
// and aligned: the divergence must be marked and selected, and a click must select the
// counterpart on the other side.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compareRecordings } from '../../replay-engine/compare/compare-recordings';
import { compareViewData } from '../../replay-engine/compare/view-data';
import type { Recording } from '../../replay-engine/model/recording';
import { readRecording } from '../../replay-engine/open';
import { COMPARE_PROTOCOL_VERSION, packCompare, type CompareModel } from '../../webview-ui/compare/protocol';
import { AXIS_HEIGHT, GUTTER_WIDTH, LANE_HEIGHT } from '../../webview-ui/timeline/viewport';
import { launch, openView, REPO } from '../webview/harness/browser';
import { timelineModel } from '../../extension/view-models/timeline-model';
import { FLAKY_RUNS, scheduleOf } from './support/traces';
import { waitForSaved } from '../webview/harness/canvas';

const SHOTS = join(REPO, 'test-results');
const WARNING = [0xcc, 0xa7, 0x00]; // --vscode-editorWarning-foreground of the harness dark theme
let browser: Browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
});
after(async () => browser?.close());

async function pair(a: string, b: string) {
  const ra = await readRecording(join(FLAKY_RUNS, a));
  const rb = await readRecording(join(FLAKY_RUNS, b));
  const result = compareRecordings(ra, rb);
  const model: CompareModel = { a: timelineModel(ra), b: timelineModel(rb), ...compareViewData(result.comparison, result.alignment) };
  return { ra, rb, ...result, model };
}

function compareHost(model: CompareModel) {
  const b64 = Buffer.from(packCompare(model)).toString('base64');
  return async (m: Record<string, unknown>, page: Page) => {
    if (m.type !== 'ready') return;
    await page.evaluate(
      ([data, version]) => {
        const bin = atob(data as string);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        window.postMessage({ type: 'compare', version, data: bytes }, '*');
      },
      [b64, COMPARE_PROTOCOL_VERSION] as const,
    );
  };
}

/** Where record r of `side` is drawn (its middle; `left`: its left edge), in page coordinates, from the view state the canvas exposes. */
async function recordPoint(page: Page, side: 'a' | 'b', rec: Recording, r: number, left = false): Promise<{ x: number; y: number }> {
  const canvas = page.locator(`.pane-${side} canvas`);
  const box = (await canvas.boundingBox())!;
  const d = await canvas.evaluate((c) => ({ ...(c as HTMLCanvasElement).dataset }));
  // The view lists its lanes top to bottom (B follows A's goroutine order): find this record's.
  const lanes = (await page.locator(`.pane-${side} ul.lanes li`).allTextContents()).map((t) => t.split(/[ :]/)[0]);
  const lane = lanes.indexOf(rec.timeline.threads[rec.timeline.thread[r]].id);
  assert.ok(lane >= 0);
  return {
    x: box.x + GUTTER_WIDTH + (r + (left ? 0 : 0.5) - Number(d.x0)) / Number(d.scale),
    y: box.y + AXIS_HEIGHT + lane * LANE_HEIGHT - Number(d.scrollY) + LANE_HEIGHT / 2,
  };
}

/** Whether a pixel of `color` is drawn in the canvas column band around page x. */
async function colorNear(page: Page, side: 'a' | 'b', pageX: number, color: number[]): Promise<boolean> {
  const canvas = page.locator(`.pane-${side} canvas`);
  const box = (await canvas.boundingBox())!;
  return canvas.evaluate(
    (c, [x, rgb]) => {
      const el = c as HTMLCanvasElement;
      const scale = el.width / el.getBoundingClientRect().width;
      const data = el.getContext('2d')!.getImageData(Math.floor((x - 4) * scale), 0, Math.ceil(8 * scale), el.height).data;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - rgb[0]) < 24 && Math.abs(data[i + 1] - rgb[1]) < 24 && Math.abs(data[i + 2] - rgb[2]) < 24) return true;
      }
      return false;
    },
    [pageX - box.x, color] as const,
  );
}

describe('compare webview', () => {
  it('marks and selects the divergence of two real runs, and a click selects the counterpart', async () => {
    const { ra, rb, comparison, alignment, model } = await pair('r1.mflrr', 'r3.mflrr');
    const v = await openView(browser, 'compare', { host: compareHost(model), width: 1100, height: 700 });
    await v.page.waitForSelector('.pane-b canvas');
    // Both runs show their goroutines in the same order.
    const lanesA = (await v.page.locator('.pane-a ul.lanes li').allTextContents()).map((t) => t.split(/[ :]/)[0]);
    const lanesB = (await v.page.locator('.pane-b ul.lanes li').allTextContents()).map((t) => t.split(/[ :]/)[0]);
    assert.deepEqual(lanesA, model.a.threads.map((t) => t.id));
    assert.deepEqual(lanesB, lanesA);

    // The divergence: the first op where the S sequences differ, computed from the text.
    const sa = scheduleOf(join(FLAKY_RUNS, 'r1.mflrr'));
    const sb = scheduleOf(join(FLAKY_RUNS, 'r3.mflrr'));
    let k = 0;
    while (sa[k].goroutine === sb[k].goroutine) k++;
    const divA = ra.timeline.recordOfStep(k);
    const divB = rb.timeline.recordOfStep(k);
    assert.match((await v.page.locator('.headline').textContent()) ?? '', new RegExp(`op ${k}:.*goroutine ${sa[k].goroutine.replace('.', '\\.')}.*goroutine ${sb[k].goroutine.replace('.', '\\.')}`));
    await v.page.waitForFunction(() => document.querySelector<HTMLElement>('.pane-a')?.dataset.selected !== undefined);
    assert.equal(await v.page.locator('.pane-a').getAttribute('data-divergence'), String(divA));
    assert.equal(await v.page.locator('.pane-b').getAttribute('data-divergence'), String(divB));
    assert.equal(await v.page.locator('.pane-a').getAttribute('data-selected'), String(divA));
    assert.equal(await v.page.locator('.pane-b').getAttribute('data-selected'), String(divB));
    await v.page.waitForTimeout(100);
    // The divergence marker is drawn (in the theme's warning color) where the record is, on both sides.
    await v.page.screenshot({ path: join(SHOTS, 'compare-divergence.png') });
    const pa = await recordPoint(v.page, 'a', ra, divA, true);
    const pb = await recordPoint(v.page, 'b', rb, divB, true);
    assert.ok(await colorNear(v.page, 'a', pa.x, WARNING), 'divergence marked on A');
    assert.ok(await colorNear(v.page, 'b', pb.x, WARNING), 'divergence marked on B');

    // Click a matched record far after the divergence on A: its counterpart is selected on B.
    const matched = [...Array(ra.timeline.recordCount).keys()].filter((r) => r > divA + 3 && alignment.hunkOf('a', r) < 0)[0];
    const expected = alignment.counterpart('a', matched);
    assert.equal(expected.exact, true);
    const p = await recordPoint(v.page, 'a', ra, matched);
    await v.page.mouse.click(p.x, p.y);
    const sel = await v.waitForSent('selected', (m) => m.record === matched);
    assert.deepEqual(sel, { type: 'selected', side: 'a', record: matched, counterpart: expected.record, exact: true });
    assert.equal(await v.page.locator('.pane-b').getAttribute('data-selected'), String(expected.record));
    assert.match((await v.page.locator('.selection').textContent()) ?? '', /A: .*↔.*B: /);

    // And from B back to A, on a record B has and A has not.
    const onlyB = [...Array(rb.timeline.recordCount).keys()].find((r) => alignment.hunkOf('b', r) >= 0 && !alignment.counterpart('b', r).exact);
    if (onlyB !== undefined) {
      const q = await recordPoint(v.page, 'b', rb, onlyB);
      await v.page.mouse.click(q.x, q.y);
      const back = await v.waitForSent('selected', (m) => m.side === 'b' && m.record === onlyB);
      assert.equal(back.exact, false);
      assert.equal(back.counterpart, alignment.counterpart('b', onlyB).record);
      assert.match((await v.page.locator('.selection').textContent()) ?? '', /only in B/);
    }

    // The wheel and a drag, as on the timeline (one pointer controller for both views): the wheel
    // zooms pane A at the pointer, a drag pans it, and the compare view keeps the state.
    const canvasA = (await v.page.locator('.pane-a canvas').boundingBox())!;
    const start = (await waitForSaved(v.page, () => true, 'a state was saved'))!;
    await v.page.mouse.move(canvasA.x + canvasA.width / 2, canvasA.y + 40);
    await v.page.mouse.wheel(0, -300);
    const zoomed = await waitForSaved(v.page, (st) => st.scale < start.scale, 'the wheel zoomed pane A in');
    await v.page.mouse.down();
    await v.page.mouse.move(canvasA.x + canvasA.width / 2 - 120, canvasA.y + 40, { steps: 4 });
    await v.page.mouse.up();
    await waitForSaved(v.page, (st) => st.x0 > zoomed.x0, 'a drag to the left panned pane A');

    // The places that differ, as a list: one button per hunk; pressing one selects it.
    const buttons = v.page.locator('ol.differences button');
    assert.equal(await buttons.count(), Math.min(50, alignment.hunkCount));
    const h = 1;
    const [a0, a1, b0] = [alignment.hunks[h * 4], alignment.hunks[h * 4 + 1], alignment.hunks[h * 4 + 2]];
    await buttons.nth(h).click();
    const picked = a1 > a0 ? { side: 'a', record: a0 } : { side: 'b', record: b0 };
    await v.waitForSent('selected', (m) => m.side === picked.side && m.record === picked.record);
    assert.match((await buttons.nth(h).textContent()) ?? '', new RegExp(`^A op ${ra.timeline.stepsBefore(a0)}: .*\\|  B op ${rb.timeline.stepsBefore(b0)}: `));

    // Hidden and shown again (VS Code reloads the page): the selection is where the user left it.
    const selectedA = await v.page.locator('.pane-a').getAttribute('data-selected');
    const selectedB = await v.page.locator('.pane-b').getAttribute('data-selected');
    await v.page.reload();
    await v.page.waitForSelector('.pane-b canvas');
    await v.page.waitForFunction(() => document.querySelector<HTMLElement>('.pane-a')?.dataset.selected !== undefined);
    assert.equal(await v.page.locator('.pane-a').getAttribute('data-selected'), selectedA);
    assert.equal(await v.page.locator('.pane-b').getAttribute('data-selected'), selectedB);

    // Debug from divergence posts the divergence record of that side.
    await v.page.locator('#debug-b').click();
    assert.deepEqual(await v.waitForSent('debug'), { type: 'debug', side: 'b', record: divB });
    assert.equal(comparison.firstDivergence?.b.record, divB);
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('keyboard: D goes to the divergence, N to the next difference, arrows move the selection', async () => {
    const { rb, alignment, model } = await pair('r14.mflrr', 'r3.mflrr');
    const v = await openView(browser, 'compare', { host: compareHost(model), theme: 'light' });
    await v.page.waitForSelector('.pane-a canvas');
    await v.page.locator('.pane-a canvas').focus();
    await v.page.keyboard.press('ArrowRight');
    const first = model.divergence!.a!;
    assert.equal((await v.waitForSent('selected')).record, first + 1);
    await v.page.keyboard.press('d');
    await v.waitForSent('selected', (m) => m.record === first && m.side === 'a');
    await v.page.keyboard.press('n');
    const h1 = alignment.hunkOf('a', first);
    const next = alignment.hunks[(h1 + 1) * 4];
    await v.waitForSent('selected', (m) => m.record === next);
    assert.equal(await v.page.locator('.pane-b').getAttribute('data-selected'), String(alignment.counterpart('a', next).record));
    // B's lanes were reordered to A's goroutine order (r14 and r3 met their goroutines in other
    // orders): a click on B still lands on the right record and selects its counterpart.
    assert.notEqual(rb.timeline.threads[0].id, model.a.threads[0].id);
    const matchedB = [...Array(rb.timeline.recordCount).keys()].filter((r) => alignment.hunkOf('b', r) < 0 && rb.timeline.threads[rb.timeline.thread[r]].id !== '0').pop()!;
    const q = await recordPoint(v.page, 'b', rb, matchedB);
    await v.page.mouse.click(q.x, q.y);
    const sel = await v.waitForSent('selected', (m) => m.side === 'b');
    assert.deepEqual(sel, { type: 'selected', side: 'b', record: matchedB, counterpart: alignment.counterpart('b', matchedB).record, exact: true });
    await v.page.screenshot({ path: join(SHOTS, 'compare-light.png') });
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });

  it('shows the error it is sent instead of a view', async () => {
    const v = await openView(browser, 'compare', {
      host: async (m, page) => {
        if (m.type === 'ready') await page.evaluate(() => window.postMessage({ type: 'error', message: 'r1.mflrr is a run of flaky.mfl but x.mflrr is a run of <b>crash.mfl</b>' }, '*'));
      },
    });
    await v.page.waitForSelector('.error');
    assert.match((await v.page.locator('.error').textContent()) ?? '', /<b>crash\.mfl<\/b>/);
    assert.equal(await v.page.locator('.error b').count(), 0);
    await v.page.context().close();
  });
});
