// The MCP server at source level (issue 27), with the real machin 0.137.0 and the SDK's own client
// over stdio: the same moves driven through the debug adapter (Microsoft's DebugClient) and the MCP
// server on the same recording give the same stops (thread, statement and stack, position); the
// panic's statement, stack and values of programs of our own are fields, as read off their text by
// hand; get_source marks the lines that ran; `until.line` is a `.mfl` line breakpoint both ways;
// evaluate answers as the debug console does, at a frame and at another position.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { recordProgram, type Recorded } from '../support/machin';
import { DIGGER } from '../support/programs';
import { PANIC_PROGRAMS } from '../support/panic-programs';
import { tempDir } from '../machin/support';
import { launchAndStop, machinEnv, moveAndStop, startAdapter, type Session } from '../dap/support';
import { MACHIN, McpSession, undeclared } from './support';

const LOOP_LINE = 23; // DIGGER: `total = total + v`, once per value main receives

/** One stop as both clients see it: the stop's thread, its program stack (statement ranges), the position and why. */
interface Seen {
  thread: string;
  frames: string[];
  position: number;
  reason: string;
}

type Frame = { function: string; line: number; column: number; endLine: number; endColumn: number };
// (the debugger says a statement of this replay only in the frame's name; MCP in a field)
const frameText = (f: Frame & { thisReplayOnly?: true }) => `${f.function}${f.thisReplayOnly ? ' · this replay only' : ''} ${f.line}:${f.column}-${f.endLine}:${f.endColumn}`;

/** What the MCP answer of a move says. */
function mcpSeen(answer: { stop: { thread: string; frames: Frame[]; reason: string }; position: number }): Seen {
  return { thread: answer.stop.thread, frames: answer.stop.frames.map(frameText), position: answer.position, reason: answer.stop.reason };
}

/** What a DAP client sees after a stop: the cursor event's thread, position and reason, the stopped thread's program frames. */
async function dapSeen(s: Session, threadId: number): Promise<Seen> {
  const cursor = [...s.events].reverse().find((e) => e.event === 'frozenRun/cursor')!.body as { thread: string; position: number; reason: string };
  const st = await s.dc.stackTraceRequest({ threadId });
  // The program's statement frames carry their range (the record frame below them does not).
  const frames = st.body.stackFrames
    .filter((f) => f.source?.path?.endsWith('.mfl') && f.endLine !== undefined)
    .map((f) => `${f.name} ${f.line}:${f.column}-${f.endLine}:${f.endColumn}`);
  return { thread: cursor.thread, frames, position: cursor.position, reason: cursor.reason };
}

let digger: Recorded;
const programs: Array<{ p: (typeof PANIC_PROGRAMS)[number]; rec: Recorded }> = [];
let mcp: McpSession;
before(async () => {
  digger = recordProgram(tempDir('mcp-source-'), 'digger', DIGGER);
  for (const p of PANIC_PROGRAMS) programs.push({ p, rec: recordProgram(tempDir('mcp-source-'), p.name, p.source) });
  mcp = await McpSession.start(['--toolchain', '--machin', MACHIN]);
});
after(() => mcp?.close());

describe('MCP at source level: the runtime\'s moves, the same stops as the debugger', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  it('the same sequence of moves over DAP and MCP gives the same stops', async () => {
    s = await startAdapter(machinEnv());
    // Stopped on entry, the launch answers once machin has replayed it all (statements included).
    const entry = await launchAndStop(s, { recording: digger.trace, stopOnEntry: true, timeLimitSeconds: 60 });
    assert.ok(s.events.some((e) => e.event === 'frozenRun/toolchain' && e.body.state === 'done'), s.output.join(''));
    const opened = await mcp.ok('open_recording', { path: digger.trace });
    const h = opened.recording;
    const records = opened.cursor.of.records as number;
    let threadId = entry.body.threadId!;
    const dap = async (send: (threadId: number) => Promise<unknown>): Promise<Seen> => {
      const stop = await moveAndStop(s, () => send(threadId));
      threadId = stop.body.threadId!;
      return dapSeen(s, threadId);
    };
    const move = async (args: Record<string, unknown>): Promise<Seen> => mcpSeen(await mcp.ok('move', { recording: h, ...args }));
    const both = async (what: string, args: Record<string, unknown>, send: (threadId: number) => Promise<unknown>): Promise<Seen> => {
      const viaMcp = await move(args);
      const viaDap = await dap(send);
      assert.deepEqual(viaMcp, viaDap, `${what}: MCP and DAP stop in different places`);
      return viaMcp;
    };
    const stepIn = (id: number) => s.dc.stepInRequest({ threadId: id });

    // From the start, `count: 3` is three statements: the stop of three stepIn requests.
    const three = await move({ action: 'step_in', count: 3 });
    const singles = [await dap(stepIn), await dap(stepIn), await dap(stepIn)];
    assert.deepEqual(three, singles[2], 'step_in count 3 against three stepIn requests');
    // main runs first: its first three statements, lines 17 to 19.
    assert.deepEqual(singles.map((x) => `${x.thread} ${x.frames[0].split('-')[0]}`), ['0 main 17:5', '0 main 18:5', '0 main 19:5']);
    // Then one by one through main's statements (into depth's calls), each a new place.
    const walked: Seen[] = [...singles];
    for (let i = 0; i < 10; i++) walked.push(await both(`step_in ${i + 4}`, { action: 'step_in' }, stepIn));
    for (const w of walked) assert.equal(w.reason, 'step', JSON.stringify(walked));
    for (const w of walked) assert.ok(w.frames.length > 0 && w.thread === '0', `every step_in from the start stops on a statement of main: ${JSON.stringify(walked)}`);
    assert.equal(new Set(walked.map((w) => `${w.thread} ${w.frames[0]} ${w.position}`)).size, walked.length, 'each step_in moves on');
    assert.ok(walked.every((w, i) => i === 0 || w.position >= walked[i - 1].position), 'forward in the run');
    // Over, out and their reverses, on the stop's thread and on main's.
    await both('next', { action: 'next' }, (id) => s.dc.nextRequest({ threadId: id }));
    await both('step_back', { action: 'step_back' }, (id) => s.dc.stepBackRequest({ threadId: id }));
    // Out and back out on main, whose statements are all sure: compared always (not only when the worker did not race).
    await both('step_out', { action: 'step_out' }, (id) => s.dc.stepOutRequest({ threadId: id }));
    await both('step_back_out', { action: 'step_back_out' }, (id) => s.dc.customRequest('frozenRun/stepBackOut', { threadId: id }));
    // On the worker (0.1): its statements, one past the cursor; then back to main's.
    const worker = (await s.dc.threadsRequest()).body.threads.find((t) => t.name.startsWith('0.1 '))!.id;
    // The adapter and the server each replayed the trace: statements of this replay only (the
    // worker's end after its last send races with the panic) may be in one and not the other, so
    // where either stops on one the two may part; the sure ones are the same (to_panic below).
    const mcpWorker = await move({ action: 'step_back_in', thread: '0.1' });
    const dapWorker = await dap(() => s.dc.customRequest('frozenRun/stepBackIn', { threadId: worker }));
    const raced = [mcpWorker, dapWorker].some((x) => x.frames.some((f) => f.includes('this replay only')));
    for (const inWorker of [mcpWorker, dapWorker]) {
      assert.equal(inWorker.thread, '0.1');
      assert.match(inWorker.frames[0], /^worker /);
    }
    // Only the worker's own steps are skipped when a statement of this replay only is in either stop (the part that truly races).
    if (!raced) {
      assert.deepEqual(mcpWorker, dapWorker, 'step_back_in on the worker: MCP and DAP stop in different places');
      await both('next on the worker', { action: 'next', thread: '0.1' }, () => s.dc.nextRequest({ threadId: worker }));
      await both('step_out', { action: 'step_out' }, (id) => s.dc.stepOutRequest({ threadId: id }));
      await both('step_back_out', { action: 'step_back_out' }, (id) => s.dc.customRequest('frozenRun/stepBackOut', { threadId: id }));
    }

    // to_panic lands where Continue stops (the panic filter is on): `return xs[5]`, three digs deep.
    const panic = await both('to_panic / continue', { action: 'to_panic' }, () => s.dc.continueRequest({ threadId }));
    assert.equal(panic.reason, 'exception');
    assert.deepEqual(panic.frames.map((f) => f.split('-')[0]), ['dig 6:17', 'dig 7:5', 'dig 7:5', 'dig 7:5', 'main 30:5']);
    const backFromPanic = await both('step_back_in from the panic', { action: 'step_back_in' }, (id) => s.dc.customRequest('frozenRun/stepBackIn', { threadId: id }));
    assert.equal(backFromPanic.frames[0].split('-')[0], 'dig 6:5', 'one statement back from the panic: the `if` of the same dig');
    await both('step_back_in again', { action: 'step_back_in' }, (id) => s.dc.customRequest('frozenRun/stepBackIn', { threadId: id }));

    // to_end is the debugger's goto to the end record state; one step back from there.
    const end = await both('to_end / goto the end', { action: 'to_end' }, () => s.dc.customRequest('frozenRun/goto', { record: records }));
    assert.equal(end.reason, 'end');
    const backFromEnd = await both('step_back_in from the end', { action: 'step_back_in' }, (id) => s.dc.customRequest('frozenRun/stepBackIn', { threadId: id }));
    // From the end (after everything), one step back meets the panic, on its statement.
    assert.equal(backFromEnd.reason, 'exception');
    assert.deepEqual(backFromEnd.frames, panic.frames);

    // until: a `.mfl` line breakpoint, forward and back, as a breakpoint set in the debugger.
    await both('to_start / goto the start', { action: 'to_start' }, () => s.dc.customRequest('frozenRun/goto', { record: -1 }));
    await s.dc.setBreakpointsRequest({ source: { path: digger.program }, breakpoints: [{ line: LOOP_LINE }] });
    const hits: Seen[] = [];
    for (let i = 0; i < 3; i++) hits.push(await both(`continue until line ${LOOP_LINE}`, { action: 'continue', until: { line: LOOP_LINE } }, () => s.dc.continueRequest({ threadId })));
    assert.deepEqual(hits.map((x) => x.frames[0].split('-')[0]), ['main 23:9', 'main 23:9', 'main 23:9']);
    assert.deepEqual(hits.map((x) => x.reason), ['breakpoint', 'breakpoint', 'breakpoint']);
    assert.ok(hits[0].position < hits[1].position && hits[1].position < hits[2].position, 'one stop per iteration');
    const back = await both(`reverse_continue until line ${LOOP_LINE} (path given)`, { action: 'reverse_continue', until: { line: LOOP_LINE, path: 'digger.mfl' } }, () => s.dc.reverseContinueRequest({ threadId }));
    assert.deepEqual(back, hits[1]);
    await s.dc.setBreakpointsRequest({ source: { path: digger.program }, breakpoints: [] });
    // The line breakpoint of `until` lasts one move: a plain continue runs on to the panic.
    const onward = await both('continue', { action: 'continue' }, () => s.dc.continueRequest({ threadId }));
    assert.equal(onward.reason, 'exception');
  });

  it('a forward move with nothing ahead is the runtime\'s refusal, as the debugger\'s', async () => {
    const h = (await mcp.ok('open_recording', { path: digger.trace })).recording;
    await mcp.ok('move', { recording: h, action: 'to_panic' });
    const refusal = await mcp.error('move', { recording: h, action: 'continue' });
    assert.match(refusal, /panicked \(index out of range \[5\] with length 2\) and nothing was recorded after that/);
    // Worded with this server's actions, not the debugger's buttons.
    assert.match(refusal, /move with step_back, step_back_in or reverse_continue to go earlier/);
    assert.doesNotMatch(refusal, /Step Back|Reverse Continue/);
    assert.match(await mcp.error('move', { recording: h, action: 'step_in', count: 2 }), /nothing was recorded after that/);
    // until.line that no statement starts on: the breakpoint's own words, with the program's path.
    await mcp.ok('move', { recording: h, action: 'to_start' });
    assert.match(await mcp.error('move', { recording: h, action: 'continue', until: { line: 4 } }), /digger\.mfl:4: No statement starts on line 4 \(the next one is on line 6\)/);
    assert.match(await mcp.error('move', { recording: h, action: 'continue', until: { line: 4, path: 'other.mfl' } }), /names the program .*digger\.mfl.* or the recording/);
    // until.path as a file:// URI (as clients give paths) names the program too.
    const byUri = await mcp.ok('move', { recording: h, action: 'continue', until: { line: LOOP_LINE, path: pathToFileURL(digger.program).href } });
    assert.deepEqual([byUri.stop.reason, byUri.stop.location.line, byUri.stop.location.path], ['breakpoint', LOOP_LINE, digger.program]);
    assert.match(await mcp.error('move', { recording: h, action: 'continue', until: { line: LOOP_LINE, path: 'https://example.com/digger.mfl' } }), /only file:\/\/ URIs/);
  });
});

describe('MCP at source level: the panic\'s statement, stack and values are fields', () => {
  it('open_recording, move to_panic and get_state name the statement that panicked, with its stack', async () => {
    for (const { p, rec } of programs) {
      const opened = await mcp.ok('open_recording', { path: rec.trace });
      const at = opened.panicAt;
      assert.equal(at.message, p.message, p.name);
      assert.equal(at.thread, p.thread, p.name);
      const [fn, lc] = p.frames[0].split(' ');
      const [line, column] = lc.split(':').map(Number);
      assert.deepEqual({ ...at.statement, endColumn: undefined }, { path: rec.program, line, column, endLine: p.endLine, endColumn: undefined, function: fn, text: p.text }, p.name);
      assert.deepEqual(at.frames.map((f: Frame) => `${f.function} ${f.line}:${f.column}`), p.frames, p.name);
      const stop = await mcp.ok('move', { recording: opened.recording, action: 'to_panic' });
      assert.equal(stop.stop.reason, 'exception');
      assert.equal(stop.stop.thread, p.thread);
      assert.deepEqual(stop.stop.location, at.statement, p.name);
      const atFrames = at.frames as Array<Frame & { locals: Record<string, string> }>;
      assert.deepEqual(stop.stop.frames, atFrames.map(({ locals: _locals, ...f }) => f), p.name);
      const state = await mcp.ok('get_state', { recording: opened.recording, thread: p.thread });
      assert.deepEqual(state.threads.items[0].location, at.statement, p.name);
      const frames = state.threads.items[0].frames as Array<Frame & { locals: Record<string, string> }>;
      // get_state's frames at the panic are panicAt's, locals and all.
      assert.deepEqual(frames, atFrames, p.name);
      // Each frame with the values it holds at the panic (its own, not its callee's), in both answers.
      for (const v of p.values.filter((x) => /^[a-z]+$/.test(x.expression))) {
        assert.equal(frames[v.frame].locals[v.expression], v.result, `${p.name}: ${v.expression} in frame ${v.frame}`);
        assert.equal(atFrames[v.frame].locals[v.expression], v.result, `${p.name}: panicAt's ${v.expression} in frame ${v.frame}`);
      }
    }
  });

  it('evaluate at the panic answers from each frame of the stack, as the debug console does', async () => {
    for (const { p, rec } of programs) {
      const h = (await mcp.ok('open_recording', { path: rec.trace })).recording;
      await mcp.ok('move', { recording: h, action: 'to_panic' });
      for (const v of p.values) {
        const r = await mcp.client.callTool({ name: 'evaluate', arguments: { recording: h, expression: v.expression, thread: p.thread, frame: v.frame } });
        assert.ok(!r.isError, `${p.name} ${v.expression}: ${JSON.stringify(r.content)}`);
        const got = r.structuredContent as { result: string; function: string; frame: number };
        assert.equal(got.result, v.result, `${p.name}: ${v.expression} in frame ${v.frame}`);
        assert.equal(got.function, p.frames[v.frame].split(' ')[0]);
        assert.deepEqual(JSON.parse((r.content as Array<{ text: string }>)[0].text), got, 'the text block is the same answer');
      }
      assert.match(await mcp.error('evaluate', { recording: h, expression: 'nosuchname', thread: p.thread }), /nosuchname: not known in /);
      assert.match(await mcp.error('evaluate', { recording: h, expression: 'x', thread: p.thread, frame: 9 }), /has 2 frames .* not 9/);
    }
  });

  it('asked at the panic\'s position or record, get_state, evaluate and get_source stand on the statement that panicked', async () => {
    for (const { p, rec } of programs) {
      const opened = await mcp.ok('open_recording', { path: rec.trace });
      const h = opened.recording;
      const at = opened.panicAt;
      const cursor = opened.cursor.position;
      const [fn, lc] = p.frames[0].split(' ');
      const line = Number(lc.split(':')[0]);
      for (const q of [{ position: at.position }, { record: at.record }]) {
        const what = `${p.name} at ${JSON.stringify(q)}`;
        const state = await mcp.ok('get_state', { recording: h, thread: p.thread, ...q });
        assert.equal(state.panicked, true, what);
        const t = state.threads.items[0];
        assert.deepEqual([t.location.function, t.location.line, t.location.text], [fn, line, p.text], what);
        assert.deepEqual(t.frames.map((f: Frame) => `${f.function} ${f.line}:${f.column}`), p.frames, what);
        for (const v of p.values) {
          const e = await mcp.ok('evaluate', { recording: h, expression: v.expression, thread: p.thread, frame: v.frame, ...q });
          assert.equal(e.result, v.result, `${what}: ${v.expression} in frame ${v.frame}`);
        }
        const src = await mcp.ok('get_source', { recording: h, thread: p.thread, around: 0, ...q });
        assert.equal(src.line, line, what);
        assert.equal(src.location.text, p.text, what);
      }
      // One record before the panic's, the run has not panicked, and the goroutine is not on the panic's statement.
      const before = await mcp.ok('get_state', { recording: h, thread: p.thread, record: at.record - 1 });
      assert.equal(before.panicked, false, p.name);
      assert.notDeepEqual(before.threads.items[0].location, at.statement, p.name);
      assert.equal((await mcp.ok('get_state', { recording: h })).position, cursor, 'the cursor did not move');
    }
  });

  it('the statement and frame fields are declared in each tool\'s outputSchema', async () => {
    const { tools } = await mcp.client.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)!.outputSchema as Parameters<typeof undeclared>[0];
    const { rec } = programs[2]; // LEAF: three frames deep in a goroutine started by another
    const opened = await mcp.ok('open_recording', { path: rec.trace });
    const h = opened.recording;
    assert.ok(opened.panicAt.frames.length > 0 && opened.panicAt.frames[0].locals, JSON.stringify(opened.panicAt));
    assert.deepEqual(undeclared(schema('open_recording'), { panicAt: opened.panicAt }), []);
    const moved = await mcp.ok('move', { recording: h, action: 'to_panic' });
    assert.ok(moved.stop.location && moved.stop.frames.length > 0);
    assert.deepEqual(undeclared(schema('move'), moved), []);
    for (const q of [{}, { position: 1 }]) {
      const state = await mcp.ok('get_state', { recording: h, ...q });
      assert.ok(state.threads.items.some((t: { frames: unknown[] }) => t.frames.length > 0));
      assert.deepEqual(undeclared(schema('get_state'), state), [], JSON.stringify(q));
    }
    assert.deepEqual(undeclared(schema('get_source'), await mcp.ok('get_source', { recording: h })), []);
    assert.deepEqual(undeclared(schema('evaluate'), await mcp.ok('evaluate', { recording: h, expression: 'i' })), []);
  });

  it('evaluate at another position does not move the cursor', async () => {
    const { p, rec } = programs[0]; // DIVIDER: sum is 6 after the first value, 18 at the panic
    const h = (await mcp.ok('open_recording', { path: rec.trace })).recording;
    const panic = await mcp.ok('move', { recording: h, action: 'to_panic' });
    const history = await mcp.ok('variable_history', { recording: h, variable: 'sum', thread: p.thread });
    const op = (value: string) => history.entries.find((e: { value: string }) => e.value === value).op as number;
    // Past the store of 6 and before that of 18 (12 more, from d = 1).
    const between = op('6') + 1;
    assert.ok(between <= op('18'), JSON.stringify(history));
    const early = await mcp.ok('evaluate', { recording: h, expression: 'sum', thread: p.thread, position: between });
    assert.equal(early.result, '6');
    assert.equal(early.position, between);
    // get_state at that position: main's statement and its frame's values there.
    const then = await mcp.ok('get_state', { recording: h, position: between, thread: p.thread });
    const top = then.threads.items[0].frames.at(-1);
    assert.equal(top.function, 'main');
    assert.equal(top.locals.sum, '6');
    assert.equal(then.threads.items[0].location.line, then.threads.items[0].frames[0].line);
    const state = await mcp.ok('get_state', { recording: h });
    assert.equal(state.position, panic.position, 'the cursor stayed at the panic');
    assert.equal((await mcp.ok('evaluate', { recording: h, expression: 'sum', thread: p.thread, frame: 1 })).result, '18');
  });

  it('variable_history and find_value_change: a variable is one function\'s (DIGGER: the n of depth, dig and worker)', async () => {
    const h = (await mcp.ok('open_recording', { path: digger.trace })).recording;
    await mcp.ok('move', { recording: h, action: 'to_panic' });
    assert.match(await mcp.error('variable_history', { recording: h, variable: 'n' }), /`n` is a variable of 3 functions; name one: depth\.n \(4 values\), dig\.n \(4 values\), worker\.n \(1 value\)/);
    const dig = await mcp.ok('variable_history', { recording: h, variable: 'dig.n' });
    assert.equal(dig.key, 'dig.n');
    // dig(xs, 3) calls itself down to 0; depth(3) likewise, before it: each variable its own four.
    assert.deepEqual(dig.entries.map((e: { value: string }) => e.value), ['3', '2', '1', '0']);
    assert.ok(dig.entries.every((e: { statement: { function: string } }) => e.statement.function === 'dig'));
    const depth = await mcp.ok('variable_history', { recording: h, variable: 'n', function: 'depth' });
    assert.equal(depth.key, 'depth.n');
    assert.ok(depth.entries.every((e: { op: number; at: string }) => e.at === (e.op === 0 ? 'start' : `op ${e.op - 1}`)));
    // At the panic main is in dig: a bare `n` is dig's.
    const change = await mcp.ok('find_value_change', { recording: h, variable: 'n', thread: '0', direction: 'backward' });
    assert.equal(change.found, true);
    assert.equal(change.value, '0');
  });

  it('get_source: the lines around the panic, the lines that ran marked', async () => {
    const { p, rec } = programs[0]; // DIVIDER
    const h = (await mcp.ok('open_recording', { path: rec.trace })).recording;
    await mcp.ok('move', { recording: h, action: 'to_panic' });
    const r = await mcp.client.callTool({ name: 'get_source', arguments: { recording: h, around: 30 } });
    assert.ok(!r.isError, JSON.stringify(r.content));
    const src = r.structuredContent as { path: string; line: number; lines: Array<{ line: number; text: string; code: boolean; ran: number; ranBefore: number; here?: true }>; location: { text: string } };
    const lines = p.source.split('\n');
    assert.equal(src.path, rec.program);
    assert.equal(src.line, 2);
    assert.equal(src.location.text, 'q := a / b');
    assert.deepEqual(src.lines.map((l) => l.text), lines.slice(0, src.lines.length));
    const byLine = new Map(src.lines.map((l) => [l.line, l]));
    assert.equal(byLine.get(2)!.here, true);
    // ratio was called three times (d = 2, 1, 0); its `return q` ran twice; the loop body three times.
    assert.equal(byLine.get(2)!.ran, 3);
    assert.equal(byLine.get(3)!.ran, 2);
    assert.equal(byLine.get(19)!.ran, 3);
    // println after the loop never ran; a closing brace is no statement.
    assert.equal(byLine.get(22)!.ran, 0);
    assert.equal(byLine.get(22)!.code, true);
    assert.equal(byLine.get(4)!.code, false);
    // As of an earlier position, fewer arrivals are behind.
    const early = await mcp.ok('get_source', { recording: h, line: 19, around: 0, position: 1 });
    assert.ok(early.lines[0].ranBefore < 3, JSON.stringify(early));
    assert.match(await mcp.error('get_source', { recording: h, line: 999 }), /line 999 is past the end \(the program has \d+ lines\)/);
  });
});

describe('MCP at source level: without the statements, each new field and tool says why', () => {
  it('no toolchain: location null with the reason, get_source and a .mfl line refused with why, evaluate by record', async () => {
    const plain = await McpSession.start();
    try {
      const h = (await plain.ok('open_recording', { path: digger.trace })).recording;
      const state = await plain.ok('get_state', { recording: h });
      assert.match(state.statements, /no toolchain is run/);
      assert.equal(state.threads.items[0].location, null);
      assert.deepEqual(state.threads.items[0].frames, []);
      assert.match(await plain.error('get_source', { recording: h }), /statements are not known \(no toolchain is run/);
      assert.match(await plain.error('move', { recording: h, action: 'continue', until: { line: 23, path: 'digger.mfl' } }), /no line breakpoint in digger\.mfl: the program's statements are not known/);
      // Steps are by record: the first step_in is the trace's first record.
      const first = await plain.ok('move', { recording: h, action: 'step_in' });
      assert.equal(first.record, 0);
      assert.equal(first.stop.location, null);
      // evaluate still answers record fields, as the console does without values.
      assert.equal((await plain.ok('evaluate', { recording: h, expression: 'op + 1' })).result, '1');
    } finally {
      await plain.close();
    }
  });
});
