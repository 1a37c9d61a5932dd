// Bad recordings and bad launch configurations end the launch with one clear message (the
// engine's, naming the file and the place), never a crash or a hang of the adapter.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildAdapter, launchAndStop, MACHIN_FIXTURES, startAdapter, traceRecords } from './support';

before(buildAdapter);

describe('launch errors', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-dap-bad-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: string | Uint8Array) => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  const special = (name: string, make: (p: string) => void) => {
    const p = path.join(dir, name);
    make(p);
    return p;
  };

  const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
    ['a FIFO named .mflrr (never waited on)', () => ({ recording: special('pipe.mflrr', (p) => execFileSync('mkfifo', [p])) }), /pipe\.mflrr: not a regular file: it is a named pipe/],
    ['a capsule linked to /dev/zero (never read)', () => ({ recording: special('zero.tcap', (p) => symlinkSync('/dev/zero', p)) }), /zero\.tcap: not a regular file: it is a character device/],
    ['a missing file', () => ({ recording: path.join(dir, 'nope.mflrr') }), /nope\.mflrr.*no such file/],
    ['the empty (deadlock) trace', () => ({ recording: path.join(MACHIN_FIXTURES, 'deadlock/deadlock.mflrr') }), /deadlock\.mflrr.*empty/],
    ['binary garbage', () => ({ recording: write('garbage.mflrr', new Uint8Array([0, 1, 2, 255, 254, 10, 13])) }), /garbage\.mflrr.*not a recording/],
    ['an unknown version', () => ({ recording: write('v9.mflrr', 'MFLRR 9\nboundary faithful\nS 0\n') }), /v9\.mflrr.*(version|9)/i],
    ['bad hex', () => ({ recording: write('hex.mflrr', 'MFLRR 1\nboundary faithful\nprogram /x.mfl\nsafe 0\nI 0 zz\nS 0\n') }), /hex\.mflrr:5: bad hex/],
    ['no recording attribute', () => ({}), /needs `recording`/],
    ['an unknown attribute', () => ({ recording: path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'), stopOnEntri: true }), /Unknown launch attribute.*stopOnEntri/],
    ['a bad time limit', () => ({ recording: path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'), timeLimitSeconds: -1 }), /timeLimitSeconds/],
    ['a bad choice of CPUs for machin', () => ({ recording: path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'), machinReplayCores: 'all' }), /`machinReplayCores` must be "one" .* or "any"/],
  ];
  for (const [what, args, why] of cases) {
    test(`${what}: the launch fails with the message`, async () => {
      const s = await startAdapter();
      try {
        await assert.rejects(s.dc.launchRequest(args() as never), (e: Error) => {
          assert.match(e.message, why);
          return true;
        });
        // The adapter is still alive and answers.
        const threads = await s.dc.threadsRequest();
        assert.deepEqual(threads.body.threads, []);
      } finally {
        await s.dc.stop();
      }
    });
  }

  test('a trace with a cut last line opens with a warning naming the line, without the cut record', async () => {
    const full = readFileSync(path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr'), 'utf8');
    const cut = write('cut.mflrr', full.slice(0, full.length - 3));
    const lines = cut.length;
    assert.ok(lines > 0);
    const s = await startAdapter();
    try {
      await launchAndStop(s, { recording: cut, stopOnEntry: true, noToolchain: true });
      const n = traceRecords(path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr')).length;
      const tl = await s.dc.customRequest('frozenRun/timeline', {});
      assert.equal(tl.body.recordCount, n - 1);
      assert.ok(s.output.some((o) => /line \d+/.test(o)), s.output.join(''));
    } finally {
      await s.dc.stop();
    }
  });
});
