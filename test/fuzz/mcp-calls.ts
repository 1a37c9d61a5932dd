// The MCP server fuzzed as an agent gone wrong would use it (issue 31): random tool calls with
// random arguments (well-typed, badly typed, huge, hostile text) over the held fixture recordings,
// through the SDK's client over stdio against dist/. Bounded in count and in time. For every call:
// an answer within the time limit, a tool error of one line with no stack trace or internal error,
// an answer within the page bound and every message (errors too) within its bound, no key in any
// text; and the server still answers a ping. All 14 tools, and resources/list and resources/read.
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';
import { FIXTURE_KEY } from '../tcap/support/seal';
import { ERROR_TEXT_LIMIT } from '../../mcp-server/bounded-message';
import { cleanEnv, McpSession } from '../mcp/support';

export interface McpFuzzOptions {
  /** At most this many calls. */
  calls: number;
  /** And at most this long, in ms. */
  ms: number;
  seed: number;
  /** With --toolchain and the real machin (slower: each trace opened is replayed once). */
  machin?: string;
}

export interface McpFuzzResult {
  calls: number;
  errors: number;
  findings: Array<{ problem: string; call: string }>;
}

/** The page bound the server is started with (its default). */
const PAGE = 32 * 1024;
/** One call's answer may take this long (a move's 10 s budget, and a loaded machine). */
const CALL_TIMEOUT_MS = 30_000;
/** An error's text at most (the transport's cut, and the SDK's prefix). */
const ERROR_BOUND = ERROR_TEXT_LIMIT + 100;
/** A whole answer at most: its page twice (structured and text) and the envelope. */
const MESSAGE_BOUND = 3 * PAGE + 4096;

function fixtureRecordings(): string[] {
  const traces = readdirSync(MACHIN_FIXTURES).flatMap((d) => {
    try {
      return readdirSync(join(MACHIN_FIXTURES, d)).filter((f) => f.endsWith('.mflrr')).map((f) => join(MACHIN_FIXTURES, d, f));
    } catch {
      return [];
    }
  });
  const capsules = readdirSync(TIN_FIXTURES).filter((f) => f.endsWith('.tcap') && !f.startsWith('batch')).map((f) => join(TIN_FIXTURES, f));
  return [...traces, ...capsules];
}

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '\n', '\u0000', '\u202e', '../../../etc/passwd', '/dev/zero', 'file:///dev/zero', 'file://host/x', 'https://x/y', '~', '~/nope', 'r0', 'r1', 'r2', 'r99999', '0', '0.1', '0.2', 'main', 'task 0', 'panic', 'io', 'sched', 'redis@1', 'idx', 'a', 'b', 'v', 'nosuch'),
  fc.constantFrom('idx > 1', 'kind == "io"', 'op >', '((((((((((', 'summary == "x" || value == "y"', '!(a == b)', 'history(idx)', 'record.kind == "sched"', 'nosuchvar > 3', '1/0', '"'.repeat(50)),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'x'.repeat(n)),
);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -3, max: 20 }),
  fc.constantFrom(-1, 0, 1, 2, 3, 4, 1000, 100_000, 2 ** 31, 2 ** 53, -(2 ** 31), 0.5, Number.MAX_SAFE_INTEGER),
  hostileText,
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 5 }),
  fc.dictionary(fc.constantFrom('breakpoint', 'condition', 'line', 'variable', 'thread', 'x'), fc.oneof(hostileText, fc.integer({ min: -2, max: 50 })), { maxKeys: 3 }),
);

const TOOLS: Record<string, string[]> = {
  open_recording: ['path', 'program', 'threads_offset', 'threads_limit', 'variables_offset'],
  close_recording: ['recording'],
  get_state: ['recording', 'position', 'record', 'thread', 'threads_offset', 'threads_limit', 'io_limit', 'variables', 'values_limit', 'detail'],
  move: ['recording', 'action', 'thread', 'position', 'record', 'count', 'until'],
  variable_history: ['recording', 'variable', 'thread', 'offset', 'limit'],
  find_value_change: ['recording', 'variable', 'thread', 'direction', 'position'],
  list_records: ['recording', 'from_record', 'to_record', 'from_position', 'kind', 'thread', 'text', 'limit', 'detail'],
  causal_chain: ['recording', 'position', 'offset', 'limit'],
  compare_recordings: ['a', 'b', 'value_limit'],
  test_secret: ['recording', 'candidate'],
  get_source: ['recording', 'line', 'thread', 'position', 'record', 'around'],
  evaluate: ['recording', 'expression', 'thread', 'frame', 'position', 'record'],
  line_hits: ['recording', 'path', 'line', 'expression', 'goroutine', 'offset', 'limit'],
  value_origin: ['recording', 'variable', 'thread', 'position'],
};
/** Not a tool: resources/list and resources/read of a handle or a hostile URI. */
const RESOURCES = '(resources)';
const REQUIRED = new Set(['recording', 'a', 'b', 'action', 'variable', 'direction', 'candidate', 'expression']);
/** find_value_change and value_origin need their thread, open_recording its path (line_hits' is optional). */
const requiredIn = (tool: string, p: string) =>
  (REQUIRED.has(p) && !(tool === 'line_hits' && p === 'expression')) || ((tool === 'find_value_change' || tool === 'value_origin') && p === 'thread') || (tool === 'open_recording' && p === 'path');
const ACTIONS = ['step_in', 'step_back_in', 'next', 'step_back', 'step_out', 'step_back_out', 'continue', 'reverse_continue', 'goto', 'to_panic', 'to_start', 'to_end'];

/** One random call: a tool, and for each of its arguments (sometimes left out) a likely or a hostile value. */
function callArbitrary(recordings: string[]): fc.Arbitrary<{ name: string; args: Record<string, unknown> }> {
  const recording = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...recordings) }, { weight: 3, arbitrary: fc.constantFrom('r1', 'r2', 'r3') }, { weight: 1, arbitrary: hostileText });
  const likely = (name: string, param: string): fc.Arbitrary<unknown> => {
    switch (param) {
      case 'path': return name === 'line_hits' ? fc.constantFrom(join(MACHIN_FIXTURES, 'crash', 'crash.mfl'), 'crash.mfl', '/etc/passwd') : recording;
      case 'recording': case 'a': case 'b': return recording;
      case 'expression': return fc.oneof(fc.constantFrom('idx', 'a + b', 'v * 2', 'history(idx)', 'value', 'kind', 'record', '1/0', '((((', 'nosuch'), hostileText);
      case 'line': return fc.integer({ min: 1, max: 40 });
      case 'around': return fc.integer({ min: 0, max: 200 });
      case 'goroutine': return fc.constantFrom('0', '0.1', '0.2', 'main');
      case 'action': return fc.constantFrom(...ACTIONS);
      case 'direction': return fc.constantFrom('backward', 'forward');
      case 'detail': return fc.boolean();
      case 'candidate': case 'text': return hostileText;
      case 'kind': return fc.constantFrom('io', 'sched', 'redis', 'redis@1', 'http@1', 'sql@1', 'nosuch');
      case 'variables': return fc.array(fc.constantFrom('idx', 'a', 'b', 'v', 'nosuch'), { maxLength: 4 });
      case 'program': return fc.constantFrom(join(MACHIN_FIXTURES, 'crash', 'crash.mfl'), 'crash.mfl', '/etc/passwd');
      case 'count': case 'limit': case 'threads_limit': case 'value_limit': return fc.integer({ min: 1, max: 2000 });
      case 'thread': return fc.constantFrom('0', '0.1', '0.2', '1', '2', 'main');
      case 'variable': return fc.constantFrom('idx', 'a', 'b', 'v', 'total', 'nosuch');
      case 'until': return fc.record({ condition: hostileText, breakpoint: fc.constantFrom('io', 'sched', 'panic', 'goroutine 0', 'redis', 'task 1'), line: fc.integer({ min: 1, max: 40 }) }, { requiredKeys: [] });
      default: return fc.integer({ min: 0, max: 30 });
    }
  };
  const resources = fc.oneof(fc.constantFrom('r1', 'r2', 'r99999', ''), hostileText, fc.integer({ min: 1000, max: 200_000 }).map((n) => 'u'.repeat(n))).map((handle) => ({ name: RESOURCES, args: { handle } as Record<string, unknown> }));
  const tools = fc.constantFrom(...Object.keys(TOOLS)).chain((name) =>
    fc
      .tuple(...TOOLS[name].map((p) => {
        // Mostly well-typed calls (they reach the engine), some with a wrong or hostile value, some arguments left out.
        const value = fc.oneof({ weight: 15, arbitrary: likely(name, p) }, { weight: 1, arbitrary: anyValue });
        return requiredIn(name, p) ? fc.oneof({ weight: 30, arbitrary: value }, { weight: 1, arbitrary: fc.constant(undefined) }) : fc.option(value, { nil: undefined, freq: 2 });
      }))
      .map((values) => {
        const args: Record<string, unknown> = {};
        TOOLS[name].forEach((p, i) => {
          if (values[i] !== undefined) args[p] = values[i];
        });
        return { name, args };
      }),
  );
  return fc.oneof({ weight: 14, arbitrary: tools }, { weight: 1, arbitrary: resources });
}

const KEY_FORMS = [FIXTURE_KEY, FIXTURE_KEY.toUpperCase(), Buffer.from(FIXTURE_KEY, 'hex').toString('base64')];

export async function fuzzMcp(options: McpFuzzOptions): Promise<McpFuzzResult> {
  const recordings = fixtureRecordings();
  const args = options.machin ? ['--toolchain', '--machin', options.machin, '--time-limit', '20'] : [];
  const s = await McpSession.start(args, cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
  const findings: McpFuzzResult['findings'] = [];
  const end = Date.now() + options.ms;
  let calls = 0;
  let errors = 0;
  try {
    const arbitrary = callArbitrary(recordings);
    // Made 200 at a time, so a long run (calls in the millions, bounded by time) starts at once.
    const batches = function* () {
      for (let made = 0, batch = 0; made < options.calls; batch++) {
        const n = Math.min(200, options.calls - made);
        made += n;
        yield* fc.sample(arbitrary, { numRuns: n, seed: (options.seed + batch * 7919) | 0 });
      }
    };
    for (const call of batches()) {
      if (Date.now() >= end) break;
      calls++;
      const shown = JSON.stringify(call).slice(0, 300);
      try {
        if (call.name === RESOURCES) {
          errors += await readResource(s, String(call.args.handle), shown, findings);
          if (calls % 25 !== 0) continue;
          await s.client.ping({ timeout: 5_000 });
          continue;
        }
        const r = await s.client.callTool({ name: call.name, arguments: call.args }, undefined, { timeout: CALL_TIMEOUT_MS });
        const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
        // Every message within its bound, errors too (the SDK's own errors echo what was sent).
        const size = JSON.stringify(r).length;
        if (size > MESSAGE_BOUND) findings.push({ problem: `a message of ${size} bytes`, call: shown });
        if (r.isError) {
          if (text.length > ERROR_BOUND) findings.push({ problem: `an error of ${text.length} characters`, call: shown });
          errors++;
          if (process.env.FROZEN_RUN_FUZZ_DEBUG) console.log(`${call.name}: ${text.slice(0, 160)}`);
          if (text.includes('\n')) findings.push({ problem: `error of more than one line: ${text.slice(0, 200)}`, call: shown });
          if (/internal error|\n\s+at |\.js:\d+:\d+/.test(text)) findings.push({ problem: `internal error or stack: ${text.slice(0, 300)}`, call: shown });
        } else {
          if (text.length > PAGE) findings.push({ problem: `answer of ${text.length} bytes, over the page bound`, call: shown });
          if (!r.structuredContent) findings.push({ problem: 'no structuredContent', call: shown });
        }
        for (const k of KEY_FORMS) if (text.includes(k)) findings.push({ problem: 'the key is in an answer', call: shown });
      } catch (err) {
        // The SDK's own refusals of bad arguments come back as tool errors; anything thrown is a protocol failure.
        const message = err instanceof Error ? err.message : String(err);
        if (message.length > ERROR_BOUND) findings.push({ problem: `an error of ${message.length} characters`, call: shown });
        if (!/Input validation error|MCP error -32602/.test(message)) findings.push({ problem: `call failed: ${message.slice(0, 300)}`, call: shown });
        else errors++;
      }
      if (calls % 25 === 0) {
        try {
          await s.client.ping({ timeout: 5_000 });
        } catch (err) {
          findings.push({ problem: `no answer to ping: ${(err as Error).message}`, call: shown });
          break;
        }
      }
    }
    for (const k of KEY_FORMS) if (s.stderr().includes(k)) findings.push({ problem: 'the key is on stderr', call: '(session)' });
  } finally {
    await s.close();
  }
  return { calls, errors, findings };
}

/** resources/list, then resources/read of `frozen-run://recording/HANDLE`: 1 when it is an error. */
async function readResource(s: McpSession, handle: string, shown: string, findings: McpFuzzResult['findings']): Promise<number> {
  const list = await s.client.listResources(undefined, { timeout: CALL_TIMEOUT_MS });
  if (JSON.stringify(list).length > MESSAGE_BOUND) findings.push({ problem: 'resources/list over the bound', call: shown });
  try {
    const r = await s.client.readResource({ uri: `frozen-run://recording/${handle}` }, { timeout: CALL_TIMEOUT_MS });
    const text = (r.contents[0] as { text?: string } | undefined)?.text ?? '';
    if (text.length > PAGE) findings.push({ problem: `a resource of ${text.length} bytes, over the page bound`, call: shown });
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.length > ERROR_BOUND) findings.push({ problem: `an error of ${message.length} characters`, call: shown });
    if (/internal error \(please report|\n\s+at /.test(message)) findings.push({ problem: `internal error or stack: ${message.slice(0, 300)}`, call: shown });
    return 1;
  }
}
