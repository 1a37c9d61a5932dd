// Records that are expensive to look at keep the move budget (issue 31, 4): on a capsule of 9
// effects of 4 MB, a 3.4 KB condition of 195 `data == "…"` terms rebuilt the effect's 8 MB of hex
// for every term, and the runtime read its clock only every 64 records: a ping sent after 1 s was
// answered after 56.8 s and the move took 60 s. Each name is now looked up once per record and the
// clock read after every record. Over the SDK's client and stdio.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildBody, FIXTURE_KEY, seal } from '../tcap/support/seal';
import { cleanEnv, McpSession } from './support';

const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-expensive-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const MB = 4_000_000;

describe('MCP server: a long condition over effects of 4 MB', () => {
  let s: McpSession;
  let file: string;
  before(async () => {
    file = join(DIR, 'resp3.tcap');
    // The auditor's resp3.tcap: RESP3 replies of about 4 MB of each shape, and a 4 MB key.
    const GET = '3:GET 6:cart:7\n';
    const big = 'Q'.repeat(MB);
    const error = `ERR ${'OOM command not allowed when used memory > maxmemory; '.repeat(18_200)}`;
    const effects = [
      { kind: 'redis@1', key: GET, data: `=${big.length + 4}\r\ntxt:${big}\r\n` },
      { kind: 'redis@1', key: GET, data: `(${'7'.repeat(MB)}\r\n` },
      { kind: 'redis@1', key: GET, data: `!${big.length}\r\n${big}\r\n` },
      { kind: 'redis@1', key: GET, data: `+${big}\r\n` },
      { kind: 'redis@1', key: GET, data: `%30000\r\n${'+kkkkkkkkkkkkkkkkkkkk\r\n+vvvvvvvvvvvvvvvvvvvv\r\n'.repeat(30_000)}` },
      { kind: 'redis@1', key: GET, data: `~30000\r\n${'+ssssssssssssssssssss\r\n'.repeat(30_000)}` },
      { kind: 'redis@1', key: GET, data: `>2\r\n$${big.length}\r\n${big}\r\n:1\r\n` },
      { kind: 'redis@1', key: GET, data: `*2\r\n-${error}\r\n,${'9'.repeat(1_000_000)}\r\n` },
      { kind: 'redis@1', key: `${big.length}:${big}\n`, data: '+OK\r\n' },
    ];
    writeFileSync(file, seal(buildBody({ effects, panic: 'boom' }), FIXTURE_KEY));
    s = await McpSession.start([], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
  });
  after(() => s.close());

  it('a ping is answered at once, and the move answers within its budget', { timeout: 180_000 }, async () => {
    await s.call('open_recording', { path: file }, { timeout: 120_000 });
    let condition = 'data == "x"';
    for (let i = 1; i < 195; i++) condition += ` || data == "d${i}"`;
    assert.ok(condition.length > 3000 && condition.length <= 4096, String(condition.length));
    const started = Date.now();
    const moving = s.call('move', { recording: file, action: 'continue', until: { condition } }, { timeout: 120_000 });
    await new Promise((r) => setTimeout(r, 1000));
    const pingAt = Date.now();
    await s.client.ping({ timeout: 120_000 });
    const pingMs = Date.now() - pingAt;
    const moved = await moving;
    const moveMs = Date.now() - started;
    assert.ok(pingMs < 2000, `ping answered after ${pingMs} ms`);
    assert.ok(moveMs < 14_000, `the move answered after ${moveMs} ms`);
    assert.equal(moved.isError, false, moved.text);
    // No term holds: the run goes on to the panic, or pauses at the budget with the note saying so.
    if (moved.json.stop.reason === 'pause') assert.match(moved.json.note, /paused after 10 s/);
    else assert.equal(moved.json.stop.reason, 'exception', moved.text.slice(0, 300));
  });
});
