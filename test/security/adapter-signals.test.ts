// The standalone adapter (`node dist/debug-adapter.js`) killed by SIGTERM, SIGINT or SIGHUP while
// machin replays: machin's process group is ended and the temporary copies (the trace copy, the
// instrumented program's folder, machin's private TMPDIR) are removed before it exits. With the
// real machin on a trace whose program was changed after recording, so the replay never ends.
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MACHIN_FIXTURES } from '../support/paths';
import { assertSecurityRow } from '../support/security-row';
import { buildAdapter, machinEnv, startAdapter } from '../dap/support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every process whose parent is `pid`, with its process group. */
function children(pid: number): Array<{ pid: number; pgid: number; command: string }> {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && Number(f[1]) === pid)
    .map((f) => ({ pid: Number(f[0]), pgid: Number(f[2]), command: f.slice(3).join(' ') }));
}

/** The processes of group `pgid` still running (a zombie is dead: this container's init may never reap it). */
function groupAlive(pgid: number): string[] {
  const out = execFileSync('ps', ['-e', '-o', 'pgid=,stat=,pid=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && Number(f[0]) === pgid && !f[1].startsWith('Z'))
    .map((f) => `${f[2]} ${f.slice(3).join(' ')}`);
}

async function until<T>(what: string, get: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('the standalone adapter stopped by a signal during a replay that never ends', () => {
  let dir = '';
  before(async () => {
    await buildAdapter();
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-adapter-signals-'));
    copyFileSync(path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr'), path.join(dir, 'pipeline.mflrr'));
    // Changed after recording: machin then waits forever for a schedule the trace does not have.
    const program = readFileSync(path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mfl'), 'utf8').replace('go source(mid, 4)', 'go source(mid, 40)');
    writeFileSync(path.join(dir, 'pipeline.mfl'), program);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
    test(`${signal}: machin's group is ended, no temporary folder is left, exit ${code}`, async () => {
      const tmp = mkdtempSync(path.join(dir, `tmp-${signal}-`));
      const s = await startAdapter(machinEnv({ TMPDIR: tmp }));
      const adapter = (s.dc as unknown as { _adapterProcess: ChildProcess })._adapterProcess;
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => adapter.once('exit', (c, sig) => resolve({ code: c, signal: sig })));
      // Replay to Panic with source level: the instrumented copy is written, then machin replays.
      s.dc.launchRequest({ recording: path.join(dir, 'pipeline.mflrr'), replayToPanic: true, timeLimitSeconds: 300 } as never).catch(() => undefined);
      const machin = await until('machin to start', () => children(adapter.pid!).find((c) => c.command.startsWith('machin')));
      await sleep(500); // machin compiles the program and waits in its replay
      const made = readdirSync(tmp);
      assert.ok(made.some((n) => n.startsWith('frozen-run-machin-')), `the copies are there while it runs: ${made.join(', ')}`);
      adapter.kill(signal);
      const end = await exited;
      assert.deepEqual(end, { code, signal: null }, 'exits with the signal\'s status after its clean-up');
      assert.deepEqual(groupAlive(machin.pgid), [], "machin's process group outlived the adapter");
      assert.deepEqual(readdirSync(tmp), [], 'a temporary folder was left');
      const seen = `while machin ran: ${made.length} temporary folder${made.length === 1 ? '' : 's'}; after: ${groupAlive(machin.pgid).length} processes of machin's group, ${readdirSync(tmp).length} temporary folders`;
      assertSecurityRow(`adapter: ${signal} during a replay that never ends`, String(end.code), seen);
    });
  }
});
