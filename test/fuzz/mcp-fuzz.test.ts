// A short bounded fuzz run of the MCP server (test/fuzz/mcp-calls.ts): 300 random tool calls with a
// fixed seed over the fixture recordings, at most 90 s; `npm run fuzz` runs it longer with fresh seeds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzMcp } from './mcp-calls';

const CALLS = Number(process.env.FROZEN_RUN_FUZZ_MCP_CALLS ?? 300);

describe('fuzz: random MCP tool calls', () => {
  it('every call answered in time, one-line errors, answers within the page, the server up', { timeout: 180_000 }, async () => {
    const r = await fuzzMcp({ calls: CALLS, ms: 90_000, seed: 20261202 });
    assert.deepEqual(r.findings, []);
    assert.ok(r.calls >= Math.min(CALLS, 100), `${r.calls} calls made`);
    // Both kinds of answer were exercised.
    assert.ok(r.errors > 0 && r.errors < r.calls, `${r.errors} errors of ${r.calls}`);
  });
});
