// The language server in a real VS Code (code-server in Chromium, through the e2e harness):
// after Replay to Panic, the trace's read-only text shows the lenses, inlay hints and hovers
// with the panic and labels the session learned, and the program shows the watched values
// inline beside main's lines. Screenshots go to test-results/e2e/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withVsCode } from '../e2e/harness';

/** Editor text as a reader sees it (VS Code renders spaces as no-break spaces). */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

test('lenses, hints, hover and inline values in VS Code after Replay to Panic', { timeout: 400_000 }, async () => {
  await withVsCode({ name: 'lsp-in-vscode' }, async (vs) => {
    const { page } = vs;
    await vs.openFile('crash.mflrr');
    await vs.timeline().locator('ul[aria-label="Goroutines"] li').first().waitFor({ state: 'attached', timeout: 90_000 });
    await vs.runCommand('Replay to Panic');
    // The stopped frame opens the trace's text (the adapter's read-only copy), decorated by the server.
    await page.locator('.codelens-decoration', { hasText: 'Replay to panic (goroutine 0, op 4/4)' }).first().waitFor({ timeout: 120_000 });
    const trace = page.locator('.monaco-editor .view-lines', { hasText: 'MFLRR 1' }).first();
    await trace.locator('.view-line', { hasText: 'last op before the panic' }).first().waitFor({ timeout: 30_000 });
    const text = plain(await trace.innerText());
    assert.match(text, /S 0\.1\s*op 0\/4 · worker/);
    assert.match(text, /S 0\s*op 3\/4 · main · last op before the panic/);
    const lenses = await page.locator('.codelens-decoration').allTextContents();
    assert.ok(lenses.some((l) => l.includes('Replay to here (op 1 · 0.2)')), lenses.join(' | '));
    await vs.shot('trace-text');

    const line = trace.locator('.view-line', { hasText: 'S 0.2' }).first();
    const box = (await line.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + box.height / 2);
    await page.mouse.move(box.x + 31, box.y + box.height / 2);
    const hover = page.locator('.monaco-hover-content').filter({ visible: true }).first();
    await hover.waitFor({ timeout: 30_000 });
    const hoverText = plain(await hover.innerText());
    assert.match(hoverText, /Schedule op 1 of 4 · goroutine 0\.2 \(worker\)/);
    assert.match(hoverText, /Causal chain: op 2 of the 4 ops that led to the panic in goroutine 0 \(main\)/);
    await vs.shot('hover');
    await page.mouse.move(5, 5);

    // The program frame of main: values of the watched variables beside its lines.
    await page.locator('.debug-call-stack .monaco-list-row').filter({ hasText: 'crash.mfl' }).filter({ hasNotText: 'mflrr' }).last().click();
    const program = page.locator('.monaco-editor .view-lines', { hasText: 'func main()' }).first();
    await program.waitFor({ timeout: 30_000 });
    // VS Code paints inline values on its next view update: a scroll gives it one.
    for (let attempt = 0; attempt < 10 && !plain(await program.innerText()).includes('idx = 12'); attempt++) {
      await program.hover();
      await page.mouse.wheel(0, 40);
      await page.waitForTimeout(500);
      await page.mouse.wheel(0, -40);
      await page.waitForTimeout(1500);
    }
    const source = plain(await program.innerText());
    assert.match(source, /idx = idx \+ a\s*idx = 12, a = 5/);
    assert.match(source, /b := <-ch\s*b = 7/);
    assert.doesNotMatch(source.split('\n')[0], /=\s*\d/, 'nothing on worker, outside main');
    await vs.shot('inline-values');
  });
});
