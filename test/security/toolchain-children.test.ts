// Toolchain children never outlive a stop, and never see the capsule key. The child here is a
// small script put in machin's place, one that will not stop: it ignores SIGTERM and starts a
// grandchild that ignores it too (the real machin on a cut trace waits forever; this one also
// refuses to die politely). Stopping it by time limit, cancel, Ctrl-C or SIGTERM of the CLI, or a
// DAP disconnect must kill the whole group, wait for it, and only then remove the trace copy.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { isKeyVariable, toolchainEnv } from '../../replay-engine/toolchain/child-env';
import { runningProcessCount, runProcess, stopAllProcesses } from '../../replay-engine/toolchain/run-process';
import { buildCli, CLI } from '../engine/build-cli';
import { buildAdapter, startAdapter } from '../dap/support';
import { MACHIN_FIXTURES } from '../support/paths';

const KEY = 'ab'.repeat(32);
const root = mkdtempSync(join(tmpdir(), 'frozen-run-children-'));
after(() => rmSync(root, { recursive: true, force: true }));

/**
 * `guide --json` answers like machin 0.137.0; `replay` writes its pid, the trace copy's path and
 * its environment to $CHILD_LOG, then (with CHILD_HANG=1) ignores TERM and waits on a grandchild
 * that ignores it too.
 */
const STUBBORN = join(root, 'stubborn-machin');
writeFileSync(
  STUBBORN,
  `#!/bin/bash
if [ "$1" = guide ]; then echo '{"version":"0.137.0"}'; exit 0; fi
trap '' TERM
{ echo "pid $$"; echo "copy $2"; env | sed 's/^/env /'; } >> "$CHILD_LOG"
[ "$CHILD_HANG" = 1 ] || exit 3
sleep 1000 &
echo "pid $!" >> "$CHILD_LOG"
wait
`,
);
chmodSync(STUBBORN, 0o755);

let n = 0;
/** A folder with the crash trace and its program, a private TMPDIR and a log for the child. */
function scene(): { dir: string; trace: string; tmp: string; log: string } {
  const dir = join(root, `scene-${n++}`);
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), join(dir, 'crash.mflrr'));
  copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mfl'), join(dir, 'crash.mfl'));
  return { dir, trace: join(dir, 'crash.mflrr'), tmp: join(dir, 'tmp'), log: join(dir, 'child.log') };
}
const logLines = (log: string, tag: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith(`${tag} `)).map((l) => l.slice(tag.length + 1)) : []);
/** Running: it exists and is not a zombie (a killed grandchild waits for a reaper that a container may lack). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
/** Both the child and its grandchild started (two pids logged). */
const bothStarted = (log: string) => () => logLines(log, 'pid').length >= 2;
function assertAllGone(log: string, replays: 'one' | 'side by side' = 'one'): void {
  const pids = logLines(log, 'pid').map(Number);
  // (at source level the plain and the instrumented replay run side by side: two of each, once both started)
  if (replays === 'one') assert.equal(pids.length, 2, 'the child and its grandchild had started');
  else assert.ok(pids.length >= 2 && pids.length <= 4, `the children and their grandchildren had started: ${pids.join(', ')}`);
  for (const pid of pids) assert.ok(!alive(pid), `process ${pid} is still running`);
}

describe('toolchain children: the process group is stopped on every exit path', () => {
  it('a cancel kills a child that ignores SIGTERM and its grandchild before runProcess answers', async () => {
    const s = scene();
    const abort = new AbortController();
    const run = runProcess(STUBBORN, ['replay', 'x'], { timeLimitMs: 60_000, signal: abort.signal, env: { CHILD_LOG: s.log, CHILD_HANG: '1' } });
    await until('the child', bothStarted(s.log));
    abort.abort();
    await assert.rejects(run, (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
    assertAllGone(s.log);
    assert.equal(runningProcessCount(), 0);
  });

  it('the time limit does the same', async () => {
    const s = scene();
    const started = Date.now();
    const run = runProcess(STUBBORN, ['replay', 'x'], { timeLimitMs: 400, env: { CHILD_LOG: s.log, CHILD_HANG: '1' } });
    await assert.rejects(run, (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-timeout');
    assert.ok(Date.now() - started >= 400);
    assertAllGone(s.log);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} of the CLI: the group is killed and waited for, the trace copy removed, exit ${code}`, async () => {
      await buildCli();
      const s = scene();
      const cli = spawn(process.execPath, [CLI, 'inspect', s.trace, '--machin', STUBBORN], {
        cwd: s.dir,
        env: { PATH: '/usr/bin:/bin', TMPDIR: s.tmp, CHILD_LOG: s.log, CHILD_HANG: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((r) => cli.on('exit', (c) => r(c)));
      await until('machin replay', bothStarted(s.log));
      const copy = logLines(s.log, 'copy')[0];
      assert.ok(copy.startsWith(s.tmp) && existsSync(copy), `machin was given a temporary copy: ${copy}`);
      cli.kill(signal);
      assert.equal(await exited, code);
      assertAllGone(s.log);
      assert.ok(!existsSync(copy), 'the temporary copy was removed');
      assert.deepEqual(readdirSync(s.tmp), [], 'nothing is left in the temporary folder');
    });
  }

  it('a DAP disconnect answers only after the group is dead and the copy removed', async () => {
    await buildAdapter();
    const s = scene();
    const session = await startAdapter({ PATH: '/usr/bin:/bin', HOME: s.dir, TMPDIR: s.tmp, CHILD_LOG: s.log, CHILD_HANG: '1', MACHIN: STUBBORN });
    const launch = session.dc.launchRequest({ recording: s.trace } as never).catch(() => undefined);
    await until('machin replay', bothStarted(s.log));
    const copy = logLines(s.log, 'copy')[0];
    await session.dc.disconnectRequest({});
    assertAllGone(s.log, 'side by side');
    assert.ok(!existsSync(copy), 'the temporary copy was removed before the answer');
    await launch;
    await session.dc.stop();
  });

  it('stopAllProcesses waits for every child and then starts none', async () => {
    const s = scene();
    const run = runProcess(STUBBORN, ['replay', 'x'], { timeLimitMs: 60_000, env: { CHILD_LOG: s.log, CHILD_HANG: '1' } });
    await until('the child', bothStarted(s.log));
    await stopAllProcesses();
    assertAllGone(s.log);
    await assert.rejects(run, /cancelled/);
    await assert.rejects(runProcess(STUBBORN, ['guide'], { timeLimitMs: 1000 }), /cancelled before it started/);
  });
});

describe('toolchain children: no capsule key in machin\'s environment', () => {
  before(buildCli);

  it('TIN_REPLAY_KEY in the CLI\'s environment does not reach machin', async () => {
    const s = scene();
    const cli = spawn(process.execPath, [CLI, 'inspect', s.trace, '--machin', STUBBORN], {
      cwd: s.dir,
      env: { PATH: '/usr/bin:/bin', TMPDIR: s.tmp, CHILD_LOG: s.log, TIN_REPLAY_KEY: KEY, TIN_SPOOL_KEY: KEY },
      stdio: 'ignore',
    });
    assert.equal(await new Promise((r) => cli.on('exit', r)), 0);
    const env = logLines(s.log, 'env');
    assert.ok(env.some((l) => l.startsWith('CHILD_LOG=')), 'the child got the rest of the environment');
    assert.ok(!env.some((l) => l.includes(KEY)), `the key reached machin: ${env.filter((l) => l.includes(KEY)).join(', ')}`);
  });

  it('only tin is given the key, explicitly', () => {
    assert.ok(isKeyVariable('TIN_REPLAY_KEY') && isKeyVariable('tin_replay_key') && isKeyVariable('TIN_SPOOL_KEY'));
    assert.ok(!isKeyVariable('PATH') && !isKeyVariable('MACHIN') && !isKeyVariable('KEYBOARD'));
    const env = toolchainEnv({ PATH: '/bin', TIN_REPLAY_KEY: KEY }, { TIN_REPLAY_KEY: 'cd'.repeat(32) });
    assert.deepEqual(env, { PATH: '/bin', TIN_REPLAY_KEY: 'cd'.repeat(32) });
    assert.deepEqual(toolchainEnv({ PATH: '/bin', TIN_REPLAY_KEY: KEY }), { PATH: '/bin' });
  });
});
