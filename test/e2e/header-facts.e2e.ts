// The timeline header of a trace mailed from CI, in a real VS Code with the real machin (issue
// 29, points 5 and 10): the bundled crash trace names `/home/ci/app/crash.mfl`, and the header
// shows the `crash.mfl` beside it that was read and replayed, the recorded path after it; machin
// prints no verify verdict for a replay that panics, so the header says what is known instead:
// the panic came back where it was recorded, in machin's words of where a verdict comes from.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { withVsCode } from './harness';

test('the header names the program used and the recorded path, and says why a panicking replay has no verify verdict', { timeout: 300_000 }, async () => {
  await withVsCode({ name: 'header-facts' }, async (vs) => {
    await vs.openFile('crash.mflrr');
    const tl = vs.timeline();
    await tl.getByText('index out of range [12] with length 2').first().waitFor({ timeout: 90_000 });
    const verdict = tl.locator('[aria-label="Verify verdict"]');
    await verdict.waitFor({ timeout: 60_000 });
    assert.match((await verdict.textContent()) ?? '', /^replay: PANIC REPRODUCED · machin replay --verify gives no verdict for a run that panics \(it exits before printing one\); held to the recorded schedule, the replay panicked again in goroutine 0 main right after its last recorded op \(stop after 4\/4 ops\): faithful up to the panic$/);
    const program = tl.locator('[data-fact="program"] dd');
    assert.equal(await program.textContent(), join(vs.workspace, 'crash.mfl'));
    assert.equal(await tl.locator('[data-fact="recordedProgram"] dt').textContent(), 'recorded as');
    assert.equal(await tl.locator('[data-fact="recordedProgram"] dd').textContent(), '/home/ci/app/crash.mfl');
    await vs.shot('header-program-and-verdict');
  });
});
