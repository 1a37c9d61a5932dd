// The Tin capsule commands that run tin or test a secret, in a real VS Code:
//   - Replay Against Build: tin (the stand-in on PATH, test/standins/tin-standin.mjs) is started as
//     `tin replay CAPSULE --against BUILD [--live KIND]`, the key only in its environment, and the
//     divergence it reports is shown on the timeline, in a notification and in the output channel;
//   - Save as Regression Test: `--save-test NAME --issue N` writes tests/regressions/ in the
//     workspace, the user is told where, and the capsule and the source are left as they were;
//   - Test a Secret: a candidate typed in a password box is tested against the capsule's secret
//     handles (match, no match, no handles at all), and neither it nor the key is ever logged.
// The stand-in replays no program: it checks the key against the capsule's tag (so a report at
// all proves tin got the right key) and prints the report described by TIN_STANDIN_SCENARIO in the
// forms of formats/tcap.md; TIN_STANDIN_LOG records its argv and whether a key was in its env.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { TIN_FIXTURES } from '../support/paths';
import { repoRoot, withVsCode, type VsCode } from './harness';

/** The fixture key: bytes 0x00..0x1f. */
const ORDERS_KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
/** The public test key saved regression tests are sealed under (formats/tcap.md). */
const PUBLIC_TEST_KEY = createHash('sha256').update('tin replay saved tests: not a secret').digest('hex');
/** A stand-in for the user's fixed source: tin builds a .tin BUILD; the stand-in only needs it to exist. */
const BUILD_SOURCE = '// orders service, with the fix for the index out of range\nfn handle(req) {\n  // ...\n}\n';

interface TinStandinRun {
  argv: string[];
  keyInEnv: boolean;
}

/** A folder outside the workspace for the stand-in's scenario and log; removed by `done`. */
function tinStandinFiles(scenario?: object): { env: Record<string, string>; runs: () => TinStandinRun[]; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-tin-e2e-'));
  const log = join(dir, 'tin-standin.log');
  const env: Record<string, string> = { TIN_STANDIN_LOG: log };
  if (scenario) {
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    env.TIN_STANDIN_SCENARIO = file;
  }
  return {
    env,
    runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as TinStandinRun) : []),
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function openCapsule(vs: VsCode, name: string): Promise<void> {
  await vs.openFile(name);
  await vs.timeline().locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });
}

/** The quick input (input box, quick pick or the simple file dialog) once it shows `title`. */
async function quickInput(vs: VsCode, title: string) {
  const widget = vs.page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title').getByText(title, { exact: false }).first().waitFor({ timeout: 30_000 });
  return widget.locator('.quick-input-box input').first();
}

/** Answers the file dialog (VS Code's own in a browser: a quick input with a path) with `file`. */
async function pickFile(vs: VsCode, title: string, file: string): Promise<void> {
  const input = await quickInput(vs, title);
  const value = () => vs.page.evaluate(() => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value);
  // The dialog opens on the workspace folder (its default) once it has listed it; typing before
  // that is merged into the folder path it then sets.
  await vs.page.waitForFunction(
    (folder) => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value === folder,
    `${dirname(file)}/`,
    { timeout: 30_000 },
  );
  await vs.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: basename(file) }).first().waitFor({ timeout: 30_000 });
  for (let attempt = 1; ; attempt++) {
    await input.fill(file);
    // The dialog completes names as one types: the box must hold exactly the path.
    const got = await vs.page
      .waitForFunction((want) => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value === want, file, { timeout: 5_000 })
      .then(() => true, () => false);
    if (got) break;
    if (attempt >= 3) assert.fail(`the file dialog holds ${JSON.stringify(await value())}, not ${file}`);
  }
  await input.press('Enter');
  await vs.page.locator('.quick-input-widget .quick-input-title').getByText(title, { exact: false }).first().waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Save as Regression Test... from the palette, answered as a user would: the build, the name offered, the issue, no --live. */
async function saveAsRegressionTest(vs: VsCode, build: string, issueNumber: number): Promise<void> {
  await vs.runCommand('Frozen Run: Save as Regression Test...');
  await pickFile(vs, 'The .tin source the regression test is for', build);
  const name = await quickInput(vs, 'Save as Regression Test: name');
  assert.equal(await name.inputValue(), 'orders-panic', 'the name offered is not the capsule\'s');
  await name.press('Enter');
  const issue = await quickInput(vs, 'Save as Regression Test: issue');
  await issue.fill(String(issueNumber));
  await issue.press('Enter');
  const live = await quickInput(vs, 'effects to perform for real (--live)');
  await live.press('Enter'); // none: every effect served from the capsule
}

/** A notification toast holding `text`. */
function toast(vs: VsCode, text: string) {
  return vs.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
}

/**
 * The result toast, once the tin progress toast below it has gone (toasts shift as it leaves, so
 * a click before that may land elsewhere), under the pointer so that it stays.
 */
async function resultToast(vs: VsCode, text: string) {
  const result = toast(vs, text);
  await result.waitFor({ timeout: 60_000 });
  await toast(vs, 'Frozen Run: tin replay ').waitFor({ state: 'hidden', timeout: 30_000 });
  await result.hover();
  return result;
}

test('Replay Against Build runs tin replay with the key in its environment and marks the divergence', { timeout: 300_000 }, async () => {
  const recordedKey = '4:INCR 11:hits:orders\n';
  const gotKey = '4:INCR 13:hits:orders:9\n';
  const tin = tinStandinFiles({
    status: 500,
    recorded: 500,
    divergence: { effect: 7, got: { kind: 'redis@1', key: gotKey }, recorded: { kind: 'redis@1', key: recordedKey } },
    notServed: 4,
    body: 'internal error: stock lookup failed\n',
  });
  try {
    await withVsCode({ name: 'tin-replay-against-build', env: { TIN_REPLAY_KEY: ORDERS_KEY, ...tin.env } }, async (vs) => {
      const { page } = vs;
      const capsule = join(vs.workspace, 'orders-panic.tcap');
      const build = join(vs.workspace, 'orders.tin');
      writeFileSync(build, BUILD_SOURCE);
      const capsuleBefore = readFileSync(capsule);
      await openCapsule(vs, 'orders-panic.tcap');
      await vs.shot('opened');

      await vs.runCommand('Frozen Run: Replay Against Build...');
      await pickFile(vs, 'The build to replay against', build);
      // Which effects to perform for real: redis, so the build's call is compared and performed.
      await quickInput(vs, 'effects to perform for real (--live)');
      const widget = page.locator('.quick-input-widget');
      const kinds = (await widget.locator('.quick-input-list .monaco-list-row').allTextContents()).map((t) => t.trim());
      assert.ok(kinds.some((k) => k.includes('redis@1')), `kinds offered: ${kinds.join(' | ')}`);
      assert.ok(!kinds.some((k) => k.includes('sched.')), `schedule kinds offered for --live: ${kinds.join(' | ')}`);
      await widget.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'redis@1' }).first().click();
      await widget.locator('.quick-input-count').getByText('1 Selected').waitFor({ timeout: 10_000 });
      await vs.shot('live-picked');
      await widget.locator('.quick-input-box input').first().press('Enter');

      // What the user sees: a warning naming the divergence...
      const warning = await resultToast(vs, 'Frozen Run: replay against build:');
      const said = (await warning.locator('.notification-list-item-message').textContent()) ?? '';
      assert.match(said, /status 500 \(recorded 500\)/);
      assert.ok(said.includes(`diverged at effect 7 (record 8 on the timeline): got redis@1 ${JSON.stringify(gotKey)}, recorded redis@1 ${JSON.stringify(recordedKey)}`), said);
      assert.match(said, /4 recorded effect\(s\) not served/);
      assert.ok(await warning.locator('.codicon-warning, .codicon-notifications-warning').count() > 0, 'the divergence is not shown as a warning');
      // ...the mark on the timeline, with the same words (the record of effect 7 is the 8th)...
      const line = vs.timeline().locator('.divergence-line');
      await line.getByText('diverged at effect 7 (record 8 on the timeline)', { exact: false }).waitFor({ timeout: 30_000 });
      assert.match((await line.textContent()) ?? '', /^Replay against build: status 500/);
      assert.ok(((await line.textContent()) ?? '').includes('got redis@1'), await line.textContent() ?? '');
      await vs.shot('diverged');
      // ...and tin's report and the response body in the output channel ("Show Toolchain Output").
      await warning.getByRole('button', { name: 'Show Toolchain Output' }).click();
      const outputView = page.locator('.part.panel .output-view .view-lines');
      await outputView.getByText('diverged (exit 3)', { exact: false }).first().waitFor({ timeout: 30_000 });
      await outputView.getByText('internal error: stock lookup failed', { exact: false }).first().waitFor({ timeout: 30_000 });
      await vs.shot('output');

      // tin was started once, with the documented arguments; the key in its environment only.
      const argv = ['replay', capsule, '--against', build, '--live', 'redis@1'];
      assert.deepEqual(vs.toolchainRuns(), [`tin ${argv.join(' ')}`]);
      assert.deepEqual(tin.runs(), [{ argv, keyInEnv: true }]);
      assert.ok(!vs.toolchainRuns().join('\n').includes(ORDERS_KEY), 'the key was passed to tin on its command line');
      const logs = vs.extensionHostLogs();
      assert.ok(logs.includes('diverged (exit 3)'), 'the report is not in the output channel log');
      assert.ok(!logs.includes(ORDERS_KEY), 'the capsule key appears in the extension host logs');
      assert.deepEqual(readFileSync(capsule), capsuleBefore, 'the capsule was modified');
    });
  } finally {
    tin.done();
  }
});

test('Save as Regression Test writes tests/regressions, says so, and leaves the capsule alone', { timeout: 300_000 }, async () => {
  const tin = tinStandinFiles({ status: 200, recorded: 500, body: 'order 9: 3 lines\n' });
  try {
    // No TIN_REPLAY_KEY: the key is typed once and kept in secret storage, so the only way tin can
    // have it is the environment the extension gives it.
    await withVsCode({ name: 'tin-save-regression-test', env: { TIN_REPLAY_KEY: '', ...tin.env } }, async (vs) => {
      const { page } = vs;
      const capsule = join(vs.workspace, 'orders-panic.tcap');
      const build = join(vs.workspace, 'orders.tin');
      writeFileSync(build, BUILD_SOURCE);
      const casesPath = join(vs.workspace, 'tests', 'regressions', 'cases.json');
      const casesBefore = JSON.parse(readFileSync(casesPath, 'utf8')) as unknown[];
      const capsuleBefore = readFileSync(capsule);
      assert.deepEqual(capsuleBefore, readFileSync(join(repoRoot, 'examples', 'orders-panic.tcap')));

      await vs.openFile('orders-panic.tcap');
      const keyBox = page.locator('.quick-input-widget input[type="password"]');
      await keyBox.waitFor({ timeout: 60_000 });
      await keyBox.fill(ORDERS_KEY);
      await keyBox.press('Enter');
      await vs.timeline().locator('ul[aria-label="Tasks"] li').first().waitFor({ state: 'attached', timeout: 60_000 });

      await saveAsRegressionTest(vs, build, 317);

      const saved = await resultToast(vs, 'regression test "orders-panic" saved in tests/regressions');
      const said = (await saved.locator('.notification-list-item-message').textContent()) ?? '';
      assert.match(said, /faithful/, said);
      await vs.shot('saved');

      // Where it said: the workspace's tests/regressions.
      const dir = join(vs.workspace, 'tests', 'regressions');
      assert.ok(existsSync(join(dir, 'orders-panic.tcap')), 'no tests/regressions/orders-panic.tcap');
      assert.equal(readFileSync(join(dir, 'orders-panic.tin'), 'utf8'), BUILD_SOURCE);
      const cases = JSON.parse(readFileSync(casesPath, 'utf8')) as Array<{ source: string; issue: number; replay: { capsule: string; key: string } }>;
      assert.deepEqual(cases.slice(0, casesBefore.length), casesBefore, 'the existing regression cases were changed');
      const entry = cases.find((c) => c.replay?.capsule === 'orders-panic.tcap');
      assert.ok(entry, `no cases.json entry for orders-panic.tcap: ${JSON.stringify(cases)}`);
      assert.equal(entry.source, 'orders-panic.tin');
      assert.equal(entry.issue, 317);
      assert.equal(entry.replay.key, PUBLIC_TEST_KEY, 'the saved capsule is not under the public test key');

      // The notification's button opens the cases.json it names.
      await saved.getByRole('button', { name: 'Open cases.json' }).click();
      await page.locator('.tabs-container .tab.active').getByText('cases.json').waitFor({ timeout: 30_000 });
      await page.locator('.editor-instance .view-lines').getByText('orders-panic.tcap', { exact: false }).first().waitFor({ timeout: 30_000 });
      await vs.shot('cases-json');

      // Nothing the user owns was modified: the capsule and the source are byte for byte the same.
      assert.deepEqual(readFileSync(capsule), capsuleBefore, 'the original capsule was modified');
      assert.equal(readFileSync(build, 'utf8'), BUILD_SOURCE, 'the source was modified');

      const argv = ['replay', capsule, '--against', build, '--save-test', 'orders-panic', '--issue', '317'];
      assert.deepEqual(vs.toolchainRuns(), [`tin ${argv.join(' ')}`]);
      assert.deepEqual(tin.runs(), [{ argv, keyInEnv: true }], 'tin did not get the key from secret storage in its environment');
      assert.ok(!vs.toolchainRuns().join('\n').includes(ORDERS_KEY), 'the key was passed to tin on its command line');
      assert.ok(!vs.extensionHostLogs().includes(ORDERS_KEY), 'the capsule key appears in the extension host logs');
      assert.ok(!readFileSync(casesPath, 'utf8').includes(ORDERS_KEY), 'the capsule key was written to cases.json');
    });
  } finally {
    tin.done();
  }
});

test('a build that still diverges is not saved as a test; a faithful replay then clears the mark', { timeout: 300_000 }, async () => {
  const diverged = { status: 500, recorded: 500, divergence: { effect: 12, got: { kind: 'redis@1', key: '3:DEL 6:cart:9\n' }, recorded: null }, body: '' };
  const tin = tinStandinFiles(diverged);
  try {
    await withVsCode({ name: 'tin-save-refused', env: { TIN_REPLAY_KEY: ORDERS_KEY, ...tin.env } }, async (vs) => {
      const build = join(vs.workspace, 'orders.tin');
      writeFileSync(build, BUILD_SOURCE);
      const dir = join(vs.workspace, 'tests', 'regressions');
      const before = new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
      const capsuleBefore = readFileSync(join(vs.workspace, 'orders-panic.tcap'));
      await openCapsule(vs, 'orders-panic.tcap');

      await saveAsRegressionTest(vs, build, 318);
      const refused = await resultToast(vs, 'regression test "orders-panic" not saved');
      const said = (await refused.locator('.notification-list-item-message').textContent()) ?? '';
      assert.match(said, /only from a replay that does not diverge/, said);
      assert.ok(said.includes('diverged at effect 12, after the last recorded effect: got redis@1 "3:DEL 6:cart:9\\n", recorded nothing more'), said);
      const line = vs.timeline().locator('.divergence-line');
      await line.getByText('recorded nothing more', { exact: false }).waitFor({ timeout: 30_000 });
      await vs.shot('refused');
      // Nothing written: tests/regressions is exactly as it was, and so is the capsule.
      const after = new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
      assert.deepEqual(after, before, 'tests/regressions changed although nothing was saved');
      assert.deepEqual(readFileSync(join(vs.workspace, 'orders-panic.tcap')), capsuleBefore, 'the capsule was modified');

      // The build fixed: Replay Against Build is faithful, says so, and the mark goes away.
      writeFileSync(tin.env.TIN_STANDIN_SCENARIO, JSON.stringify({ status: 200, recorded: 500, body: 'order 9: 3 lines\n' }));
      await vs.runCommand('Frozen Run: Replay Against Build...');
      await pickFile(vs, 'The build to replay against', build);
      await (await quickInput(vs, 'effects to perform for real (--live)')).press('Enter');
      await resultToast(vs, 'Frozen Run: replay against build: status 200 (recorded 500); faithful');
      await line.getByText('diverged', { exact: false }).waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(((await line.textContent()) ?? '').trim(), '', 'the divergence mark stayed after a faithful replay');
      await vs.shot('faithful');
      assert.equal(tin.runs().length, 2);
      assert.ok(tin.runs().every((r) => r.keyInEnv && !r.argv.join(' ').includes(ORDERS_KEY)));
    });
  } finally {
    tin.done();
  }
});

test('Test a Secret: a password box, then match, no match, or no handles; nothing logged', { timeout: 300_000 }, async () => {
  const SECRET = 'Bearer s3cr3t-token';
  const WRONG = 'Bearer not-the-token-42';
  await withVsCode({ name: 'tin-test-secret', env: { TIN_REPLAY_KEY: ORDERS_KEY } }, async (vs) => {
    const { page } = vs;
    // A capsule mailed from production: its Authorization header is stored as a secret handle.
    mkdirSync(join(vs.workspace, 'mailed'), { recursive: true });
    copyFileSync(join(TIN_FIXTURES, 'checkout-declined.tcap'), join(vs.workspace, 'mailed', 'checkout-declined.tcap'));
    await openCapsule(vs, 'checkout-declined.tcap');
    await vs.timeline().getByText('/checkout/7').first().waitFor({ timeout: 30_000 });

    const ask = async (capsuleName: string, candidate: string) => {
      await vs.runCommand('Frozen Run: Test a Secret...');
      await quickInput(vs, `Test a secret against ${capsuleName}`);
      const box = page.locator('.quick-input-widget .quick-input-box input[type="password"]');
      await box.waitFor({ timeout: 10_000 });
      await box.fill(candidate);
      await box.press('Enter');
    };

    await ask('checkout-declined.tcap', WRONG);
    await toast(vs, 'Frozen Run: no match. The candidate is not the secret behind any of the 1 handle(s) in this capsule.').waitFor({ timeout: 30_000 });
    await vs.shot('no-match');

    await ask('checkout-declined.tcap', SECRET);
    await toast(vs, 'Frozen Run: match. The candidate is the secret behind: request header Authorization.').waitFor({ timeout: 30_000 });
    await vs.shot('match');

    // A capsule without secret headers says so, without asking for a secret first.
    await openCapsule(vs, 'orders-panic.tcap');
    await vs.runCommand('Frozen Run: Test a Secret...');
    await toast(vs, 'Frozen Run: this capsule holds no secret handles.').waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.quick-input-widget input[type="password"]').isVisible(), false, 'a secret was asked for');
    await vs.shot('no-handles');

    assert.deepEqual(vs.toolchainRuns(), [], 'testing a secret started a toolchain');
    const logs = vs.extensionHostLogs();
    for (const [what, text] of [['the capsule key', ORDERS_KEY], ['the secret', SECRET], ['a wrong candidate', WRONG], ['the secret\'s token', 's3cr3t-token']]) {
      assert.ok(!logs.includes(text), `${what} appears in the extension host logs`);
    }
  });
});
