// Bad input to every tool: one line naming the file or the argument and what to do, as a tool
// error (never a stack trace, never a crash: the server answers the next call). Where the CLI
// answers the same question, the message is the CLI's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GEN_MFLRR, MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';
import { FIXTURE_KEY, randomKeyHex } from '../tcap/support/seal';
import { cleanEnv, cliError, MACHIN, McpSession } from './support';

const CRASH = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
const STDIN = join(MACHIN_FIXTURES, 'stdin', 'stdin.mflrr');
const ORDERS = join(TIN_FIXTURES, 'orders-panic.tcap');
const TAMPERED = join(TIN_FIXTURES, 'tampered.tcap');
const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-bad-'));
const files = {
  empty: join(DIR, 'empty.mflrr'),
  text: join(DIR, 'notes.txt'),
  badHex: join(DIR, 'bad-hex.mflrr'),
  garbage: join(DIR, 'garbage.mflrr'),
  missing: join(DIR, 'no-such.mflrr'),
};
writeFileSync(files.empty, '');
writeFileSync(files.text, 'hello, this is not a recording\n');
writeFileSync(files.badHex, 'MFLRR 1\nboundary faithful\nprogram /x.mfl\nsafe 1\nS 0\nI 0 zz12\nS 0\n');
writeFileSync(files.garbage, Buffer.concat([Buffer.from('MFLRR 1\nboundary faithful\n'), Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256))]));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** One line, no stack frame, no internal error. */
function assertClear(message: string, ...want: RegExp[]): void {
  assert.ok(!message.includes('\n'), `one line: ${message}`);
  assert.ok(!/\n\s+at |\bat .*\.js:\d+/.test(message), `no stack trace: ${message}`);
  assert.ok(!/internal error/.test(message), message);
  for (const w of want) assert.match(message, w);
}

describe('MCP server: bad input to every tool', () => {
  let s: McpSession;
  before(async () => {
    s = await McpSession.start();
  });
  after(() => s.close());

  it('open_recording: each unreadable file is the CLI\'s own one-line error', async () => {
    for (const f of Object.values(files)) {
      const got = await s.error('open_recording', { path: f });
      assertClear(got, new RegExp(f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(got, cliError(['inspect', f, '--no-toolchain']), f);
    }
    assertClear(await s.error('open_recording', { path: DIR }), /folder/);
    assertClear(await s.error('open_recording', {}), /path/);
    assertClear(await s.error('open_recording', { path: 42 }), /path/);
    // A capsule without a key, and a changed byte.
    const nokey = await s.error('open_recording', { path: ORDERS });
    assertClear(nokey, /no key was given/, /TIN_REPLAY_KEY/, /--key-file/);
    // The CLI's message, worded for MCP: no VS Code command, no --key the server refuses.
    assert.doesNotMatch(nokey, /Frozen Run: Set Capsule Key|--key HEX/);
    assert.match(cliError(['inspect', ORDERS]), /Set Capsule Key/);
  });

  it('get_state: positions and records past the end, unknown threads, wrong types', async () => {
    assertClear(await s.error('get_state', { recording: CRASH, position: 5 }), /position 5 is past the end/, /0 to 4/);
    assertClear(await s.error('get_state', { recording: CRASH, record: 99 }), /record 99 is outside/);
    assertClear(await s.error('get_state', { recording: CRASH, position: -1 }), /position/);
    assertClear(await s.error('get_state', { recording: CRASH, position: 'end' }), /position/);
    assertClear(await s.error('get_state', { recording: CRASH, thread: '7.7' }), /no goroutine 7\.7/, /0\.1/);
    assertClear(await s.error('get_state', { recording: 'r999' }), /no open recording r999/, /open_recording/);
    assertClear(await s.error('get_state', { recording: files.missing }), /no such file/);
    assertClear(await s.error('get_state', { recording: CRASH, threads_limit: 100000 }), /threads_limit/);
  });

  it('move: unknown actions, goto with nothing to go to, bad conditions and breakpoints', async () => {
    assertClear(await s.error('move', { recording: CRASH, action: 'fly' }), /action/);
    assertClear(await s.error('move', { recording: CRASH, action: 'goto' }), /goto needs a position/);
    assertClear(await s.error('move', { recording: CRASH, action: 'goto', position: 40 }), /past the end/);
    assertClear(await s.error('move', { recording: CRASH, action: 'step_in', until: { condition: 'op > 1' } }), /until.*continue/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { condition: 'op >' } }), /condition/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { breakpoint: 'nosuchkind' } }), /neither a record kind/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { line: 2 } }), /line 2 holds no record/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { key: 'x' } }), /until/);
    assertClear(await s.error('move', { recording: CRASH, action: 'next', thread: '9' }), /no goroutine 9/);
    assertClear(await s.error('move', { recording: CRASH, action: 'to_panic' }), /no panic is known/, /--toolchain/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { variable: 'idx' } }), /no value histories/, /--toolchain/);
    assertClear(await s.error('move', { recording: CRASH, action: 'continue', until: { thread: '0' } }), /until.thread.*until.variable/);
    // A failed move leaves the cursor where it was and the breakpoints cleared.
    const state = await s.ok('get_state', { recording: CRASH });
    assert.equal(state.record, -1);
    const end = await s.ok('move', { recording: CRASH, action: 'continue' });
    assert.equal(end.atEnd, true);
  });

  it('variable_history and find_value_change: no toolchain, unknown variables and goroutines', async () => {
    assertClear(await s.error('variable_history', { recording: CRASH, variable: 'idx' }), /no value histories/, /--toolchain/);
    assertClear(await s.error('find_value_change', { recording: CRASH, variable: 'idx', thread: '0', direction: 'backward' }), /--toolchain/);
    assertClear(await s.error('find_value_change', { recording: CRASH, variable: 'idx', thread: '0', direction: 'sideways' }), /direction/);
    assertClear(await s.error('variable_history', { recording: CRASH }), /variable/);
    const machin = await McpSession.start(['--toolchain', '--machin', MACHIN]);
    try {
      const unknown = await machin.error('variable_history', { recording: CRASH, variable: 'nosuch' });
      assertClear(unknown, /no values of `nosuch`/, /idx/);
      // The CLI's words (both replay the program at source level, which also prints worker's parameter v).
      assert.equal(unknown, cliError(['history', CRASH, 'nosuch', '--machin', MACHIN]));
      const thread = await machin.error('variable_history', { recording: CRASH, variable: 'idx', thread: '5' });
      assert.equal(thread, cliError(['history', CRASH, 'idx', '--goroutine', '5', '--machin', MACHIN]));
      assertClear(await machin.error('find_value_change', { recording: CRASH, variable: 'idx', thread: '0', direction: 'forward', position: 9 }), /past the end/);
      const none = await machin.ok('find_value_change', { recording: CRASH, variable: 'idx', thread: '0', direction: 'forward', position: 4 });
      assert.equal(none.found, false);
    } finally {
      await machin.close();
    }
  });

  it('list_records and causal_chain: unknown kinds, clashing ranges, limits', async () => {
    assertClear(await s.error('list_records', { recording: CRASH, kind: 'redis' }), /no records of kind `redis`/, /sched/);
    assertClear(await s.error('list_records', { recording: CRASH, from_record: 0, from_position: 1 }), /not both/);
    assertClear(await s.error('list_records', { recording: CRASH, from_position: 99 }), /past the end/);
    assertClear(await s.error('list_records', { recording: CRASH, limit: 0 }), /limit/);
    assertClear(await s.error('list_records', { recording: CRASH, thread: 'main2' }), /no goroutine main2/);
    const empty = await s.ok('list_records', { recording: CRASH, from_record: 1000 });
    assert.deepEqual(empty.records, []);
    assertClear(await s.error('causal_chain', { recording: CRASH, position: 99 }), /past the end/);
    const noPanic = await s.ok('causal_chain', { recording: CRASH });
    assert.equal(noPanic.panic, null);
    assert.match(noPanic.why, /--toolchain/);
  });

  it('compare_recordings: different programs, unreadable files', async () => {
    const got = await s.error('compare_recordings', { a: CRASH, b: STDIN });
    assertClear(got, /crash/, /stdin/);
    assert.equal(got, cliError(['compare', CRASH, STDIN, '--no-toolchain']));
    assertClear(await s.error('compare_recordings', { a: CRASH, b: files.missing }), /no such file/);
    assertClear(await s.error('compare_recordings', { a: CRASH }), /b/);
  });

  it('test_secret: on a trace, with a wrong key, on a changed byte', async () => {
    assertClear(await s.error('test_secret', { recording: CRASH, candidate: 'x' }), /not a Tin capsule/);
    assertClear(await s.error('test_secret', { recording: ORDERS }), /candidate/);
    const wrongEnv = cleanEnv({ TIN_REPLAY_KEY: randomKeyHex() });
    const wrong = await McpSession.start([], wrongEnv);
    try {
      const msg = await wrong.error('test_secret', { recording: ORDERS, candidate: 'x' });
      assertClear(msg, /wrong key or damaged/);
      assert.equal(msg, cliError(['secret', ORDERS, 'x'], wrongEnv));
      assert.ok(!msg.includes(wrongEnv.TIN_REPLAY_KEY));
    } finally {
      await wrong.close();
    }
    const right = await McpSession.start([], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    try {
      const msg = await right.error('open_recording', { path: TAMPERED });
      assert.equal(msg, cliError(['inspect', TAMPERED], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY })));
    } finally {
      await right.close();
    }
  });

  it('a run that meets nothing is stopped by a cancel, where it got to, and the server goes on', async () => {
    // 300,000 ops: a condition on every record decodes each one (seconds, not milliseconds).
    const big = join(DIR, 'big.mflrr');
    const gen = spawnSync('python3', [GEN_MFLRR, '300000', '16', big], { encoding: 'utf8' });
    assert.equal(gen.status, 0, gen.stderr);
    await s.ok('open_recording', { path: big });
    const abort = new AbortController();
    const run = s.client.callTool({ name: 'move', arguments: { recording: big, action: 'continue', until: { condition: 'value == "never there"' } } }, undefined, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    await assert.rejects(run);
    // The next call waits for the run to pause, then answers: the cursor where the run got to.
    const state = await s.ok('get_state', { recording: big, threads_limit: 1 });
    assert.equal(state.lastStop.reason, 'pause');
    assert.ok(state.record > 0 && !state.atEnd, `paused at record ${state.record}`);
  });

  it('still answers after all of that', async () => {
    const ok = await s.ok('open_recording', { path: CRASH });
    assert.equal(ok.format, 'mflrr');
  });
});

describe('frozen-run mcp: bad server options', () => {
  it('refuses --key (keys only from the environment or a key file) and unknown options, exit 2', async () => {
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('./support');
    const key = spawnSync(process.execPath, [CLI, 'mcp', '--key', FIXTURE_KEY], { encoding: 'utf8', input: '' });
    assert.equal(key.status, 2);
    assert.match(key.stderr, /takes no --key/);
    assert.ok(!key.stderr.includes(FIXTURE_KEY));
    const unknown = spawnSync(process.execPath, [CLI, 'mcp', '--fly'], { encoding: 'utf8', input: '' });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--fly/);
  });

  it('a key file that others can read is refused when a capsule is opened; a private one works', async () => {
    const keyFile = join(DIR, 'key.hex');
    writeFileSync(keyFile, FIXTURE_KEY);
    chmodSync(keyFile, 0o644);
    const open = await McpSession.start(['--key-file', keyFile]);
    try {
      assertClear(await open.error('open_recording', { path: ORDERS }), /group or others can read it/, /chmod 600/);
      chmodSync(keyFile, 0o600);
      const ok = await open.ok('open_recording', { path: ORDERS });
      assert.equal(ok.format, 'tcap');
    } finally {
      await open.close();
    }
  });
});
