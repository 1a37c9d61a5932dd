// Issue 19, point 8: large decoded values. A key of 200,000 Redis commands, a statement with
// 200,000 arguments and a request with 300,000 headers are decoded once, shown as bounded texts
// (with the count) and as a first page of children, and every item can still be paged to.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capsuleInspectJson } from '../../replay-engine/tcap/inspect';
import { openCapsuleBytes } from '../../replay-engine/tcap/read-capsule';
import { parseRequest, requestValue } from '../../replay-engine/tcap/decode/http-request';
import { PREVIEW_CHILDREN } from '../../replay-engine/tcap/decode/long-list';
import { buildBody, FIXTURE_KEY, seal } from './support/seal';

const N = 200_000;
const redisKey = () => Array.from({ length: N }, (_, i) => `3:GET ${`k:${i}`.length}:k:${i}\n`).join('');
const sqlKey = () => `Q select * from t where id in (\n${Array.from({ length: N }, (_, i) => `I${i}\n${i + 1 < N ? ',' : ')'}\n`).join('')}`;
const manyHeaders = (n: number) => `GET /x HTTP/1.1\r\n${Array.from({ length: n }, (_, i) => `h${i}: v${i}\r\n`).join('')}\r\n`;

function open(key: string, kind: string, request?: string) {
  return openCapsuleBytes(seal(buildBody({ request, effects: [{ kind, key, data: '+OK\r\n' }] }), FIXTURE_KEY), '/tmp/large.tcap', { keyHex: FIXTURE_KEY, env: {} });
}

describe('large decoded values', () => {
  it('a pipeline of 200,000 Redis commands: a bounded name, one page of children, any page on demand, decoded once', () => {
    const rec = open(redisKey(), 'redis@1');
    const key = rec.decodedKey(0);
    assert.ok(key.text.length < 300, `bounded text, got ${key.text.length} chars`);
    assert.match(key.text, /^GET k:0; GET k:1; .*… \(200,000 commands\)$/);
    assert.equal(key.children?.length, PREVIEW_CHILDREN);
    assert.equal(key.more?.count, N);
    const last = key.more!.page(N - 2, N + 5);
    assert.deepEqual(last.map((c) => [c.name, c.value.text]), [['command 199999', 'GET k:199998'], ['command 200000', 'GET k:199999']]);
    assert.equal(rec.decodedKey(0), key, 'decoded once, not on every request');
    const view = rec.describe(0);
    assert.ok(view.summary.length < 500, `the frame name and summary are bounded, got ${view.summary.length}`);
  });

  it('200,000 SQL arguments: the statement cut with its count, the arguments paged', () => {
    const rec = open(sqlKey(), 'postgres@1');
    const key = rec.decodedKey(0);
    assert.ok(key.text.length < 400, `bounded text, got ${key.text.length}`);
    assert.match(key.text, /^query "select \* from t where id in \(0,1,2,.*…" \(200,000 arguments\)$/);
    const args = key.children?.find((c) => c.name === 'arguments')?.value;
    assert.equal(args?.text, `${N} arguments`);
    assert.equal(args?.children?.length, PREVIEW_CHILDREN);
    assert.deepEqual(args?.more?.page(N - 1, N).map((c) => [c.name, c.value.text]), [['$200000 integer', '199999']]);
    const json = capsuleInspectJson(rec) as { effects: Array<{ key: string; decoded: { key: { text: string } } }> };
    assert.equal(json.effects[0].key, sqlKey(), 'the exact key is in --json');
  });

  it('300,000 request headers: counted, the first made, any one on demand; the document lists a bounded number', () => {
    const raw = new TextEncoder().encode(manyHeaders(300_000));
    const req = parseRequest(raw);
    assert.equal(req.headerCount, 300_000);
    assert.ok(req.headers.length <= 1000);
    assert.deepEqual(req.header(299_999), { name: 'h299999', value: 'v299999', secret: false });
    const headers = requestValue(raw).children?.find((c) => c.name === 'headers')?.value;
    assert.equal(headers?.text, '300,000 headers');
    assert.equal(headers?.more?.count, 300_000);
    const rec = open('', 'tide.now@1', manyHeaders(300_000));
    const doc = rec.decodedDocument().split('\n');
    assert.ok(doc.length < 200, `the document lists a bounded number of headers, got ${doc.length} lines`);
    assert.ok(doc.some((l) => l.includes('… and 299,900 more headers')));
    const json = capsuleInspectJson(rec) as { request: { headerCount: number; headers: unknown[] } };
    assert.equal(json.request.headerCount, 300_000);
    assert.equal(json.request.headers.length, 300_000, '--json lists every header');
  });
});
