// The timeline draws the debug session's whole-run answers (issue 30): log point hits as notches
// on their goroutines' lanes and a value's origin chain as edges between lanes, from the host's
// `runMarks` message (built by the host's own runMarksMsg from a chain shaped as the adapter's);
// a line under the canvas says what is marked; a later message without marks clears them.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { timelineModel } from '../../extension/view-models/timeline-model';
import { runMarksMsg } from '../../extension/view-models/run-marks-model';
import type { OriginChain } from '../../replay-engine/machin/source/value-origin';
import { GUTTER_WIDTH, LANE_HEIGHT, AXIS_HEIGHT } from '../../webview-ui/timeline/viewport';
import { launch, openView, REPO } from './harness/browser';
import { canvasBox, differs, fitAllView, frames, pixelAt } from './harness/canvas';
import { machinFixture } from './harness/fixtures';
import { postToView, timelineHost } from './harness/host-stand-in';

let browser: Browser;
before(async () => {
  mkdirSync(join(REPO, 'test-results'), { recursive: true });
  browser = await launch();
});
after(async () => browser?.close());

describe('timeline: log point hits and origin chains', () => {
  it('marks each hit on its lane, draws the chain lane to lane, says so, and clears', async () => {
    const recording = await machinFixture('crash');
    const model = timelineModel(recording);
    const v = await openView(browser, 'timeline', { host: timelineHost(recording, model), width: 900 });
    await v.page.waitForSelector('canvas');
    await frames(v.page);
    const box = await canvasBox(v.page);
    const view = fitAllView(model.recordCount, box.width);
    const frontier = (p: number) => (p >= model.stepRecord.length ? model.recordCount : model.stepRecord[p]);
    const xOf = (p: number) => GUTTER_WIDTH + (frontier(p) - view.x0) / view.scale;
    const laneOf = (id: string) => model.threads.findIndex((t) => t.id === id);
    const [w1, w2] = ['0.1', '0.2'].map(laneOf);
    // Two hits of `ch <- v` (one per worker), and r's chain: main's receive at op 3 <- worker 0.1's send at op 1.
    const hits = [{ goroutine: '0.1', position: 1 }, { goroutine: '0.2', position: 2 }];
    const chain: OriginChain = {
      variable: 'a', goroutine: '0', value: '5',
      steps: [
        { via: 'receive', goroutine: '0', thread: 0, event: 6, seq: 9, line: 8, column: 5, function: 'main', position: 3, text: 'a := <-ch', variable: 'a', value: '5', thisReplayOnly: false },
        { via: 'send', goroutine: '0.1', thread: 1, event: 0, seq: 2, line: 1, column: 26, function: 'worker', position: 1, text: 'ch <- v', variable: 'v', value: '5', thisReplayOnly: false },
      ],
      end: { kind: 'not-recorded', message: 'v is a parameter of worker: the go statement passed 5' },
    };
    const notch = (p: number, lane: number) => ({ x: xOf(p), y: AXIS_HEIGHT + lane * LANE_HEIGHT + 3 });
    const mid = { x: (xOf(3) + xOf(1)) / 2, y: AXIS_HEIGHT + ((laneOf('0') + w1) / 2) * LANE_HEIGHT + LANE_HEIGHT / 2 };
    const points = [notch(1, w1), notch(2, w2), mid];
    const beforePx = await Promise.all(points.map((p) => pixelAt(v.page, p.x, p.y)));

    await postToView(v.page, runMarksMsg(model.threads, hits, 2, chain));
    await frames(v.page);
    const afterPx = await Promise.all(points.map((p) => pixelAt(v.page, p.x, p.y)));
    points.forEach((p, k) => assert.ok(differs(beforePx[k], afterPx[k]), `nothing drawn at ${JSON.stringify(p)}: ${beforePx[k]} then ${afterPx[k]}`));
    const line = (await v.page.locator('.run-marks-line').textContent()) ?? '';
    assert.match(line, /Log point hits: 2 marked/);
    assert.match(line, /Where a = 5 \(goroutine 0\) came from: 2 links \(a = 5 · main 8:5 ← v = 5 · worker 1:26\); End: not in the recording/);
    await v.page.screenshot({ path: join(REPO, 'test-results', 'webview-run-marks.png') });

    await postToView(v.page, runMarksMsg(model.threads, [], 0, null));
    await frames(v.page);
    const cleared = await Promise.all(points.map((p) => pixelAt(v.page, p.x, p.y)));
    points.forEach((p, k) => assert.ok(!differs(beforePx[k], cleared[k]), `still drawn at ${JSON.stringify(p)}`));
    assert.equal(await v.page.locator('.run-marks-line').textContent(), '');
    assert.deepEqual(await v.problems(), []);
    await v.page.context().close();
  });
});
