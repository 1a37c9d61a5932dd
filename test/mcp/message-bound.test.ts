// Every message the MCP server sends is bounded (issue 31, 3b): the SDK's own errors echo what the
// client sent, so a tool name of 10 MB (the request just under the 10 MB limit) came back as an
// answer over 10 MB; the SDK client's reader refused it, closed, and the server exited. A 999 KB
// resource URI came back whole too. Over the SDK's client and stdio, then the bound itself in process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { boundedLine, ERROR_TEXT_LIMIT, messageBound } from '../../mcp-server/bounded-message';
import { MAX_MESSAGE_BYTES } from '../../mcp-server/stdio-transport';
import { assertSecurityRow, cleanEnv, McpSession } from './support';

/** A long run of one letter as the catalogue shows it: `n×1978`. */
const shortRuns = (text: string) => text.replace(/([a-z])\1{99,}/g, (run, c: string) => `${c}×${run.length}`);

describe('MCP server: no message over the bound, whatever the client sent', () => {
  let s: McpSession;
  before(async () => {
    s = await McpSession.start([], cleanEnv());
  });
  after(() => s.close());

  it('a tool name of 10 MB gets a short error, and the session goes on', { timeout: 120_000 }, async () => {
    const name = 'n'.repeat(MAX_MESSAGE_BYTES - 100);
    const r = await s.client.callTool({ name, arguments: {} }, undefined, { timeout: 100_000 });
    const text = (r.content as Array<{ text: string }>)[0].text;
    assert.equal(r.isError, true);
    assert.ok(JSON.stringify(r).length < ERROR_TEXT_LIMIT + 200, `the answer is ${JSON.stringify(r).length} bytes`);
    assert.ok(text.length <= ERROR_TEXT_LIMIT + 30, `${text.length} characters`);
    assert.match(text, /^MCP error -32602: Tool n+… \(\d+ chars\)$/);
    assert.ok(text.endsWith(`(${`MCP error -32602: Tool ${name} not found`.length} chars)`), text.slice(-40));
    assertSecurityRow('MCP: a tool name of 10 MB', 'error', shortRuns(text));
    await s.client.ping();
    assert.ok((await s.client.listTools()).tools.length > 10);
  });

  it('a resource URI of 999 KB gets a short error', { timeout: 60_000 }, async () => {
    const uri = `frozen-run://recording/${'u'.repeat(999_000)}`;
    const message = await s.client.readResource({ uri }).then(() => '', (e: Error) => e.message);
    assert.ok(message.length > 0 && message.length <= ERROR_TEXT_LIMIT + 60, `${message.length} characters`);
    assert.match(message, /no open recording u+… \(\d+ chars\)$/);
    await s.client.ping();
  });
});

describe('the bound on one outgoing message', () => {
  const bound = messageBound(32 * 1024, MAX_MESSAGE_BYTES);

  it('is well under the client limit for every page size the server takes', () => {
    assert.ok(bound > 256 * 1024 && bound < 1024 * 1024, String(bound));
    assert.ok(messageBound(4 * 1024 * 1024, MAX_MESSAGE_BYTES) < MAX_MESSAGE_BYTES);
  });

  it('leaves a message within the bound as it is', () => {
    const m = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'x'.repeat(100_000) }] } } as JSONRPCMessage;
    assert.deepEqual(boundedLine(m, bound), { line: JSON.stringify(m), note: null });
  });

  it('cuts the strings of a longer message, and turns one that still cannot fit into an error answer', () => {
    const long = { jsonrpc: '2.0', id: 4, result: { text: 'y'.repeat(bound) } } as JSONRPCMessage;
    const cut = JSON.parse(boundedLine(long, bound).line!);
    assert.equal(cut.result.text, `${'y'.repeat(400)}… (${bound} chars)`);
    const many = { jsonrpc: '2.0', id: 5, result: { items: Array.from({ length: 100_000 }, () => 'z'.repeat(20)) } } as JSONRPCMessage;
    const r = boundedLine(many, bound);
    const answer = JSON.parse(r.line!);
    assert.equal(answer.id, 5);
    assert.equal(answer.error.code, -32603);
    assert.match(answer.error.message, /the answer would be \d+ bytes, more than the server's bound of \d+ bytes/);
    assert.ok(r.line!.length < 1000);
  });

  it('drops a notification that cannot fit, and says so', () => {
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { items: Array.from({ length: 100_000 }, () => 'z'.repeat(20)) } } as JSONRPCMessage;
    const r = boundedLine(note, bound);
    assert.equal(r.line, null);
    assert.match(r.note!, /notifications\/message.*was not sent/);
  });
});
