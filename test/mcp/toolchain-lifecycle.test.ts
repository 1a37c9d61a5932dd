// The MCP server with the real machin (issue 27 point 3, issue 31 point 1): an open that runs
// machin reports each phase as progress; a cancelled open ends machin's process group (machin and
// the program it compiled), removes the temporary copies and leaves no handle used; and a client
// that goes away, or SIGTERM / SIGINT to the server, in the middle of a replay that never ends
// (the program changed since the recording: machin waits forever) ends them all too.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MACHIN_FIXTURES } from '../support/paths';
import { assertSecurityRow, cleanEnv, MACHIN, McpSession } from './support';

const root = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-toolchain-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** The crash trace and its program in a folder of their own, a private TMPDIR for the server. */
function scene(changed: boolean): { dir: string; trace: string; tmp: string } {
  const dir = join(root, `scene-${n++}`);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  copyFileSync(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), join(dir, 'crash.mflrr'));
  const program = readFileSync(join(MACHIN_FIXTURES, 'crash/crash.mfl'), 'utf8');
  // One worker fewer: the replay waits forever for the turn the trace gives to goroutine 0.2.
  writeFileSync(join(dir, 'crash.mfl'), changed ? program.replace('    go worker(ch, 7)\n', '') : program);
  return { dir, trace: join(dir, 'crash.mflrr'), tmp };
}

const start = (tmp: string) => McpSession.start(['--toolchain', '--machin', MACHIN, '--time-limit', '300'], cleanEnv({ TMPDIR: tmp }));

/** Processes (other than the server) whose environment has this TMPDIR, or one inside it: machin and what it compiled and runs. */
function childrenOf(tmp: string, server: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === server) continue;
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue; // a zombie runs nothing
      // (machin runs with a private TMPDIR inside the server's temporary folder: the copy's)
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').some((v) => v === `TMPDIR=${tmp}` || v.startsWith(`TMPDIR=${tmp}/`))) out.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The server's temporary copies (the trace copy's folder, the instrumented program's): none may be left. */
const copiesIn = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith('frozen-run'));

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('MCP server with the real machin: progress, cancel, and what a stop leaves running', () => {
  it('an open that runs machin reports each phase as progress, in order, to the request that asked', async () => {
    const sc = scene(false);
    const s = await start(sc.tmp);
    try {
      const seen: Array<{ progress: number; message?: string }> = [];
      const r = await s.call('open_recording', { path: sc.trace }, { onprogress: (p) => seen.push(p), timeout: 120_000 });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.json.panicAt.message.length > 0, true);
      const messages = seen.map((p) => p.message ?? '');
      assert.match(messages[0], /^reading .*crash\.mflrr$/);
      for (const phase of [/machin: replaying the trace for the panic and the verdict/, /machin: replaying against the instrumented program/, /building the statement index/, /statement index ready/, /ready/]) {
        assert.ok(messages.some((m) => phase.test(m)), `${phase} in ${JSON.stringify(messages)}`);
      }
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, 'progress goes up');
      // The same file again: the held recording, no second replay.
      assert.equal((await s.ok('open_recording', { path: sc.trace })).recording, r.json.recording);
    } finally {
      await s.close();
    }
  });

  it('a cancelled open ends machin and its program, removes the copies, and uses no handle', async () => {
    const sc = scene(true);
    const s = await start(sc.tmp);
    try {
      const ac = new AbortController();
      const open = s.call('open_recording', { path: sc.trace }, { signal: ac.signal, timeout: 120_000 }).then(() => 'answered', (e: Error) => e.message);
      await until('machin runs', () => childrenOf(sc.tmp, s.pid).length > 0, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      ac.abort('the agent gave up');
      const said = await open;
      assert.match(said, /gave up|abort/i);
      assert.equal(s.stderr(), '', 'a cancel is no error of the server');
      await until('machin and its program end', () => childrenOf(sc.tmp, s.pid).length === 0, 5_000);
      await until('the copies go', () => copiesIn(sc.tmp).length === 0, 5_000);
      // The server is up, and the cancelled open took no handle.
      const other = scene(false);
      const next = await s.call('open_recording', { path: other.trace }, { timeout: 120_000 });
      assert.equal(next.json.recording, 'r1');
      assertSecurityRow('MCP: an open_recording cancelled during a replay that never ends', 'error', `${said}; machin and its program ended, the copies removed, no handle used; the next open is ${JSON.stringify({ recording: next.json.recording })}`);
    } finally {
      await s.close();
    }
  });

  it('`program` is an argument of open_recording, as the warnings say, within the trace\'s folder (or --program-root)', async () => {
    const sc = scene(false);
    // The program under another name: the trace's `program` line finds nothing.
    copyFileSync(join(sc.dir, 'crash.mfl'), join(sc.dir, 'renamed.mfl'));
    rmSync(join(sc.dir, 'crash.mfl'));
    const s = await start(sc.tmp);
    try {
      const missing = await s.ok('open_recording', { path: sc.trace });
      const warning = missing.warnings.find((w: { code: string }) => w.code === 'program-missing')?.message ?? '';
      assert.match(warning, /give open_recording's `program` argument/);
      assert.doesNotMatch(warning, /workspace|set program/);
      assert.equal(missing.panicAt, null);
      const named = await s.ok('open_recording', { path: sc.trace, program: join(sc.dir, 'renamed.mfl') });
      assert.equal(named.panicAt.message, 'index out of range [12] with length 2');
      const elsewhere = join(root, 'elsewhere.mfl');
      copyFileSync(join(sc.dir, 'renamed.mfl'), elsewhere);
      assert.match(await s.error('open_recording', { path: sc.trace, program: elsewhere }), /outside the folders whose programs this server may run.*--program-root/);
    } finally {
      await s.close();
    }
  });

  for (const how of ['the client closes', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${how} during a replay that never ends: machin and its program end, copies removed, the server exits`, async () => {
      const sc = scene(true);
      const s = await start(sc.tmp);
      const pid = s.pid;
      const open = s.call('open_recording', { path: sc.trace }, { timeout: 120_000 }).catch((e: Error) => e.message);
      await until('machin runs', () => childrenOf(sc.tmp, pid).length > 0, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      // machin, and the program it compiled (mfl-replay-*), both running.
      await until('the compiled program runs', () => childrenOf(sc.tmp, pid).some((p) => /mfl-replay-/.test(cmdline(p))), 10_000);
      assert.ok(childrenOf(sc.tmp, pid).some((p) => /machin replay/.test(cmdline(p))), 'machin is running');
      const started = Date.now();
      if (how === 'the client closes') await s.close();
      else process.kill(pid, how);
      await until('the server exits', () => !alive(pid), 8_000);
      // Every process it started is gone by the time it has exited, and so are its copies.
      assert.deepEqual(childrenOf(sc.tmp, pid), [], `left running: ${childrenOf(sc.tmp, pid).join(', ')}`);
      assert.deepEqual(copiesIn(sc.tmp), []);
      assert.ok(Date.now() - started < 8_000);
      // The server's last words may still be in the pipe when /proc says it has exited.
      await until('the server says why it stopped', () => /(the client closed the connection|stopped by SIG\w+)[^\n]*\n/.test(s.stderr()), 5_000);
      const said = s.stderr().trim().split('\n').pop() ?? '';
      assertSecurityRow(`MCP: ${how} during a replay that never ends`, { SIGTERM: '143', SIGINT: '130', SIGHUP: '129', 'the client closes': '0' }[how], said);
      await open;
      if (how !== 'the client closes') await s.close();
    });
  }
});
