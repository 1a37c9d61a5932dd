// Every tool of the MCP server, driven by the SDK's own client over stdio, on the fixtures: each
// answer is held against what the CLI says for the same question (inspect, history, compare,
// secret --json), and the moves against the records of the trace text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GEN_MFLRR, MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';
import { FIXTURE_KEY } from '../tcap/support/seal';
import { allRecords, cleanEnv, cliJson, expandChain, MACHIN, McpSession } from './support';

const CRASH = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
// A trace no fixture has: 300 ops over 6 goroutines, one line in eight an I/O line.
const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-mcp-'));
const GEN = join(DIR, 'generated.mflrr');
const gen = spawnSync('python3', [GEN_MFLRR, '300', '6', GEN], { encoding: 'utf8' });
if (gen.status !== 0) throw new Error(`gen_mflrr.py: ${gen.stderr}`);
after(() => rmSync(DIR, { recursive: true, force: true }));
const R1 = join(MACHIN_FIXTURES, 'flaky-runs', 'r1.mflrr');
const R3 = join(MACHIN_FIXTURES, 'flaky-runs', 'r3.mflrr');
const ORDERS = join(TIN_FIXTURES, 'orders-panic.tcap');
const DECLINED = join(TIN_FIXTURES, 'checkout-declined.tcap');

/** The trace's S and I lines, in order: record r is the r-th of them. */
function traceRecords(file: string): Array<{ line: number; text: string }> {
  return readFileSync(file, 'utf8').split('\n').map((text, i) => ({ line: i + 1, text })).filter((l) => /^[SI] /.test(l.text));
}

describe('MCP server with machin (the real one) on a trace', () => {
  let s: McpSession;
  const cli = (args: string[]) => cliJson([...args, '--machin', MACHIN]);
  before(async () => {
    s = await McpSession.start(['--toolchain', '--machin', MACHIN]);
  });
  after(() => s.close());

  it('lists every tool with a JSON schema', async () => {
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['causal_chain', 'close_recording', 'compare_recordings', 'evaluate', 'find_value_change', 'get_source', 'get_state', 'line_hits', 'list_records', 'move', 'open_recording', 'test_secret', 'value_origin', 'variable_history']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(t.description && t.description.length > 40, `${t.name} says what it does`);
    }
    const move = tools.find((t) => t.name === 'move')!;
    assert.ok(JSON.stringify(move.inputSchema).includes('reverse_continue'));
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(s.client.getServerVersion(), { name: 'frozen-run', version: pkg.version });
  });

  it('open_recording: the facts, panic, threads and causal chain of `inspect --json`', async () => {
    const want = cli(['inspect', CRASH]);
    const got = await s.ok('open_recording', { path: CRASH });
    assert.match(got.recording, /^r\d+$/);
    for (const key of ['format', 'file', 'version', 'boundary', 'program', 'safe', 'scheduleTotal', 'ioTotal', 'recordCount', 'bestEffort', 'panic', 'verify', 'cutLine']) {
      assert.deepEqual(got[key], want[key], key);
    }
    // The server opens at source level, inspect does not: its statements add a warning of their own.
    const recordLevel = (ws: Array<{ code: string }>) => ws.filter((w) => w.code !== 'statements-this-replay-only');
    assert.deepEqual(recordLevel(got.warnings), want.warnings, 'warnings');
    assert.deepEqual(got.threads.items, want.threads);
    assert.equal(got.threadCount, want.threads.length);
    // Run-length encoded: the goroutine's two steps in a row are one entry.
    assert.deepEqual(got.causalChain.threads, ['0.1', '0.2', { thread: '0', repeat: 2 }]);
    assert.deepEqual(expandChain(got.causalChain.threads), want.causalChain);
    assert.equal(got.causalChain.length, want.causalChain.length);
    assert.equal(got.panicAt.position, want.panic.op);
    assert.equal(got.panicAt.thread, want.panic.thread);
    // worker's parameter v too: the instrumented copy prints parameters (machin's --print shows none).
    assert.deepEqual([...got.variables.items].sort(), ['a', 'b', 'idx', 'v']);
    assert.equal(got.variables.total, 4);
    // The same file again: the same handle, no second read.
    assert.equal((await s.ok('open_recording', { path: CRASH })).recording, got.recording);
  });

  it('variable_history equals `history --json`, with and without a goroutine, paged', async () => {
    const want = cli(['history', CRASH, 'idx']);
    const got = await s.ok('variable_history', { recording: CRASH, variable: 'idx' });
    assert.deepEqual(got.entries, want.entries);
    assert.equal(got.total, want.entries.length);
    assert.equal(got.file, want.file);
    const page1 = await s.ok('variable_history', { recording: CRASH, variable: 'idx', limit: 1 });
    const page2 = await s.ok('variable_history', { recording: CRASH, variable: 'idx', offset: page1.nextOffset, limit: 100 });
    assert.deepEqual([...page1.entries, ...page2.entries], want.entries);
    const on0 = cli(['history', CRASH, 'idx', '--goroutine', '0']);
    assert.deepEqual((await s.ok('variable_history', { recording: CRASH, variable: 'idx', thread: '0' })).entries, on0.entries);
  });

  it('the agent\'s questions: the panic, the value at the panic and where it last changed', async () => {
    const inspect = cli(['inspect', CRASH]);
    const history = cli(['history', CRASH, 'idx', '--goroutine', inspect.panic.thread]).entries as Array<{ op: number; value: string }>;
    const h = (await s.ok('open_recording', { path: CRASH })).recording;
    const stop = await s.ok('move', { recording: h, action: 'to_panic' });
    assert.equal(stop.stop.reason, 'exception');
    assert.equal(stop.stop.text, inspect.panic.message);
    assert.equal(stop.position, inspect.panic.op);
    const state = await s.ok('get_state', { recording: h, thread: inspect.panic.thread });
    const atPanic = history.filter((e) => e.op <= inspect.panic.op).at(-1)!;
    assert.equal(state.threads.items[0].values.idx, atPanic.value);
    assert.equal(state.panicked, true);
    const change = await s.ok('find_value_change', { recording: h, variable: 'idx', thread: inspect.panic.thread, direction: 'backward' });
    assert.equal(change.found, true);
    assert.equal(change.value, atPanic.value);
    // The last change: the first entry of the run of equal values that ends at the panic.
    let i = history.indexOf(atPanic);
    while (i > 0 && history[i - 1].value === atPanic.value) i--;
    assert.equal(change.position, history[i].op);
    assert.equal(change.previous, i > 0 ? history[i - 1].value : null);
    const forward = await s.ok('find_value_change', { recording: h, variable: 'idx', thread: inspect.panic.thread, direction: 'forward', position: 0 });
    assert.equal(forward.position, history.find((e) => e.op > 0 && e.value !== history.filter((x) => x.op <= 0).at(-1)?.value)!.op);
  });

  it('move until a variable changes: the data breakpoint, forward and back', async () => {
    const history = cli(['history', CRASH, 'idx', '--goroutine', '0']).entries as Array<{ op: number; value: string }>;
    const changes = history.filter((e, i) => i === 0 || e.value !== history[i - 1].value).map((e) => e.op);
    const h = (await s.ok('open_recording', { path: CRASH })).recording;
    await s.ok('move', { recording: h, action: 'to_start' });
    // At source level every store is a stop: `idx := 0` (line 7) before any op, then `idx = idx + a` (line 9).
    const first = await s.ok('move', { recording: h, action: 'continue', until: { variable: 'idx', thread: '0' } });
    assert.equal(first.stop.reason, 'data breakpoint');
    assert.equal(first.position, changes[0]);
    assert.match(first.stop.description, /idx becomes 0 by this statement \(line 7\)/);
    const second = await s.ok('move', { recording: h, action: 'continue', until: { variable: 'idx', thread: '0' } });
    assert.equal(second.position, changes[1]);
    assert.match(second.stop.description, /idx becomes 5 by this statement \(line 9\)/);
    const found = await s.ok('find_value_change', { recording: h, variable: 'idx', thread: '0', direction: 'backward' });
    assert.equal(found.position, second.position);
    assert.equal(found.byRecord.record, second.record);
    await s.ok('move', { recording: h, action: 'goto', record: second.record + 1 });
    const back = await s.ok('move', { recording: h, action: 'reverse_continue', until: { variable: 'idx', thread: '0' } });
    assert.equal(back.position, changes[1]);
    assert.equal(back.stop.reason, 'data breakpoint');
    assert.match(await s.error('move', { recording: h, action: 'continue', until: { variable: 'nosuch', thread: '0' } }), /takes no value/);
  });

  it('causal_chain pages add up to the CLI\'s chain; a chain to a position is its prefix', async () => {
    const want = cli(['inspect', CRASH]).causalChain as string[];
    const a = await s.ok('causal_chain', { recording: CRASH, limit: 2 });
    assert.equal(a.nextOffset, 2);
    const b = await s.ok('causal_chain', { recording: CRASH, offset: a.nextOffset });
    assert.deepEqual(expandChain([...a.threads, ...b.threads]), want);
    assert.equal(a.length, want.length);
    assert.deepEqual(expandChain((await s.ok('causal_chain', { recording: CRASH, position: 2 })).threads), want.slice(0, 2));
  });

  it('move: every action, over the records of the trace text, both ways', async () => {
    const lines = traceRecords(GEN);
    const h = (await s.ok('open_recording', { path: GEN })).recording;
    const start = await s.ok('move', { recording: h, action: 'to_start' });
    assert.equal(start.record, -1);
    assert.equal(start.atStart, true);
    const one = await s.ok('move', { recording: h, action: 'step_in' });
    assert.equal(one.record, 0);
    assert.equal(one.justDone.line, lines[0].line);
    assert.equal(one.justDone.thread, lines[0].text.split(' ')[1]);
    const three = await s.ok('move', { recording: h, action: 'step_in', count: 3 });
    assert.equal(three.record, 3);
    assert.equal((await s.ok('move', { recording: h, action: 'step_back_in' })).record, 2);
    // next / step_back stay on one goroutine.
    const t = lines[2].text.split(' ')[1];
    const next = await s.ok('move', { recording: h, action: 'next', thread: t });
    const nextIndex = lines.findIndex((l, i) => i > 2 && l.text.split(' ')[1] === t);
    assert.equal(next.record, nextIndex);
    assert.equal((await s.ok('move', { recording: h, action: 'step_back', thread: t })).record, 2);
    const out = await s.ok('move', { recording: h, action: 'step_out', thread: t });
    assert.equal(out.record, lines.map((l) => l.text.split(' ')[1]).lastIndexOf(t));
    const backOut = await s.ok('move', { recording: h, action: 'step_back_out', thread: t });
    assert.equal(backOut.record, lines.findIndex((l) => l.text.split(' ')[1] === t));
    const end = await s.ok('move', { recording: h, action: 'to_end' });
    assert.equal(end.atEnd, true);
    assert.equal(end.stop.reason, 'end');
    const go = await s.ok('move', { recording: h, action: 'goto', record: 5 });
    assert.equal(go.record, 5);
    assert.equal(go.justDone.line, lines[5].line);
    const pos = await s.ok('move', { recording: h, action: 'goto', position: 4 });
    assert.equal(pos.position, 4);
    // continue / reverse continue to a condition and to a kind.
    const io = lines.findIndex((l) => l.text.startsWith('I '));
    await s.ok('move', { recording: h, action: 'to_start' });
    const toIo = await s.ok('move', { recording: h, action: 'continue', until: { breakpoint: 'io' } });
    assert.equal(toIo.record, io);
    assert.equal(toIo.justDone.kind, 'io');
    const lastIo = lines.map((l) => l.text[0]).lastIndexOf('I');
    await s.ok('move', { recording: h, action: 'to_end' });
    const backToIo = await s.ok('move', { recording: h, action: 'reverse_continue', until: { condition: 'kind == "io"' } });
    assert.equal(backToIo.record, lastIo);
    assert.equal(backToIo.stop.description, `Condition \`kind == "io"\` holds (${backToIo.justDone.summary})`);
    await s.ok('move', { recording: h, action: 'to_start' });
    const toLine = await s.ok('move', { recording: h, action: 'continue', until: { line: lines[6].line } });
    assert.equal(toLine.record, 6);
    // The breakpoints of `until` last one move: a plain continue runs to the end (this trace has no panic? it may).
    const plain = await s.ok('move', { recording: h, action: 'continue' });
    assert.ok(plain.record > 6);
    assert.ok(plain.stop.reason === 'end' || plain.stop.reason === 'exception');
  });

  it('get_state: each goroutine\'s current record and consumed I/O at a position', async () => {
    const lines = traceRecords(GEN);
    const io = lines.findIndex((l) => l.text.startsWith('I '));
    const g = lines[io].text.split(' ')[1];
    // The position at which that I/O line is done: the S lines before it.
    const p = lines.slice(0, io).filter((l) => l.text.startsWith('S ')).length;
    const state = await s.ok('get_state', { recording: GEN, position: p, thread: g, io_limit: 10 });
    const th = state.threads.items[0];
    assert.equal(th.id, g);
    assert.ok(th.io.consumed >= 1);
    assert.ok(th.io.last.some((r: { line: number }) => r.line === lines[io].line));
    const before = lines.slice(0, io).map((l, i) => ({ ...l, i })).filter((l) => l.text.split(' ')[1] === g);
    if (before.length) assert.ok(th.current.record >= before.at(-1)!.i);
    const all = await s.ok('get_state', { recording: GEN, position: 0 });
    assert.equal(all.atStart, true);
    assert.ok(all.threads.items.every((t: { current: unknown }) => t.current === null));
    const paged = await s.ok('get_state', { recording: GEN, position: p, threads_limit: 1 });
    assert.equal(paged.threads.items.length, 1);
    assert.equal(paged.threads.nextOffset, 1);
  });

  it('list_records: a range, by kind, thread and text, with the trace\'s own lines', async () => {
    const lines = traceRecords(GEN);
    // A page ends at `limit` records or at the page bound (32 kB), and nextRecord goes on.
    const first = await s.call('list_records', { recording: GEN, limit: 1000 });
    assert.ok(first.text.length <= 32 * 1024, `${first.text.length} bytes`);
    assert.ok(first.json.nextRecord !== null && first.json.records.length < 1000, 'the size bound ends the page before the count');
    const all = await allRecords(s, { recording: GEN, limit: 1000 });
    assert.deepEqual(all.map((r: { line: number }) => r.line), lines.map((l) => l.line));
    const io = await allRecords(s, { recording: GEN, kind: 'io', limit: 1000 });
    assert.deepEqual(io.map((r: { line: number }) => r.line), lines.filter((l) => l.text.startsWith('I ')).map((l) => l.line));
    const t = lines[0].text.split(' ')[1];
    const mine = await s.ok('list_records', { recording: GEN, thread: t, limit: 2 });
    assert.ok(mine.records.every((r: { thread: string }) => r.thread === t));
    const rest = await allRecords(s, { recording: GEN, thread: t, from_record: mine.nextRecord, limit: 1000 });
    assert.deepEqual([...mine.records, ...rest].map((r: { line: number }) => r.line), lines.filter((l) => l.text.split(' ')[1] === t).map((l) => l.line));
    const decoded = await s.ok('list_records', { recording: GEN, kind: 'io', limit: 1, detail: true });
    assert.ok(decoded.records[0].value.text.length > 0);
    const text = decoded.records[0].value.text.replace(/^"|"$/g, '').slice(0, 3);
    const byText = { records: await allRecords(s, { recording: GEN, text, limit: 1000 }) };
    assert.ok(byText.records.some((r: { record: number }) => r.record === decoded.records[0].record));
  });

  it('compare_recordings equals `compare --json`', async () => {
    const want = cliJson(['compare', R1, R3, '--no-toolchain']);
    const plain = await McpSession.start();
    try {
      const got = await plain.ok('compare_recordings', { a: R1, b: R3, value_limit: 200 });
      assert.deepEqual(got, want);
      const small = await plain.ok('compare_recordings', { a: R1, b: R3, value_limit: 1 });
      assert.equal(small.valueDifferences.total, want.valueDifferences.total);
      assert.deepEqual(small.valueDifferences.shown, want.valueDifferences.shown.slice(0, 1));
    } finally {
      await plain.close();
    }
  });

  it('close_recording forgets the handle', async () => {
    const h = (await s.ok('open_recording', { path: R1 })).recording;
    assert.equal((await s.ok('close_recording', { recording: h })).closed, true);
    assert.match(await s.error('get_state', { recording: h }), new RegExp(`no open recording ${h}`));
  });
});

describe('MCP server on a Tin capsule (key from TIN_REPLAY_KEY, no toolchain)', () => {
  let s: McpSession;
  const env = cleanEnv({ TIN_REPLAY_KEY: FIXTURE_KEY });
  before(async () => {
    s = await McpSession.start([], env);
  });
  after(() => s.close());

  it('open_recording: the capsule\'s facts as `inspect --json`, effects left to list_records', async () => {
    const want = cliJson(['inspect', ORDERS], env);
    const got = await s.ok('open_recording', { path: ORDERS });
    const { effects, threads, ...facts } = want;
    for (const [k, v] of Object.entries(facts)) assert.deepEqual(got[k], v, k);
    assert.deepEqual(got.threads.items, threads);
    assert.equal(got.effects, undefined);
    assert.equal(got.panicAt.message, want.panic);
    const listed = { records: await allRecords(s, { recording: got.recording, limit: 1000 }) };
    assert.deepEqual(listed.records.map((r: { kind: string; thread: string }) => [r.kind, r.thread]), effects.map((e: { kind: string; thread: number }) => [e.kind, String(e.thread)]));
  });

  it('to the panic, the state there, a value history equal to `history --json`', async () => {
    const h = (await s.ok('open_recording', { path: ORDERS })).recording;
    const stop = await s.ok('move', { recording: h, action: 'to_panic' });
    assert.equal(stop.stop.exception, 'panic');
    const state = await s.ok('get_state', { recording: h });
    assert.equal(state.panicked, true);
    assert.equal(state.lastStop.reason, 'exception');
    const want = cliJson(['history', ORDERS, 'redis INCR hits:orders'], env);
    const got = await s.ok('variable_history', { recording: h, variable: 'redis INCR hits:orders' });
    assert.deepEqual(got.entries, want.entries);
    const task = want.entries[0].goroutine;
    const t = state.threads.items.find((x: { id: string }) => x.id === task);
    assert.equal(t.values['redis INCR hits:orders'], want.entries.at(-1).value);
  });

  it('a capsule of 100,000 effects: small answers, the most recent values first, long messages cut', async () => {
    const batch = join(TIN_FIXTURES, 'batch-100k.tcap');
    const open = await s.call('open_recording', { path: batch });
    assert.ok(open.text.length < 20_000, `summary of ${open.text.length} characters`);
    assert.equal(open.json.effectCount, 100_000);
    assert.ok(open.json.variables.total > 1000);
    assert.equal(open.json.variables.items.length, 100);
    const more = await s.ok('open_recording', { path: batch, variables_offset: 100 });
    assert.notDeepEqual(more.variables.items, open.json.variables.items);
    const state = await s.call('get_state', { recording: batch, position: 5000 });
    assert.ok(state.text.length < 20_000, `state of ${state.text.length} characters`);
    const t0 = state.json.threads.items[0];
    assert.equal(Object.keys(t0.values).length, 50);
    assert.ok(t0.valuesTotal > 50);
    // The effect just done (step 4999) set its variable: it is among the values shown.
    const just = state.json.justDone;
    const history = cliJson(['history', batch, just.summary.split(' → ')[0].replace(/@\d+/, '')], env);
    const name = history.variable as string;
    assert.equal(t0.values[name], history.entries.filter((e: { op: number }) => e.op <= 5000).at(-1).value);
    const only = await s.ok('get_state', { recording: batch, position: 5000, variables: [name, 'request.method'] });
    assert.deepEqual(Object.keys(only.threads.items[0].values).sort(), [name, 'request.method'].sort());
    const unknown = await s.error('variable_history', { recording: batch, variable: 'nosuch' });
    assert.ok(unknown.length < 2100 && !unknown.includes('\n'), `${unknown.length} characters`);
    assert.match(unknown, /no values of `nosuch`.*more characters\)$/);
  });

  it('test_secret equals `secret --json` and never echoes the candidate', async () => {
    for (const candidate of ['Bearer s3cr3t-token', 'Bearer guess']) {
      const want = cliJson(['secret', DECLINED, candidate], env);
      const r = await s.call('test_secret', { recording: DECLINED, candidate });
      assert.equal(r.isError, false, r.text);
      assert.deepEqual(r.json, want);
      assert.ok(!r.text.includes(candidate.split(' ')[1]));
    }
    assert.equal((await s.ok('test_secret', { recording: DECLINED, candidate: 'Bearer s3cr3t-token' })).matches[0].where, 'request header Authorization');
  });
});
