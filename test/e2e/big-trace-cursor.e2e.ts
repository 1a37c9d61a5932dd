// Issue 15, point 4 on a large trace: after every kind of step on a 400,000-op trace (written by
// ../shared/tools/gen_mflrr.py into the workspace), the status bar and the Call Stack name the
// same op and the same goroutine. Both follow the adapter, but by different paths (the status bar
// the frozenRun/cursor event, the Call Stack a stackTrace request), so a slow or stale one shows
// here, where the session has 400k records to move through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { GEN_MFLRR } from '../support/paths';
import { withVsCode, type VsCode } from './harness';

const OPS = 400_000;

interface Shown {
  status: string;
  /** The Call Stack's thread rows with their top frame (the row after an expanded thread). */
  stacks: Array<{ thread: string; frame: string }>;
}

/** The status bar's position item and the Call Stack's threads with their top frames. */
async function shown(page: Page): Promise<Shown> {
  // allTextContents / evaluateAll do not wait for an element (textContent would, 30 s a poll).
  const status = ((await page.locator('.statusbar-item', { hasText: `/${OPS}` }).allTextContents())[0] ?? '').trim();
  const rows = await page.locator('.debug-call-stack .monaco-list-row').evaluateAll((els) =>
    els.map((e) => ({ text: (e.textContent ?? '').trim(), level: e.getAttribute('aria-level'), expanded: e.getAttribute('aria-expanded') })),
  );
  const stacks: Shown['stacks'] = [];
  rows.forEach((r, i) => {
    if (r.level === '1' && r.expanded === 'true' && rows[i + 1]?.level === '2') stacks.push({ thread: r.text, frame: rows[i + 1].text });
  });
  return { status, stacks };
}

/**
 * Waits until the status bar names op N of goroutine G and the Call Stack's focused frame is
 * that op (`op N/400000`) of that goroutine; returns N and G. `changedFrom`: a status text the
 * move must leave.
 */
async function agreed(page: Page, changedFrom: string | null): Promise<{ op: number; goroutine: string; status: string }> {
  let last: Shown = { status: '', stacks: [] };
  for (let waited = 0; waited < 60_000; waited += 200) {
    last = await shown(page);
    const s = /(I\/O before )?op (\d+)\/(\d+) · goroutine (\S+)/.exec(last.status);
    if (s && last.status !== changedFrom) {
      const found = { op: Number(s[2]), goroutine: s[4], status: last.status };
      // The stopped goroutine's row (its id, then its state) and its top frame: an S record names
      // the op, an I/O record is its value, read by that goroutine before that op.
      const mine = last.stacks.find((x) => x.thread.split(/\s|(?=[A-Z])/)[0] === s[4]);
      const io = mine && /^I (\S+) → /.exec(mine.frame);
      const op = mine && /^S (\S+) · op (\d+)\/(\d+)/.exec(mine.frame);
      if (s[1] && io && io[1] === s[4]) return found;
      if (!s[1] && op && op[1] === s[4] && op[2] === s[2] && op[3] === String(OPS)) return found;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the status bar and the Call Stack do not agree: ${JSON.stringify(last)}`);
}

async function press(vs: VsCode, label: string): Promise<void> {
  await vs.page.locator(`.debug-toolbar [aria-label^="${label}"]`).first().click();
}

test('on a 400,000-op trace the status bar and the Call Stack agree after every step', { timeout: 600_000 }, async () => {
  await withVsCode({ name: 'big-trace-cursor' }, async (vs) => {
    const { page } = vs;
    const gen = spawnSync('python3', [GEN_MFLRR, String(OPS), '12', join(vs.workspace, 'big.mflrr')], { encoding: 'utf8' });
    assert.equal(gen.status, 0, gen.stderr);
    await vs.openFile('big.mflrr');
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 120_000 });
    // Debug from the first record of the top lane (main): select it with the keyboard, then Debug from Here.
    // (again until the details show the record: on a loaded machine the key can come before the canvas has the focus)
    const debugFromHere = vs.timeline().locator('section.details vscode-button[data-command="debugFromHere"]');
    for (let attempt = 1; ; attempt++) {
      await vs.timeline().locator('canvas').first().focus();
      await page.keyboard.press('ArrowRight');
      try {
        await debugFromHere.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
    await debugFromHere.click();
    await page.locator('.debug-toolbar').waitFor({ timeout: 120_000 });
    // Room for every goroutine's row in the Call Stack (its list draws only the rows in view).
    for (const pane of ['Variables', 'Watch', 'Loaded Scripts', 'Breakpoints']) {
      const header = page.locator('.pane-header[aria-expanded="true"]', { hasText: new RegExp(`^\\s*${pane}`, 'i') });
      if (await header.count()) await header.first().click();
    }
    let at = await agreed(page, null);
    assert.equal(at.goroutine, '0');
    const seen = [at];
    for (const label of ['Step Over', 'Step Over', 'Step Into', 'Step Into', 'Step Out', 'Step Back', 'Step Back Into', 'Step Back Out', 'Step Over']) {
      await press(vs, label);
      at = await agreed(page, at.status);
      seen.push(at);
    }
    // Step Over and Step Back stay on the goroutine; Step Into moves to the next record of any.
    assert.equal(seen[1].goroutine, '0');
    assert.ok(seen[1].op >= seen[0].op && seen[2].op >= seen[1].op, JSON.stringify(seen));
    assert.ok(seen[3].op >= seen[2].op && seen[4].op >= seen[3].op, JSON.stringify(seen));
    // Step Out: the goroutine's last record, far down the 400k ops.
    assert.ok(seen[5].op > OPS / 2, JSON.stringify(seen[5]));
    // Step Back: the goroutine's previous record (an I/O read before the same op counts).
    assert.equal(seen[6].goroutine, seen[5].goroutine);
    assert.ok(seen[6].op <= seen[5].op, JSON.stringify(seen));
    // Step Back Out: the first record of the goroutine Step Back Into went to.
    assert.equal(seen[8].goroutine, seen[7].goroutine);
    assert.ok(seen[8].op < seen[7].op, JSON.stringify(seen));
    await vs.shot('big-trace-agree');
    // A far jump back and forth keeps them together too: Reverse Continue to the start, then a
    // Step Into to op 0.
    await press(vs, 'Reverse Continue');
    await page.locator('.statusbar').getByText(`start · 0/${OPS} ops done`).waitFor({ timeout: 60_000 });
    await press(vs, 'Step Into');
    at = await agreed(page, null);
    assert.equal(at.op, 0);
  });
});
