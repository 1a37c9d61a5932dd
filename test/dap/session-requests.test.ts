// The remaining requests over DAP, on the reader trace (I/O of a file read by goroutine 0), trace
// only: capabilities, scopes (the record, I/O consumed, the run), evaluate for hovers and the
// console, loaded sources, pause, restart, terminate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { buildAdapter, lastCursor, launchAndStop, MACHIN_FIXTURES, moveAndStop, startAdapter, topFrame, traceRecords, variablesOf, type Session } from './support';

before(buildAdapter);

const TRACE = path.join(MACHIN_FIXTURES, 'reader/reader.mflrr');
const records = traceRecords(TRACE);
const ioLines = readFileSync(TRACE, 'latin1').split('\n').filter((l) => l.startsWith('I '));

describe('session requests (reader trace, trace only)', () => {
  let s: Session;
  let capabilities: Record<string, unknown>;
  // A fresh session for each test: one failure does not leave the next one somewhere else.
  beforeEach(async () => {
    s = await startAdapter();
    capabilities = s.capabilities as Record<string, unknown>;
    await launchAndStop(s, { recording: TRACE, stopOnEntry: true, noToolchain: true });
  });
  afterEach(() => s.dc.stop());

  test('capabilities say what the adapter does', () => {
    for (const c of [
      'supportsStepBack', 'supportsGotoTargetsRequest', 'supportsRestartRequest', 'supportsConditionalBreakpoints', 'supportsHitConditionalBreakpoints',
      'supportsLogPoints', 'supportsFunctionBreakpoints', 'supportsDataBreakpoints', 'supportsEvaluateForHovers', 'supportsExceptionInfoRequest',
      'supportsTerminateRequest', 'supportsConfigurationDoneRequest', 'supportsLoadedSourcesRequest',
    ]) assert.equal(capabilities[c], true, c);
    const filters = (capabilities.exceptionBreakpointFilters as Array<{ filter: string }>).map((f) => f.filter);
    assert.deepEqual(filters, ['panic', 'divergence', 'fault']);
  });

  test('at the end: the record scope, the I/O consumed by the goroutine, the run scope', async () => {
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    const g = records[records.length - 1].goroutine;
    const threads = (await s.dc.threadsRequest()).body.threads;
    const t = threads.find((x) => x.name.split(' ')[0] === g)!.id;
    const top = await topFrame(s, t);
    const rec = await variablesOf(s, top.frames[0].id, 'Record');
    assert.equal(rec.line, String(records[records.length - 1].line));
    assert.equal(rec.kind, records[records.length - 1].tag === 'S' ? 'sched' : 'io');
    const consumed = await variablesOf(s, top.frames[0].id, 'I/O consumed so far');
    const mine = ioLines.filter((l) => l.split(' ')[1] === g);
    assert.equal(Object.keys(consumed).length, mine.length);
    assert.deepEqual(Object.keys(consumed), records.filter((r) => r.tag === 'I' && r.goroutine === g).map((r) => `line ${r.line}`));
    const run = await variablesOf(s, top.frames[0].id, 'Run');
    assert.equal(run.file, TRACE);
    assert.match(run.position, new RegExp(`^${records.filter((r) => r.tag === 'S').length} of`));
    assert.equal(run.panic, 'unknown (machin did not run)');
  });

  test('evaluate: record fields, the decoded value as a tree, unknown names as a clear error', async () => {
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    const t = lastCursor(s).threadId;
    const frame = (await topFrame(s, t)).frames[0].id;
    const line = await s.dc.evaluateRequest({ expression: 'line', frameId: frame, context: 'hover' });
    assert.equal(line.body.result, String(records[records.length - 1].line));
    const both = await s.dc.evaluateRequest({ expression: 'kind == "sched" || kind == "io"', frameId: frame, context: 'repl' });
    assert.equal(both.body.result, 'true');
    const value = await s.dc.evaluateRequest({ expression: 'value', frameId: frame, context: 'watch' });
    assert.ok(value.body.result.length > 0);
    await assert.rejects(s.dc.evaluateRequest({ expression: 'nosuchname', frameId: frame, context: 'repl' }), /not known in/);
    await assert.rejects(s.dc.evaluateRequest({ expression: 'a +', frameId: frame, context: 'repl' }), /ends too early/);
  });

  test('loaded sources: the served recording', async () => {
    const res = await s.dc.customRequest('loadedSources', {});
    assert.ok((res.body.sources as Array<{ name: string; sourceReference?: number }>).some((x) => x.name === 'reader.mflrr (replay)' && (x.sourceReference ?? 0) > 0));
  });

  test('data breakpoints need watched values: without machin the info says why', async () => {
    const info = await s.dc.dataBreakpointInfoRequest({ name: 'x', frameId: 1 });
    assert.equal(info.body.dataId, null);
    assert.match(info.body.description, /machin did not run/);
  });

  test('requests with nonsense arguments get an error, and the adapter goes on', async () => {
    await assert.rejects(s.dc.nextRequest({ threadId: 999 }), /No thread 999/);
    await assert.rejects(s.dc.stackTraceRequest({ threadId: 0 }), /No thread 0/);
    await assert.rejects(s.dc.customRequest('frozenRun/goto', { position: -5 }), /outside/);
    await assert.rejects(s.dc.customRequest('frozenRun/goto', {}), /Say where/);
    await assert.rejects(s.dc.customRequest('frozenRun/nonsense', {}), /Unknown request/);
    const tl = await s.dc.customRequest('frozenRun/timeline', { from: 'abc', count: null });
    assert.equal(tl.body.from, 0);
    const scopes = await s.dc.scopesRequest({ frameId: 123456 });
    assert.ok(scopes.body.scopes.length > 0);
    assert.ok((await s.dc.threadsRequest()).body.threads.length > 0);
  });

  test('pause while stopped answers with a pause stop where it is', async () => {
    const before = lastCursor(s).record;
    const stop = await moveAndStop(s, () => s.dc.pauseRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'pause');
    assert.equal(lastCursor(s).record, before);
  });

  test('restart goes back to the start and applies the stop rule again', async () => {
    const stop = await moveAndStop(s, () => s.dc.restartRequest({}));
    assert.equal(stop.body.reason, 'entry');
    assert.equal(lastCursor(s).position, 0);
    const again = await moveAndStop(s, () => s.dc.restartRequest({ arguments: { recording: TRACE, noToolchain: true, replayToPanic: true } } as never));
    assert.match(again.body.text ?? '', /no panic is known/);
    assert.equal(lastCursor(s).atEnd, true);
  });

  test('a restart that opens the recording again keeps the breakpoints, under the ids the client was told', async () => {
    const set = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line: records[2].line }] });
    // The goroutine of record 3 (the reader has one), from its occurrence there on: after the line breakpoint.
    const g = records[3].goroutine;
    const occurrence = records.slice(0, 4).filter((r) => r.goroutine === g).length;
    const fn = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${g}`, hitCondition: String(occurrence) }] });
    const entry = await moveAndStop(s, () => s.dc.restartRequest({ arguments: { recording: TRACE, noToolchain: false, stopOnEntry: true } } as never));
    assert.equal(entry.body.reason, 'entry');
    assert.ok(s.events.filter((e) => e.event === 'frozenRun/toolchain').some((e) => e.body.state === 'unavailable'), 'machin is not on PATH here');
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'breakpoint');
    assert.equal((await topFrame(s, stop.body.threadId!)).line, records[2].line);
    assert.deepEqual(stop.body.hitBreakpointIds, [set.body.breakpoints[0].id]);
    const byName = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(byName.body.reason, 'function breakpoint');
    assert.equal((await topFrame(s, byName.body.threadId!)).line, records[3].line);
    assert.deepEqual(byName.body.hitBreakpointIds, [fn.body.breakpoints[0].id]);
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  });

  test('terminate ends the session', async () => {
    const ended = s.dc.waitForEvent('terminated');
    await s.dc.terminateRequest({});
    await ended;
  });
});
