// A trace of 130,000 goroutines (one op each, 1.3 MB): `inspect` answers (no spread over the
// goroutines), its text lists a few and counts the rest, --json lists every one; the adapter's
// `threads` answer lists at most 1,000 (the one stopped on among them), says so once, and every
// thread id still works.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_LISTED_THREADS } from '../../debug-adapter/thread-list';
import { buildAdapter, launchAndStop, moveAndStop, startAdapter, type Session } from '../dap/support';
import { buildCli, CLI } from '../engine/build-cli';

const N = 130_000;
const dir = mkdtempSync(join(tmpdir(), 'frozen-run-goroutines-'));
const trace = join(dir, 'many.mflrr');
/** 0, 0.1 .. 0.8, 0.1.1, ...: every goroutine spawns up to 8. */
const ids: string[] = ['0'];
for (let i = 0; ids.length < N; i++) for (let k = 1; k <= 8 && ids.length < N; k++) ids.push(`${ids[i]}.${k}`);
before(async () => {
  writeFileSync(trace, `MFLRR 1\nboundary faithful\nprogram /x.mfl\nsafe 1\n${ids.map((id) => `S ${id}\n`).join('')}`);
  await Promise.all([buildCli(), buildAdapter()]);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe(`${N.toLocaleString('en-US')} goroutines`, () => {
  it('inspect: the text lists 16 and counts the rest; --json lists all', () => {
    const text = spawnSync(process.execPath, [CLI, 'inspect', trace, '--no-toolchain'], { encoding: 'utf8' });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${N} schedule ops, 0 I/O records, ${N} goroutines`));
    assert.ok(text.stdout.includes(`… and ${(N - 16).toLocaleString('en-US')} more (--json lists all)`), text.stdout);
    assert.ok(text.stdout.split('\n').length < 40, 'a summary, not a listing');
    const json = spawnSync(process.execPath, [CLI, 'inspect', trace, '--no-toolchain', '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(json.status, 0, json.stderr);
    const threads = (JSON.parse(json.stdout) as { threads: Array<{ id: string; ops: number }> }).threads;
    assert.equal(threads.length, N);
    assert.deepEqual(new Set(threads.map((t) => t.id)), new Set(ids));
  });

  describe('the adapter', () => {
    let s: Session;
    before(async () => {
      s = await startAdapter();
      await launchAndStop(s, { recording: trace, stopOnEntry: true, noToolchain: true });
    });
    after(() => s.dc.stop());

    it(`threads: at most ${MAX_LISTED_THREADS}, with the one stopped on, and the console says why`, async () => {
      const listed = (await s.dc.threadsRequest()).body.threads;
      assert.equal(listed.length, MAX_LISTED_THREADS);
      assert.ok(listed.some((t) => t.id === 1), 'goroutine 0, stopped on at entry');
      assert.ok(s.output.some((o) => o.includes(`${N.toLocaleString('en-US')} goroutines: the Threads view lists 1,000 of them`)), s.output.join(''));
    });

    it('frozenRun/timeline pages its thread list: 10,000 a body, threadsFrom for the rest', async () => {
      const first = (await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body;
      assert.equal(first.threadCount, N);
      assert.equal(first.threads.length, 10_000);
      assert.equal(first.threads[0].id, ids[0]);
      const last = (await s.dc.customRequest('frozenRun/timeline', { count: 0, threadsFrom: 130_000 - 5 })).body;
      assert.equal(last.threadsFrom, N - 5);
      assert.deepEqual(last.threads.map((t: { id: string }) => t.id), ids.slice(-5));
    });

    it('a goroutine beyond the list is reached by a function breakpoint and is then listed', async () => {
      const far = ids[N - 1];
      const set = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${far}` }] });
      assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body.breakpoints[0]));
      const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(stop.body.threadId, N, 'stopped on the last goroutine');
      const listed = (await s.dc.threadsRequest()).body.threads;
      assert.ok(listed.length <= MAX_LISTED_THREADS);
      assert.ok(listed.some((t) => t.id === N && t.name.startsWith(far)), 'the thread stopped on is listed');
      const frames = (await s.dc.stackTraceRequest({ threadId: N })).body.stackFrames;
      assert.ok(frames.length >= 1);
    });
  });
});
