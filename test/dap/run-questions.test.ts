// The whole-run questions over DAP with the real machin 0.137.0 (issue 30): a log point set on a
// `.mfl` line while stopped prints every hit of the run at once, in run order, each as an output
// event with the program's source and line, the values equal to an independent per-line probe
// (test/support/truth-probes.ts); passing it later neither stops nor prints again; the Hits view's
// pages, the line counts, a value's origin across goroutines, and going to a hit.
import assert from 'node:assert/strict';
import { afterEach, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { tempDir } from '../machin/support';
import { recordProgram, scheduleOf, type Recorded } from '../support/machin';
import { WORKERS, WORKERS_LOOP_LINE, WORKERS_NEVER_LINE, WORKERS_RECEIVE_LINE } from '../support/question-programs';
import { truthReplay, type TruthStatement } from '../support/truth-probes';
import { buildAdapter, lastCursor, launchAndStop, machinEnv, moveAndStop, startAdapter, type Session } from './support';

let rec: Recorded;
let truth: Map<string, TruthStatement[]>;
before(async () => {
  await buildAdapter();
  rec = recordProgram(tempDir('dap-questions-'), 'workers', WORKERS);
  truth = truthReplay(rec.trace, rec.program, ['i', 'acc']).byGoroutine;
});

/** Waits until the statements are in (the lineCounts request is answered). */
async function statementsReady(s: Session): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    try {
      await s.dc.customRequest('frozenRun/lineCounts', {});
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the statements never came: ${s.output.join('')}`);
}

describe('whole-run questions over DAP', () => {
  let s: Session;
  afterEach(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('a log point prints every hit at once, in run order, with source and line; passing it stops nowhere and prints nothing more', async () => {
    s = await startAdapter(machinEnv());
    const outputs: DebugProtocol.OutputEvent[] = [];
    s.dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e));
    await launchAndStop(s, { recording: rec.trace, stopOnEntry: true, timeLimitSeconds: 60 });
    await statementsReady(s);
    const before = outputs.length;
    const r = await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, logMessage: 'i={i} acc={acc}' }] });
    assert.equal(r.body.breakpoints[0].verified, true);
    for (let waited = 0; outputs.length - before < 10 && waited < 5000; waited += 50) await new Promise((res) => setTimeout(res, 50));
    const hits = outputs.slice(before).filter((e) => e.body.source?.path === rec.program);
    const want = [...truth].flatMap(([g, list]) => list.filter((t) => t.line === WORKERS_LOOP_LINE).map((t) => `${g} i=${t.values.i} acc=${t.values.acc}`));
    assert.equal(hits.length, want.length);
    for (const h of hits) assert.equal(h.body.line, WORKERS_LOOP_LINE);
    const said = hits.map((h) => /^\[goroutine (\S+) work line 5:\d+ before op \d+\/\d+\] (.*)\n$/.exec(h.body.output)).map((m) => `${m![1]} ${m![2]}`);
    assert.deepEqual([...said].sort(), [...want].sort());
    // Per goroutine in its own order (run order keeps each goroutine's order)
    for (const g of truth.keys()) assert.deepEqual(said.filter((x) => x.startsWith(`${g} `)), want.filter((x) => x.startsWith(`${g} `)));
    // Another request with the log point unchanged and a plain breakpoint added prints nothing again.
    const settled = () => new Promise((res) => setTimeout(res, 1500));
    const mark = outputs.length;
    await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, logMessage: 'i={i} acc={acc}' }, { line: WORKERS_RECEIVE_LINE }] });
    await settled();
    assert.deepEqual(outputs.slice(mark).map((e) => e.body.output), []);
    // A changed condition prints again; one that has no value at the hits says why, once.
    await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, logMessage: 'i={i} acc={acc}', condition: 'zz > 1' }, { line: WORKERS_RECEIVE_LINE }] });
    for (let waited = 0; outputs.length === mark && waited < 5000; waited += 50) await new Promise((res) => setTimeout(res, 50));
    await settled();
    const said2 = outputs.slice(mark).map((e) => e.body.output);
    assert.deepEqual(said2, [`log point on line ${WORKERS_LOOP_LINE}: no hit in this run (${want.length} arrivals, none passed the condition or hit count; the condition has no value at some: zz: not a variable of work)\n`]);
    // The plain breakpoint removed (the log point as it is): nothing printed again.
    const mark2 = outputs.length;
    await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, logMessage: 'i={i} acc={acc}', condition: 'zz > 1' }] });
    await settled();
    assert.equal(outputs.length, mark2);
    // Continue to the end: the log point neither stops the run nor prints again.
    const printed = outputs.length;
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.ok(lastCursor(s).atEnd, JSON.stringify(lastCursor(s)));
    assert.equal(outputs.slice(printed).filter((e) => e.body.source?.path === rec.program).length, 0);
  });

  test('the Hits view pages, the line counts, a value origin, and going to a hit', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: rec.trace, stopOnEntry: true, timeLimitSeconds: 60 });
    await statementsReady(s);
    const page = (await s.dc.customRequest('frozenRun/logPointHits', { line: WORKERS_LOOP_LINE, logMessage: '{acc}', limit: 4 })).body;
    assert.equal(page.hits.length, 4);
    assert.equal(page.arrivals, 10);
    const rest = (await s.dc.customRequest('frozenRun/logPointHits', { line: WORKERS_LOOP_LINE, logMessage: '{acc}', offset: page.next, goroutine: '0.2' })).body;
    assert.ok(rest.hits.every((h: { goroutine: string }) => h.goroutine === '0.2'));
    await assert.rejects(s.dc.customRequest('frozenRun/logPointHits', { line: WORKERS_LOOP_LINE, logMessage: '{i +}' }), /Log point: line 5/);
    const counts = (await s.dc.customRequest('frozenRun/lineCounts', {})).body;
    assert.deepEqual(counts.notReached, [WORKERS_NEVER_LINE]);
    assert.equal(counts.lines.find((l: { line: number }) => l.line === WORKERS_LOOP_LINE).hits, 10);
    assert.deepEqual(counts.lines.find((l: { line: number }) => l.line === WORKERS_LOOP_LINE).byFunction, { work: 10 });
    // An inline breakpoint's column is bound to the statement there, and answered with its column.
    const inline = (await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, column: 15 }] })).body.breakpoints[0];
    assert.equal(inline.verified, true);
    assert.equal(inline.column, 9);
    await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [] });
    // Go to main's statement after its first receive, and ask where r came from.
    const receive = (await s.dc.customRequest('frozenRun/logPointHits', { line: WORKERS_RECEIVE_LINE + 1, logMessage: '{r}' })).body.hits[0];
    const stop = await moveAndStop(s, () => s.dc.customRequest('frozenRun/gotoStatement', { seq: receive.seq }));
    assert.equal(stop.body.reason, 'goto');
    const threads = (await s.dc.threadsRequest()).body.threads;
    const main = threads.find((t) => t.name.startsWith('0 '))!.id;
    const chain = (await s.dc.customRequest('frozenRun/valueOrigin', { variable: 'r', threadId: main })).body;
    const firstSender = scheduleOf(rec.trace).find((g) => g !== '0');
    assert.deepEqual(chain.steps.map((x: { via: string; goroutine: string }) => `${x.via} ${x.goroutine}`), ['receive 0', `send ${firstSender}`, `store ${firstSender}`]);
    assert.equal(chain.value, receive.text);
    await assert.rejects(s.dc.customRequest('frozenRun/valueOrigin', { variable: 'nope', threadId: main }), /nope has no value/);
  });

  test('a log point set at launch, before the statements are in, is bound when they come and prints every hit', async () => {
    s = await startAdapter(machinEnv());
    const outputs: DebugProtocol.OutputEvent[] = [];
    s.dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e));
    const changed: DebugProtocol.BreakpointEvent[] = [];
    s.dc.on('breakpoint', (e: DebugProtocol.BreakpointEvent) => changed.push(e));
    let first: DebugProtocol.Breakpoint | undefined;
    await launchAndStop(s, { recording: rec.trace, replayToPanic: true, timeLimitSeconds: 60 }, async (dc) => {
      first = (await dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: WORKERS_LOOP_LINE, logMessage: 'acc={acc}' }] })).body.breakpoints[0];
    });
    const want = [...truth.values()].flat().filter((t) => t.line === WORKERS_LOOP_LINE).length;
    for (let waited = 0; outputs.filter((e) => e.body.source?.path === rec.program).length < want && waited < 60_000; waited += 100) await new Promise((res) => setTimeout(res, 100));
    const hits = outputs.filter((e) => e.body.source?.path === rec.program);
    assert.equal(hits.length, want, s.output.join(''));
    assert.ok(hits.every((h) => /\] acc=\d+\n$/.test(h.body.output)), hits.map((h) => h.body.output).join(""));
    // Answered unverified while machin replayed, then verified by a changed event for the same id.
    if (first && !first.verified) assert.ok(changed.some((e) => e.body.reason === 'changed' && e.body.breakpoint.id === first!.id && e.body.breakpoint.verified), JSON.stringify(changed));
  });
});
