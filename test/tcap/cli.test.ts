// The capsule commands as a user runs them (`node dist/cli.js`, built by `npm test`): inspect,
// secret and against; exit codes, JSON, and no key in any output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT, TIN_STANDIN_BIN } from '../support/paths';
import { fixtureCapsules, TIN_FIXTURES } from './support/fixtures';
import { FIXTURE_KEY, randomKeyHex } from './support/seal';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const DECLINED = join(TIN_FIXTURES, 'checkout-declined.tcap');
const SAVED_KEY = '66635afebc9df23939d9034ba9fbb0b86424f647e7af4fd762617ce777b84989';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!('TIN_REPLAY_KEY' in extra)) delete env.TIN_REPLAY_KEY;
  return env;
}

function run(args: string[], env = cleanEnv(), input?: string): Run {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env, input, cwd: REPO_ROOT, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cli = (args: string[], env?: NodeJS.ProcessEnv, input?: string) => run([CLI, ...args], env, input);
const tcap = cli;

/** No key, in any case, anywhere in what a run printed. */
function assertNoKey(r: Run, ...keys: string[]): void {
  for (const k of keys) {
    assert.ok(!r.stdout.toLowerCase().includes(k.toLowerCase()), 'key in stdout');
    assert.ok(!r.stderr.toLowerCase().includes(k.toLowerCase()), 'key in stderr');
  }
}

describe('frozen-run capsule commands', () => {
  before(() => {
    if (!existsSync(CLI)) {
      const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
      assert.equal(b.status, 0, b.stderr);
    }
  });

  it('inspect --json: every fixture, exact wall, effects with dataHex and decoded forms', () => {
    for (const { capsule, expected } of fixtureCapsules().filter((f) => !f.expected.error && f.name !== 'batch-100k')) {
      const r = cli(['inspect', capsule, '--key', expected.key, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assertNoKey(r, expected.key);
      const j = JSON.parse(r.stdout);
      assert.equal(j.format, 'tcap');
      assert.equal(j.wall, expected.wallExact);
      assert.equal(j.status, expected.status);
      assert.equal(j.request.raw, expected.request);
      assert.deepEqual(
        j.effects.map((e: { seq: number; kind: string; key: string; outcome: string; ident: number; dataHex: string }) => ({ seq: e.seq, kind: e.kind, key: e.key, outcome: e.outcome, ident: e.ident, data_hex: e.dataHex })),
        expected.effects,
      );
      assert.ok(j.effects.every((e: { decoded: { key: unknown } }) => e.decoded.key));
    }
  });

  it('inspect: a short summary; the key from TIN_REPLAY_KEY; the saved test with no key', () => {
    const r = cli(['inspect', DECLINED], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Request: POST \/checkout\/7 HTTP\/1\.1/);
    assert.match(r.stdout, /1\s+redis@1/);
    assertNoKey(r, FIXTURE_KEY);
    const saved = cli(['inspect', join(TIN_FIXTURES, 'tests', 'regressions', 'checkout-total.tcap'), '--json']);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(JSON.parse(saved.stdout).effects.length, 2);
    assertNoKey(saved, SAVED_KEY);
  });

  it('inspect: wrong key, tampered, cut and unknown kind exit 1 with one line, never the key', () => {
    const wrong = randomKeyHex();
    const dir = mkdtempSync(join(tmpdir(), 'tcap-cli-'));
    const cut = join(dir, 'cut.tcap');
    writeFileSync(cut, readFileSync(DECLINED).subarray(0, 300).toString('latin1'), 'latin1');
    for (const [file, key, text] of [
      [DECLINED, wrong, 'capsule: wrong key or damaged'],
      [join(TIN_FIXTURES, 'tampered.tcap'), FIXTURE_KEY, 'capsule: wrong key or damaged'],
      [cut, FIXTURE_KEY, 'capsule: wrong key or damaged'],
      [join(TIN_FIXTURES, 'unknown-kind.tcap'), FIXTURE_KEY, 'effect 0 has kind grpc@1, which this reader cannot show'],
    ] as const) {
      const r = cli(['inspect', file, '--key', key, '--json']);
      assert.equal(r.code, 1, `${file}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.includes(text), r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
      assertNoKey(r, key);
    }
    const nokey = cli(['inspect', DECLINED]);
    assert.equal(nokey.code, 1);
    assert.match(nokey.stderr, /no key was given.*TIN_REPLAY_KEY.*--key/);
  });

  it('secret: yes (exit 0) and no (exit 3), the candidate from stdin, never the key or the candidate', () => {
    const yes = tcap(['secret', DECLINED, '-', '--key', FIXTURE_KEY], cleanEnv(), 'Bearer s3cr3t-token\n');
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(yes.stdout, 'yes: the text is the secret behind tin-secret:f17ba59efeb3aa30418783a3f4076a53 (request header Authorization)\n');
    assertNoKey(yes, FIXTURE_KEY, 's3cr3t');
    const no = tcap(['secret', DECLINED, 'Bearer guess', '--key', FIXTURE_KEY]);
    assert.equal(no.code, 3);
    assert.match(no.stdout, /^no: the text is not the secret behind any of the 1 handle in this capsule/);
    const json = tcap(['secret', DECLINED, 'Bearer s3cr3t-token', '--json'], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    assert.equal(JSON.parse(json.stdout).matches[0].where, 'request header Authorization');
    assertNoKey(json, FIXTURE_KEY);
    const wrong = tcap(['secret', DECLINED, 'x', '--key', randomKeyHex()]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /capsule: wrong key or damaged/);
    assert.equal(tcap(['secret', DECLINED]).code, 2, 'usage');
  });

  it('against: the stand-in tin\'s report, exit codes passed through, --json, the key never printed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcap-against-'));
    const build = join(dir, 'checkout.tin');
    writeFileSync(build, 'fn main() {}\n');
    const scenario = join(dir, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ status: 500, recorded: 500, divergence: { effect: 2, got: { kind: 'redis@1', key: '3:GET 6:cart:8\n' }, recorded: null }, body: 'declined' }));
    const env = cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY, TIN_STANDIN_SCENARIO: scenario, PATH: `${TIN_STANDIN_BIN}:${process.env.PATH}` });
    const text = tcap(['against', DECLINED, build, '--live', 'redis@1'], env);
    assert.equal(text.code, 3, text.stderr);
    assert.equal(text.stdout, 'replay: status 500 (recorded 500)\nreplay: divergence at effect 2: got redis@1 "3:GET 6:cart:8\\n", recorded nothing more\ndeclined\n');
    assert.match(text.stderr, /diverged at effect 2/);
    assertNoKey(text, FIXTURE_KEY);
    const json = tcap(['against', DECLINED, build, '--json'], env);
    const j = JSON.parse(json.stdout);
    assert.deepEqual(j.divergence, { effect: 2, got: { kind: 'redis@1', key: '3:GET 6:cart:8\n' }, recorded: null });
    assert.equal(j.outcome, 'diverged');
    assertNoKey(json, FIXTURE_KEY);
    // Checked before tin runs: a bad test name, a wrong key.
    const bad = tcap(['against', DECLINED, build, '--save-test', '../x', '--issue', '3'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /plain identifier/);
    const wrong = randomKeyHex();
    const wrongKey = tcap(['against', DECLINED, build, '--key', wrong], env);
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /capsule: wrong key or damaged/);
    assertNoKey(wrongKey, wrong, FIXTURE_KEY);
    // The saved test: no key at all, tin's recorded output.
    const savedDir = mkdtempSync(join(tmpdir(), 'tcap-saved-'));
    for (const f of ['cases.json', 'checkout-total.tcap']) copyFileSync(join(TIN_FIXTURES, 'tests', 'regressions', f), join(savedDir, f));
    const saved = tcap(['against', join(savedDir, 'checkout-total.tcap'), build], cleanEnv({ PATH: `${TIN_STANDIN_BIN}:${process.env.PATH}` }));
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(saved.stdout, 'replay: status 200 (recorded 500)\ntotal 3800\n');
    assertNoKey(saved, SAVED_KEY);
  });
});
