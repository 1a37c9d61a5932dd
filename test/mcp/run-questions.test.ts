// The MCP tools line_hits and value_origin (issue 30) through the MCP SDK client, with the real
// machin: answers as structured content matching their output schema, equal to the CLI's
// `frozen-run hits` / `frozen-run origin`; the hits' values equal an independent per-line probe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../machin/support';
import { recordProgram, type Recorded } from '../support/machin';
import { CLOCK_READER, WORKERS, WORKERS_LOOP_LINE, WORKERS_NEVER_LINE } from '../support/question-programs';
import { truthReplay } from '../support/truth-probes';
import { cleanEnv, cliJson, MACHIN, McpSession } from './support';

describe('MCP line_hits and value_origin', () => {
  let mcp: McpSession;
  let workers: Recorded;
  let clock: Recorded;
  before(async () => {
    workers = recordProgram(tempDir('mcp-questions-'), 'workers', WORKERS);
    clock = recordProgram(tempDir('mcp-questions-'), 'clock', CLOCK_READER);
    mcp = await McpSession.start(['--toolchain'], cleanEnv({ MACHIN }));
  });
  after(() => mcp?.close());

  it('line_hits pages every hit with the expression\'s value, as the independent probe has it, structured', async () => {
    const first = await mcp.client.callTool({ name: 'line_hits', arguments: { recording: workers.trace, line: WORKERS_LOOP_LINE, expression: 'acc', limit: 4 } });
    const sc = first.structuredContent as { hits: Array<{ goroutine: string; text: string }>; arrivals: number; next_offset: number | null };
    assert.equal(sc.hits.length, 4);
    assert.equal(sc.arrivals, 10);
    const rest = await mcp.ok('line_hits', { recording: workers.trace, line: WORKERS_LOOP_LINE, expression: 'acc', offset: sc.next_offset });
    assert.equal(rest.next_offset, null);
    const all = [...sc.hits, ...rest.hits];
    const truth = truthReplay(workers.trace, workers.program, ['acc']).byGoroutine;
    for (const [g, list] of truth) assert.deepEqual(all.filter((h) => h.goroutine === g).map((h) => h.text), list.filter((t) => t.line === WORKERS_LOOP_LINE).map((t) => t.values.acc));
    const counts = await mcp.ok('line_hits', { recording: workers.trace });
    assert.deepEqual(counts.notReached, [WORKERS_NEVER_LINE]);
    assert.deepEqual(counts.lines, cliJson(['hits', workers.trace, 'workers.mfl', '--machin', MACHIN]).lines);
    assert.match(await mcp.error('line_hits', { recording: workers.trace, line: WORKERS_LOOP_LINE, goroutine: '7' }), /no goroutine 7/);
  });

  it('value_origin follows the clock value to its I/O record, as frozen-run origin does', async () => {
    const r = await mcp.client.callTool({ name: 'value_origin', arguments: { recording: clock.trace, variable: 'w', thread: '0' } });
    assert.ok(r.structuredContent, `value_origin answered no chain: ${JSON.stringify(r.content)}`);
    const chain = r.structuredContent as { steps: Array<{ via: string; goroutine: string }>; end: { kind: string } };
    assert.deepEqual(chain.steps.map((x) => `${x.via} ${x.goroutine}`), ['copy 0', 'receive 0', 'send 0.1', 'store 0.1']);
    assert.equal(chain.end.kind, 'io');
    const cli = cliJson(['origin', clock.trace, 'w', '--machin', MACHIN]);
    assert.deepEqual(chain.end, cli.end);
    assert.match(await mcp.error('value_origin', { recording: clock.trace, variable: 'nope', thread: '0' }), /nope has no value/);
  });
});
