// One read per real file, and a bound on reads at once (issue 31, 6): 30 links to one 20 MB capsule
// opened at once gave 30 handles and 597 MB more resident (the held recordings were keyed on the
// path); distinct files were all read at the same time. Over the SDK's client for the links, in
// process for the turns distinct reads take.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HeldRecordings } from '../../mcp-server/held-recordings';
import { ReadSlots } from '../../mcp-server/read-slots';
import { buildBody, FIXTURE_KEY, seal } from '../tcap/support/seal';
import { assertSecurityRow, cleanEnv, McpSession } from './support';

const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-shared-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const GET = '3:GET 6:cart:7\n';

function capsule(name: string, effects: number, size: number): string {
  const file = join(DIR, name);
  const data = (i: number) => `$${size}\r\n${String(i % 10).repeat(size)}\r\n`;
  writeFileSync(file, seal(buildBody({ effects: Array.from({ length: effects }, (_, i) => ({ kind: 'redis@1', key: GET, data: data(i) })), panic: 'boom' }), FIXTURE_KEY));
  return file;
}

function peakKb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

describe('MCP server: links share a read, reads take turns', () => {
  it('30 links to one 20 MB capsule opened at once: one handle, one copy in memory', { timeout: 300_000 }, async () => {
    const big = capsule('big.tcap', 200, 100_000);
    const links = Array.from({ length: 30 }, (_, i) => {
      const link = join(DIR, `l${i}.tcap`);
      symlinkSync(big, link);
      return link;
    });
    const s = await McpSession.start([], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    try {
      const before = peakKb(s.pid);
      const all = await Promise.all(links.map((path) => s.call('open_recording', { path }, { timeout: 280_000 })));
      for (const r of all) assert.equal(r.isError, false, r.text.slice(0, 300));
      assert.deepEqual(new Set(all.map((a) => a.json.recording)), new Set(['r1']));
      assertSecurityRow('MCP: 30 links to one 20 MB capsule, opened at once', '0', `30 answers, each ${JSON.stringify({ recording: all[0].json.recording })}: one read, one copy in memory`);
      const grown = peakKb(s.pid) - before;
      // One read of the 20 MB file costs well under 200 MB; 30 reads cost 597 MB more (issue 31).
      assert.ok(grown < 200 * 1024, `peak resident size grew ${Math.round(grown / 1024)} MB`);
      // The file itself by its own path is the same recording too.
      assert.equal((await s.ok('open_recording', { path: big })).recording, 'r1');
    } finally {
      await s.close();
    }
  });

  it('six distinct capsules opened at once are read two at a time, each to its own handle', { timeout: 120_000 }, async () => {
    const files = Array.from({ length: 6 }, (_, i) => capsule(`d${i}.tcap`, 20, 250_000 + i));
    const held = new HeldRecordings({ keyHex: FIXTURE_KEY, noToolchain: true });
    const waited: string[] = [];
    const opened = await Promise.all(files.map((f) => held.open(f, { progress: (m) => m.startsWith('waiting to be read') && waited.push(m) })));
    assert.equal(new Set(opened.map((h) => h.handle)).size, 6);
    assert.equal(waited.length, 4, waited.join('\n'));
    assert.match(waited[0], /waiting to be read: 2 reads under way, 0 waiting before this one/);
    assert.match(waited[3], /3 waiting before this one/);
  });
});

describe('read slots', () => {
  it('run at most two reads at once, the others in the order they came', async () => {
    const slots = new ReadSlots(2);
    let now = 0;
    let most = 0;
    const order: number[] = [];
    const read = (i: number) => async () => {
      most = Math.max(most, ++now);
      order.push(i);
      await new Promise((r) => setTimeout(r, 20));
      now--;
      return i;
    };
    const got = await Promise.all([0, 1, 2, 3, 4, 5, 6].map((i) => slots.run(read(i))));
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(most, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6]);
  });

  it('a read cancelled while it waits never starts, and frees its place', async () => {
    const slots = new ReadSlots(1);
    let release!: () => void;
    const first = slots.run(() => new Promise<string>((r) => (release = () => r('first'))));
    const controller = new AbortController();
    let started = false;
    const cancelled = slots.run(async () => ((started = true), 'cancelled'), controller.signal);
    const third = slots.run(async () => 'third');
    assert.equal(slots.waiting, 2);
    controller.abort();
    await assert.rejects(cancelled, /cancelled while waiting to be read/);
    assert.equal(slots.waiting, 1);
    release();
    assert.deepEqual(await Promise.all([first, third]), ['first', 'third']);
    assert.equal(started, false);
    // A failing read frees its slot as well.
    await assert.rejects(slots.run(async () => Promise.reject(new Error('bad'))), /bad/);
    assert.equal(await slots.run(async () => 'after'), 'after');
  });
});
