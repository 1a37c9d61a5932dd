// The panicking statement and the inline values are on screen (issue 29, point 4), in a real VS
// Code with the real machin, in the harness's 1400x860 window with the timeline beside the
// program: the reorder buffer panics at `buf[i] = v`, column 55 of a one-line function (place),
// in an editor about 460 px wide. `.mfl` files wrap by default (the extension's
// configurationDefaults), so the statement and the line's inline values sit inside the editor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { recordProgram } from '../support/machin';
import { REORDER } from '../support/programs';
import { withVsCode } from './harness';

interface Box {
  left: number;
  right: number;
}

// Plain JavaScript run in the page (a string: the test's TypeScript compiler would add helpers the page has not).
const PLACE_OF = `(wanted) => {
  const editor = document.querySelector('.editor-group-container.active .monaco-editor .overflow-guard');
  const e = editor.getBoundingClientRect();
  const box = (r) => ({ left: r.left, right: r.right });
  for (const line of Array.from(editor.querySelectorAll('.view-line'))) {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let all = '';
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push({ node: n, start: all.length });
      all += (n.textContent || '').replace(/\u00a0/g, ' ');
    }
    const at = all.indexOf(wanted);
    if (at >= 0) {
      const range = document.createRange();
      const pos = (k) => {
        let hit = nodes[0];
        for (const x of nodes) if (x.start <= k) hit = x;
        return [hit.node, Math.min(k - hit.start, hit.node.length)];
      };
      range.setStart(...pos(at));
      range.setEnd(...pos(at + wanted.length));
      return { found: box(range.getBoundingClientRect()), editor: box(e) };
    }
    for (const el of Array.from(line.querySelectorAll('span'))) {
      const after = getComputedStyle(el, '::after').content;
      if (after && after.replace(/\u00a0/g, ' ').includes(wanted)) return { found: box(el.getBoundingClientRect()), editor: box(e) };
    }
  }
  return { found: null, editor: box(e) };
}`;

/**
 * Where `text` is drawn in the active editor (a text range in its view lines, or a decoration's
 * `::after` content, as VS Code may draw inline values), and the editor's visible area.
 */
async function placeOf(page: Page, text: string): Promise<{ found: Box | null; editor: Box }> {
  return page.evaluate(`(${PLACE_OF})(${JSON.stringify(text)})`) as Promise<{ found: Box | null; editor: Box }>;
}

async function waitOnScreen(page: Page, text: string): Promise<void> {
  let last: Awaited<ReturnType<typeof placeOf>> | null = null;
  for (let waited = 0; waited < 30_000; waited += 250) {
    last = await placeOf(page, text);
    if (last.found && last.found.left >= last.editor.left && last.found.right <= last.editor.right + 1) return;
    await page.waitForTimeout(250);
  }
  assert.fail(`${text} is not inside the editor: ${JSON.stringify(last)}`);
}

test('Replay to Panic: the statement at column 55 of a one-line function and its inline values are inside the editor', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'source-on-screen' }, async (vs) => {
    const { page } = vs;
    recordProgram(vs.workspace, 'reorder', REORDER);
    await vs.openFile('reorder.mflrr');
    await vs.timeline().getByText('index out of range [4] with length 4').first().waitFor({ timeout: 90_000 });
    await vs.timeline().locator('vscode-button[data-command="replayToPanic"]').click();
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: /place\s*reorder\.mfl\s*2:55/ }).first().waitFor({ timeout: 90_000 });
    const editorWidth = await page.locator('.editor-group-container.active .monaco-editor .overflow-guard').first().evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(editorWidth < 600, `the program's editor is narrow beside the timeline (${editorWidth} px)`);
    await waitOnScreen(page, 'buf[i] = v');
    // place's inline values, after its one line: `i = 4` (slot returned 4), `v = 80`.
    await waitOnScreen(page, 'i = 4');
    await waitOnScreen(page, 'v = 80');
    await vs.shot('panic-statement-on-screen');
  });
});
