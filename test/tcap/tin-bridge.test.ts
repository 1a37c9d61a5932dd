// The tin bridge: finding tin, the documented report forms and exit codes, the key only in the
// child's environment, --save-test checks before anything runs, and a saved test round trip.
// Runs against tin-standin (test/standins), which prints only documented or recorded output.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { publicTestKey } from '../../replay-engine/tcap/keys';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import { findTin } from '../../replay-engine/tin/find-tin';
import { parseDivergence, parseQuoted, parseReplayReport } from '../../replay-engine/tin/replay-report';
import { runTinReplay } from '../../replay-engine/tin/tin-replay';
import { TIN_FIXTURES } from './support/fixtures';
import { FIXTURE_KEY, randomKeyHex, u8 } from './support/seal';

const TIN_STANDIN_BIN = resolve(__dirname, '..', 'standins', 'bin');
const TIN = join(TIN_STANDIN_BIN, 'tin');
const DECLINED = join(TIN_FIXTURES, 'checkout-declined.tcap');
const SAVED = join(TIN_FIXTURES, 'tests', 'regressions', 'checkout-total.tcap');
const KEY = u8(Buffer.from(FIXTURE_KEY, 'hex'));

function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tin-bridge-'));
  writeFileSync(join(dir, 'checkout.tin'), 'fn main() {}\n');
  return dir;
}

function scenario(dir: string, s: object): void {
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(s));
  process.env.TIN_STANDIN_SCENARIO = join(dir, 'scenario.json');
  process.env.TIN_STANDIN_LOG = join(dir, 'log.jsonl');
}

function log(dir: string): Array<{ argv: string[]; keyInEnv: boolean }> {
  const p = join(dir, 'log.jsonl');
  return existsSync(p) ? readFileSync(p, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

describe('tin report parsing', () => {
  it('status only: faithful', () => {
    const r = parseReplayReport('replay: status 200 (recorded 500)\ntotal 3800\n', '', 0);
    assert.deepEqual(r, { outcome: 'faithful', exitCode: 0, status: 200, recordedStatus: 500, notServed: 0, body: 'total 3800\n' });
  });

  it('divergence with both calls, then effects not served and a multi-line body', () => {
    const out = 'replay: status 500 (recorded 500)\nreplay: divergence at effect 3: got redis@1 "3:GET 6:cart:8\\n", recorded redis@1 "3:GET 6:cart:7\\n"\nreplay: 2 recorded effects not served\nline 1\nreplay: status 1 (recorded 2)\n';
    const r = parseReplayReport(out, '', 3);
    assert.equal(r.outcome, 'diverged');
    assert.deepEqual(r.divergence, { effect: 3, got: { kind: 'redis@1', key: '3:GET 6:cart:8\n' }, recorded: { kind: 'redis@1', key: '3:GET 6:cart:7\n' } });
    assert.equal(r.notServed, 2);
    assert.equal(r.body, 'line 1\nreplay: status 1 (recorded 2)\n', 'report lines only at the top');
  });

  it('a call after the last record: recorded nothing more', () => {
    assert.deepEqual(parseDivergence('replay: divergence at effect 12: got tide.wall@1 "", recorded nothing more'), {
      effect: 12,
      got: { kind: 'tide.wall@1', key: '' },
      recorded: null,
    });
  });

  it('effects left unused without a divergence', () => {
    const r = parseReplayReport('replay: status 200 (recorded 200)\nreplay: 1 recorded effects not served\n', '', 3);
    assert.equal(r.divergence, undefined);
    assert.equal(r.notServed, 1);
    assert.equal(r.body, '');
  });

  it('exit 4 and 2 keep tin\'s message', () => {
    const r = parseReplayReport('', 'capsule: wrong key or damaged\n', 4);
    assert.equal(r.outcome, 'unreadable');
    assert.equal(r.message, 'capsule: wrong key or damaged');
    assert.equal(parseReplayReport('', 'usage: tin replay ...\n', 2).outcome, 'usage');
  });

  it('quoted keys with escapes', () => {
    assert.deepEqual(parseQuoted('"a\\"b\\\\c\\x00\\u00e9\\t"', 0), { text: 'a"b\\c\x00é\t', end: 21 });
    assert.equal(parseQuoted('"unterminated', 0), undefined);
  });
});

describe('tin bridge with tin-standin', () => {
  it('finds tin from the setting, the TIN variable, then PATH, and says how when it cannot', () => {
    assert.equal(findTin({ tinPath: TIN, env: {} }), TIN);
    assert.equal(findTin({ env: { TIN: TIN } }), TIN);
    assert.equal(findTin({ env: { PATH: `/nonexistent:${TIN_STANDIN_BIN}` } }), TIN);
    assert.throws(() => findTin({ env: { PATH: '/nonexistent' } }), (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-missing' && /TIN environment variable/.test(e.message));
    assert.throws(() => findTin({ env: { TIN: '/no/such/tin' } }), /not an executable file/);
  });

  it('a faithful replay: exit 0, the key only in tin\'s environment', async () => {
    const dir = workdir();
    scenario(dir, { status: 500, recorded: 500, body: 'declined\n' });
    const r = await runTinReplay({ tin: TIN, capsule: DECLINED, build: join(dir, 'checkout.tin'), key: KEY, live: ['redis@1'], timeLimitMs: 20_000 });
    assert.equal(r.outcome, 'faithful');
    assert.equal(r.status, 500);
    assert.equal(r.body, 'declined\n');
    const [call] = log(dir);
    assert.deepEqual(call.argv, ['replay', DECLINED, '--against', join(dir, 'checkout.tin'), '--live', 'redis@1']);
    assert.equal(call.keyInEnv, true);
    assert.ok(!JSON.stringify(call.argv).includes(FIXTURE_KEY));
  });

  it('a divergence and effects not served: exit 3, parsed', async () => {
    const dir = workdir();
    scenario(dir, {
      status: 502,
      recorded: 500,
      divergence: { effect: 1, got: { kind: 'wire.http@1', key: 'POST https://pay2.example/charge\n\n' }, recorded: { kind: 'wire.http@1', key: 'POST https://pay.example/charge\nContent-Type: text/plain\n\ncart=sku-1,sku-2' } },
      notServed: 1,
      body: 'bad gateway',
    });
    const r = await runTinReplay({ tin: TIN, capsule: DECLINED, build: join(dir, 'checkout.tin'), key: KEY, timeLimitMs: 20_000 });
    assert.equal(r.exitCode, 3);
    assert.equal(r.outcome, 'diverged');
    assert.equal(r.divergence?.effect, 1);
    assert.equal(r.divergence?.recorded?.key, 'POST https://pay.example/charge\nContent-Type: text/plain\n\ncart=sku-1,sku-2');
    assert.equal(r.notServed, 1);
    assert.equal(r.body, 'bad gateway');
  });

  it('a wrong key: tin exits 4 with its message', async () => {
    const dir = workdir();
    scenario(dir, { status: 500, recorded: 500, body: '' });
    const r = await runTinReplay({ tin: TIN, capsule: DECLINED, build: join(dir, 'checkout.tin'), key: u8(Buffer.from(randomKeyHex(), 'hex')), timeLimitMs: 20_000 });
    assert.equal(r.exitCode, 4);
    assert.equal(r.outcome, 'unreadable');
    assert.equal(r.message, 'capsule: wrong key or damaged');
  });

  it('the saved test: the stdout recorded in its cases.json, with the public test key', async () => {
    const dir = workdir();
    scenario(dir, {});
    const cases = JSON.parse(readFileSync(join(TIN_FIXTURES, 'tests', 'regressions', 'cases.json'), 'utf8'));
    const r = await runTinReplay({ tin: TIN, capsule: SAVED, build: join(dir, 'checkout.tin'), key: publicTestKey(), timeLimitMs: 20_000 });
    assert.equal(r.exitCode, cases[0].expected.exit);
    assert.equal(`replay: status ${r.status} (recorded ${r.recordedStatus})\n${r.body}`, cases[0].expected.stdout);
  });

  it('--save-test: NAME and BUILD checked before anything runs', async () => {
    const dir = workdir();
    scenario(dir, { status: 200, recorded: 500, body: 'ok\n' });
    const base = { tin: TIN, capsule: DECLINED, key: KEY, timeLimitMs: 20_000 };
    for (const [build, name, issue, why] of [
      [join(dir, 'checkout.tin'), '../escape', 7, /plain identifier/],
      [join(dir, 'checkout.tin'), 'a b', 7, /plain identifier/],
      [join(dir, 'checkout.tin'), 'ok_name', 0, /positive issue number/],
      [join(dir, 'missing.tin'), 'ok_name', 7, /no such build/],
      [TIN, 'ok_name', 7, /needs BUILD to be a \.tin file/],
    ] as const) {
      await assert.rejects(runTinReplay({ ...base, build, saveTest: { name, issue } }), (e: unknown) => e instanceof RecordingError && e.code === 'usage' && why.test(e.message));
    }
    assert.deepEqual(log(dir), [], 'tin never ran');
  });

  it('--save-test round trip: the saved capsule opens with no key through its cases.json', async () => {
    const dir = workdir();
    scenario(dir, { status: 200, recorded: 500, body: 'total 3800\n' });
    const r = await runTinReplay({ tin: TIN, capsule: DECLINED, build: join(dir, 'checkout.tin'), key: KEY, saveTest: { name: 'checkout_declined', issue: 242 }, cwd: dir, timeLimitMs: 20_000 });
    assert.equal(r.exitCode, 0);
    const saved = join(dir, 'tests', 'regressions', 'checkout_declined.tcap');
    const rec = await openCapsuleFile(saved, { env: {} });
    const original = await openCapsuleFile(DECLINED, { keyHex: FIXTURE_KEY, env: {} });
    assert.equal(rec.timeline.recordCount, original.timeline.recordCount);
    assert.equal(Buffer.from(rec.header.request).toString(), Buffer.from(original.header.request).toString());
    const cases = JSON.parse(readFileSync(join(dir, 'tests', 'regressions', 'cases.json'), 'utf8'));
    assert.equal(cases[0].issue, 242);
    assert.equal(cases[0].expected.stdout, 'replay: status 200 (recorded 500)\ntotal 3800\n');
  });

  it('a tin that hangs is stopped at the time limit', async () => {
    const dir = workdir();
    const slow = join(dir, 'slow-tin');
    writeFileSync(slow, '#!/bin/sh\nsleep 30\n');
    chmodSync(slow, 0o755);
    copyFileSync(DECLINED, join(dir, 'c.tcap'));
    await assert.rejects(
      runTinReplay({ tin: slow, capsule: join(dir, 'c.tcap'), build: join(dir, 'checkout.tin'), key: KEY, timeLimitMs: 300 }),
      (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-timeout',
    );
  });
});
