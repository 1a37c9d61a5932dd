// A capsule whose request has 100,000 headers opens over MCP (issue 31, 3a): the summary's
// request.headers was a list fit-answer could not cut, so open_recording and resources/read
// answered only "the answer would be 4,202,120 bytes … page bound" with 600 headers already. Now
// every list in an answer can be cut, and says how many items it left out (`headersOmitted`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildBody, FIXTURE_KEY, seal } from '../tcap/support/seal';
import { cleanEnv, McpSession } from './support';

const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-headers-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const PAGE = 32 * 1024;
const HEADERS = 100_000;

describe('MCP server: a capsule request of 100,000 headers', () => {
  let s: McpSession;
  let file: string;
  before(async () => {
    file = join(DIR, 'headers.tcap');
    const headers = Array.from({ length: HEADERS }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
    const request = `GET /orders/9 HTTP/1.1\r\nHost: h\r\n${headers}\r\n`;
    writeFileSync(file, seal(buildBody({ effects: [{ kind: 'redis@1', key: '3:GET 6:cart:7\n', data: '+OK\r\n' }], panic: 'boom', request }), FIXTURE_KEY));
    s = await McpSession.start([], cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
  });
  after(() => s.close());

  it('open_recording answers within the page, the headers cut with a count of those left out', { timeout: 120_000 }, async () => {
    const r = await s.call('open_recording', { path: file }, { timeout: 100_000 });
    assert.equal(r.isError, false, r.text.slice(0, 300));
    assert.ok(r.text.length <= PAGE, `${r.text.length} bytes`);
    const req = r.json.request;
    assert.equal(req.headerCount, HEADERS + 1);
    assert.ok(req.headers.length > 0, 'the first headers are kept');
    assert.deepEqual(req.headers[0], { name: 'Host', value: 'h', secret: false });
    assert.equal(req.headers.length + req.headersOmitted, HEADERS + 1);
    // The other parts are there, and still say where to go on.
    assert.equal(r.json.effectCount, 1);
    assert.ok(r.json.variables.total > 0 && r.json.variables.nextOffset !== undefined);
  });

  it('the recording read as a resource fits the page too', { timeout: 120_000 }, async () => {
    const open = await s.ok('open_recording', { path: file });
    const res = await s.client.readResource({ uri: `frozen-run://recording/${open.recording}` }, { timeout: 100_000 });
    const text = (res.contents[0] as { text: string }).text;
    assert.ok(text.length <= PAGE, `${text.length} bytes`);
    const doc = JSON.parse(text);
    assert.equal(doc.request.headers.length + doc.request.headersOmitted, HEADERS + 1);
  });

  it('get_state with detail and list_records fit as well', { timeout: 120_000 }, async () => {
    for (const [tool, args] of [
      ['get_state', { recording: file, position: 0, detail: true, values_limit: 1000 }],
      ['list_records', { recording: file, detail: true }],
      ['variable_history', { recording: file, variable: 'request.header.X-H0', thread: '0' }],
    ] as const) {
      const r = await s.call(tool, args, { timeout: 100_000 });
      assert.equal(r.isError, false, `${tool}: ${r.text.slice(0, 300)}`);
      assert.ok(r.text.length <= PAGE, `${tool}: ${r.text.length} bytes`);
    }
  });
});
