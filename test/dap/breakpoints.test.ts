// Breakpoints over DAP, in both directions, on the pipeline trace (21 ops, 4 goroutines), trace
// only: lines of the recording (verified only on record lines), function breakpoints on
// goroutines and kinds, conditions, hit counts, log points, goto targets.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { buildAdapter, lastCursor, launchAndStop, MACHIN_FIXTURES, moveAndStop, startAdapter, topFrame, traceRecords, type Session } from './support';

before(buildAdapter);

const TRACE = path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr');
const records = traceRecords(TRACE);

describe('breakpoints (pipeline trace, trace only)', () => {
  let s: Session;
  // A fresh session for each test: one failure does not leave the next one somewhere else.
  beforeEach(async () => {
    s = await startAdapter();
    await launchAndStop(s, { recording: TRACE, stopOnEntry: true, noToolchain: true });
  });
  afterEach(() => s.dc.stop());

  async function stopLine(stop: { body: { threadId?: number } }): Promise<number> {
    return (await topFrame(s, stop.body.threadId!)).line;
  }

  test('line breakpoints verify only on record lines, by path of the trace file', async () => {
    const res = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line: 1 }, { line: records[2].line }, { line: 9999 }] });
    assert.deepEqual(res.body.breakpoints.map((b) => b.verified), [false, true, false]);
    assert.match(res.body.breakpoints[0].message ?? '', /line 1 holds no record/);
    const other = await s.dc.setBreakpointsRequest({ source: { path: '/elsewhere/other.mflrr' }, breakpoints: [{ line: records[2].line }] });
    assert.equal(other.body.breakpoints[0].verified, false);
  });

  test('line breakpoints stop forward and backward; continue ends at the end, reverseContinue at the start', async () => {
    const a = records[3];
    const b = records[15];
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line: a.line }, { line: b.line }] });
    let stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'breakpoint');
    assert.equal(await stopLine(stop), a.line);
    stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(await stopLine(stop), b.line);
    stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'end');
    assert.equal(lastCursor(s).position, records.filter((r) => r.tag === 'S').length);
    stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'breakpoint');
    assert.equal(await stopLine(stop), b.line);
    stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(await stopLine(stop), a.line);
    stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'start');
    assert.equal(lastCursor(s).position, 0);
  });

  test('breakpoints set through the served sourceReference bind to the same records', async () => {
    const top = await topFrame(s, 1);
    const ref = top.source!.sourceReference!;
    const src = await s.dc.sourceRequest({ source: top.source, sourceReference: ref });
    assert.equal(src.body.content.split('\n')[records[5].line - 1], `S ${records[5].goroutine}`);
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
    await s.dc.setBreakpointsRequest({ source: top.source!, breakpoints: [{ line: records[5].line }] });
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(await stopLine(stop), records[5].line);
    await s.dc.setBreakpointsRequest({ source: top.source!, breakpoints: [] });
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
  });

  test('function breakpoint on a goroutine stops on each of its records, both ways; hit counts count occurrences in the run', async () => {
    const g = '0.1.2';
    const mine = records.filter((r) => r.goroutine === g);
    const res = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${g}` }, { name: 'nonsense' }] });
    assert.deepEqual(res.body.breakpoints.map((b) => b.verified), [true, false]);
    assert.match(res.body.breakpoints[1].message ?? '', /neither a record kind/);
    for (const r of mine) {
      const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(stop.body.reason, 'function breakpoint');
      assert.equal(await stopLine(stop), r.line);
    }
    for (const r of mine.slice(0, -1).reverse()) {
      const stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
      assert.equal(await stopLine(stop), r.line);
    }
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).position, 0);
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${g}`, hitCondition: '3' }] });
    const third = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(await stopLine(third), mine[2].line);
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'end');
    const back = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(await stopLine(back), mine[2].line, 'the same occurrence going back');
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
  });

  test('function breakpoint on a kind with a condition on record fields', async () => {
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'sched', condition: 'thread == "0" && op >= 17' }] });
    const want = records.map((r, i) => ({ ...r, op: records.slice(0, i).filter((x) => x.tag === 'S').length })).filter((r) => r.tag === 'S' && r.goroutine === '0' && r.op >= 17);
    assert.ok(want.length > 0);
    for (const r of want) {
      const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(await stopLine(stop), r.line);
      assert.equal(stop.body.threadId, (await s.dc.threadsRequest()).body.threads.find((t) => t.name.split(' ')[0] === '0')!.id);
    }
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
  });

  test('a bad condition or hit count is an unverified breakpoint with the reason', async () => {
    const res = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line: records[1].line, condition: 'idx >' }, { line: records[2].line, hitCondition: 'often' }] });
    assert.deepEqual(res.body.breakpoints.map((b) => b.verified), [false, false]);
    assert.match(res.body.breakpoints[0].message ?? '', /condition/);
    assert.match(res.body.breakpoints[1].message ?? '', /hit count/);
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
  });

  test('log points print and do not stop', async () => {
    const marks = [records[4], records[10]];
    s.output.length = 0;
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: marks.map((r) => ({ line: r.line, logMessage: 'at {line} goroutine {thread} op {op}' })) });
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'end');
    const logs = s.output.filter((o) => o.startsWith('at '));
    assert.deepEqual(logs, marks.map((r) => `at ${r.line} goroutine ${r.goroutine} op ${records.slice(0, records.indexOf(r)).filter((x) => x.tag === 'S').length}\n`));
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
  });

  test('gotoTargets on any record line, goto and frozenRun/goto move there', async () => {
    const top = await topFrame(s, 1);
    const r = records[12];
    const targets = await s.dc.gotoTargetsRequest({ source: { path: TRACE }, line: r.line });
    assert.equal(targets.body.targets.length, 1);
    const stop = await moveAndStop(s, () => s.dc.gotoRequest({ threadId: 1, targetId: targets.body.targets[0].id }));
    assert.equal(stop.body.reason, 'goto');
    assert.equal(await stopLine(stop), r.line);
    const none = await s.dc.gotoTargetsRequest({ source: top.source!, line: 2 });
    assert.equal(none.body.targets.length, 0);
    await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 5 }));
    assert.equal(lastCursor(s).position, 5);
    const back = await moveAndStop(s, () => s.dc.customRequest('frozenRun/runBackTo', { line: records[1].line }));
    assert.equal(await stopLine(back), records[1].line);
    await assert.rejects(s.dc.customRequest('frozenRun/runBackTo', { line: records[8].line }), /not before the current one/);
  });
});
