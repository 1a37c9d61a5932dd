// The MCP server under hostile use (issue 31, points 3 to 6), over the SDK's client and stdio:
// answers bounded whatever the capsule holds, a request over 10 MB answered with an error while the
// server stays up, a long condition that neither blocks a ping nor outlives the move budget, and
// concurrent opens of one file sharing one read.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildBody, FIXTURE_KEY, seal, type EffectSpec } from '../tcap/support/seal';
import { assertSecurityRow, cleanEnv, McpSession } from './support';

const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-hostile-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const ENV = cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY });
const PAGE = 32 * 1024;

function capsule(name: string, effects: EffectSpec[], panic = 'boom'): string {
  const file = join(DIR, name);
  writeFileSync(file, seal(buildBody({ effects, panic }), FIXTURE_KEY));
  return file;
}

const GET = '3:GET 6:cart:7\n';
/** Three Redis errors of 4 MB each (12 MB). */
const OOM = `ERR ${'OOM command not allowed when used memory > maxmemory; '.repeat(76_000)}`;
const bigErrors = () => capsule('errors.tcap', [0, 1, 2].map(() => ({ kind: 'redis@1', key: GET, data: `-${OOM}\r\n` })));
/** A double reply of 1 MB, and an error reply of 1 MB in a pipeline. */
const bigDouble = () => capsule('double.tcap', [{ kind: 'redis@1', key: GET, data: `,${'9'.repeat(1024 * 1024)}\r\n` }, { kind: 'redis@1', key: GET, data: `+OK\r\n-ERR ${'y'.repeat(1024 * 1024)}\r\n` }]);
/** Fifteen replies of 64 nested arrays, each level with two 100-character strings (about 200 kB). */
function nested(): string {
  const level = (d: number): string => (d === 0 ? ':1\r\n' : `*3\r\n$100\r\n${'a'.repeat(100)}\r\n$100\r\n${'b'.repeat(100)}\r\n${level(d - 1)}`);
  return capsule('nested.tcap', Array.from({ length: 15 }, () => ({ kind: 'redis@1', key: GET, data: level(63) })));
}
/** One RESP array of 60,000 bulk strings (1.9 MB). */
const tree = () => capsule('tree.tcap', [{ kind: 'redis@1', key: GET, data: `*60000\r\n${`$20\r\n${'z'.repeat(20)}\r\n`.repeat(60_000)}` }]);

describe('MCP server: hostile capsules, huge requests, long conditions, concurrent opens', () => {
  let s: McpSession;
  before(async () => {
    s = await McpSession.start([], ENV);
  });
  after(() => s.close());

  it('every answer on capsules of huge and deeply nested values stays within the 32 kB page, values cut at 400 characters', async () => {
    for (const file of [bigErrors(), bigDouble(), nested(), tree()]) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['open_recording', { path: file }],
        ['list_records', { recording: file, limit: 1000, detail: true }],
        ['list_records', { recording: file, limit: 1000 }],
      ];
      const open = await s.ok('open_recording', { path: file });
      for (let p = 0; p <= open.cursor.of.positions; p++) {
        calls.push(['get_state', { recording: file, position: p, detail: true, threads_limit: 256, io_limit: 100, values_limit: 1000 }]);
        calls.push(['move', { recording: file, action: 'goto', position: p }]);
      }
      for (const name of open.variables?.items ?? []) calls.push(['variable_history', { recording: file, variable: name, thread: '0', limit: 5000 }]);
      for (const [tool, args] of calls) {
        const r = await s.call(tool, args);
        assert.equal(r.isError, false, `${tool} on ${file}: ${r.text.slice(0, 300)}`);
        assert.ok(r.text.length <= PAGE, `${tool} ${JSON.stringify(args)} answered ${r.text.length} bytes`);
        // No string in it longer than 400 characters and the cut's own note.
        const longest = Math.max(...[...r.text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].length));
        assert.ok(longest <= 500, `${tool}: a string of ${longest} characters`);
      }
    }
    // The cut says how long the whole value is.
    const errors = await s.ok('list_records', { recording: join(DIR, 'errors.tcap'), limit: 1, detail: true });
    const result = errors.records[0].value.children.find((c: { name: string }) => c.name === 'result').value.text;
    assert.ok(result.endsWith(`… (${`error ${OOM}`.length} chars)`), result.slice(-40));
    assertSecurityRow('MCP: three 4 MB Redis errors in a capsule', '0', result);
    // A tree's page ends where the page bound is, and says how many children are left out.
    const t = await s.ok('list_records', { recording: join(DIR, 'tree.tcap'), limit: 1, detail: true });
    const array = t.records[0].value.children.find((c: { name: string }) => c.name === 'result');
    assert.ok(array.value.childrenOmitted > 50_000, JSON.stringify(array.value).slice(0, 200));
  });

  it('a request over 10 MB gets an error answer, and the server answers the next call', async () => {
    const big = 'x'.repeat(11 * 1024 * 1024);
    const refused = await s.client.callTool({ name: 'test_secret', arguments: { recording: 'r1', candidate: big } }).then(() => '', (e: Error) => e.message);
    assert.match(refused, /request too large: \d+ bytes.*10 MB/);
    assertSecurityRow('MCP: a request over 10 MB', 'error', refused);
    await s.client.ping();
    const after = await s.ok('list_records', { recording: join(DIR, 'errors.tcap'), limit: 1 });
    assert.equal(after.records.length, 1);
    assert.match(s.stderr(), /a message of \d+ bytes was refused/);
  });

  it('a condition longer than 4,096 characters is refused; a long one leaves ping prompt and pauses within the 10 s budget', async () => {
    // 600,000 effects: the whole run takes well over the 10 s budget on a quiet machine too (300,000 took about 9 s here).
    const many = capsule('many.tcap', Array.from({ length: 600_000 }, (_, i) => ({ kind: 'redis@1', key: GET, data: `:${i}\r\n` })));
    await s.ok('open_recording', { path: many });
    const tooLong = await s.call('move', { recording: many, action: 'continue', until: { condition: `summary == "${'q'.repeat(4100)}"` } });
    assert.equal(tooLong.isError, true);
    assert.match(tooLong.text, /condition/);
    assert.match(tooLong.text, /4096/);
    assertSecurityRow('MCP: a condition over 4,096 characters', 'error', tooLong.text);
    // Each record decodes its summary for each of about 200 comparisons: far more than 10 s in all.
    let condition = 'summary == "never 0"';
    for (let i = 1; condition.length < 4000; i++) condition += ` || summary == "never ${i}"`;
    const started = Date.now();
    const moving = s.call('move', { recording: many, action: 'continue', until: { condition } }, { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 1000));
    const pingAt = Date.now();
    await s.client.ping();
    const pingMs = Date.now() - pingAt;
    const moved = await moving;
    const moveMs = Date.now() - started;
    assert.ok(pingMs < 1500, `ping answered after ${pingMs} ms`);
    assert.ok(moveMs < 14_000, `the move answered after ${moveMs} ms`);
    assert.equal(moved.isError, false, moved.text);
    assert.equal(moved.json.stop.reason, 'pause');
    assert.match(moved.json.note, /paused after 10 s/);
    assertSecurityRow('MCP: a 4,000-character condition on 600,000 effects', '0', `ping answered at once; ${moved.json.stop.reason}: ${moved.json.note}`);
  });

  it('a condition naming no known name is an error listing the names there are', async () => {
    const file = join(DIR, 'errors.tcap');
    const msg = await s.error('move', { recording: file, action: 'continue', until: { condition: 'nosuchvar > 3' } });
    assert.match(msg, /`nosuchvar`/);
    assert.match(msg, /names here: .*kind.*thread/);
    assert.match(msg, /outcome/); // a decoded part of the capsule's records
    assertSecurityRow('MCP: a condition naming no known name', 'error', msg);
    // A known name is no error.
    assert.equal((await s.call('move', { recording: file, action: 'continue', until: { condition: 'kind == "nope"' } })).isError, false);
  });

  it('30 concurrent opens of one 20 MB capsule share one read: one handle, one copy in memory', async () => {
    const big = capsule('big.tcap', Array.from({ length: 200 }, (_, i) => ({ kind: 'redis@1', key: GET, data: `$100000\r\n${String(i % 10).repeat(100_000)}\r\n` })));
    const fresh = await McpSession.start([], ENV);
    try {
      const before = peakKb(fresh.pid);
      const all = await Promise.all(Array.from({ length: 30 }, () => fresh.ok('open_recording', { path: big })));
      assert.deepEqual(new Set(all.map((a) => a.recording)), new Set(['r1']));
      assertSecurityRow('MCP: 30 concurrent opens of one 20 MB capsule', '0', `30 answers, each ${JSON.stringify({ recording: all[0].recording })}: one read, one copy in memory`);
      const grown = peakKb(fresh.pid) - before;
      // One read of the 20 MB file costs well under 200 MB; 30 reads cost 1.18 GB (issue 31).
      assert.ok(grown < 200 * 1024, `peak resident size grew ${Math.round(grown / 1024)} MB`);
    } finally {
      await fresh.close();
    }
  });
});

function peakKb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}
