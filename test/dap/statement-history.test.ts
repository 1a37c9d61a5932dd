// Going to a variable history's row at source level over DAP (issue 29, point 1), with the real
// machin 0.137.0: `frozenRun/goto` with a statement the goroutine ran, `after: true`, stands on
// the goroutine's next statement, so the value that statement stored is the one shown (the row
// `base = 2` shows `base = 2`, not the value before it). Expected values are the program's own
// (REORDER: the collector's base goes 0, 1, 2, 3, 4), the rows' events are the engine's history.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { openRecording } from '../../replay-engine/open';
import { keyFor, statementVariables } from '../../replay-engine/model/statement-histories';
import { scopeFunction } from '../../extension/view-models/history-model';
import { machinPath, recordProgram, type Recorded } from '../support/machin';
import { REORDER } from '../support/programs';
import { tempDir } from '../machin/support';
import { buildAdapter, launchAndStop, machinEnv, rawRequest, startAdapter, variablesOf, type Session } from './support';

let rec: Recorded;
let stores: Array<{ event: number; value: string; line: number }>;
before(async () => {
  await buildAdapter();
  rec = recordProgram(tempDir('dap-history-'), 'reorder', REORDER);
  const opened = await openRecording(rec.trace, { machinPath: machinPath(), programRoots: [rec.dir], timeLimitMs: 60_000 });
  const base = statementVariables(opened.histories!, opened.statements!)!.find((v) => v.key === 'collector.base')!;
  stores = base.stores.map((s) => ({ event: s.event, value: s.value, line: s.line }));
});

/** The goto, retried while the adapter's statements are still coming (it refuses with 1074 then). */
async function gotoStatement(s: Session, statement: { thread: string; event: number; after?: boolean }): Promise<DebugProtocol.Response> {
  for (let waited = 0; ; waited += 200) {
    const r = await rawRequest(s.dc, 'frozenRun/goto', { statement });
    if (r.success || !/statements of the program are not known/.test(r.message ?? '') || waited > 60_000) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

async function collectorTop(s: Session): Promise<{ frame: DebugProtocol.StackFrame; values: Record<string, string> }> {
  const threads = (await s.dc.threadsRequest()).body.threads;
  const collector = threads.find((t) => t.name.startsWith('0.2 '))!;
  const frame = (await s.dc.stackTraceRequest({ threadId: collector.id })).body.stackFrames[0];
  return { frame, values: await variablesOf(s, frame.id, /^Program \(/) };
}

describe('the Variables view names the frame\'s function, so its `base` opens that function\'s history', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('at the panic: place\'s frame is place\'s, the collector\'s its own', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: rec.trace, replayToPanic: true, timeLimitSeconds: 60 });
    const opened = await openRecording(rec.trace, { machinPath: machinPath(), programRoots: [rec.dir], timeLimitMs: 60_000 });
    const vars = statementVariables(opened.histories!, opened.statements!)!;
    for (let waited = 0; waited < 60_000; waited += 200) {
      const threads = (await s.dc.threadsRequest()).body.threads;
      const t = threads.find((x) => x.name.startsWith('0.2 '))!;
      const frames = (await s.dc.stackTraceRequest({ threadId: t.id })).body.stackFrames;
      if (frames[0].name === 'place') {
        const names = [];
        for (const f of frames.slice(0, 2)) names.push((await s.dc.scopesRequest({ frameId: f.id })).body.scopes[0].name);
        assert.deepEqual(names.map(scopeFunction), ['place', 'collector'], names.join(' | '));
        assert.deepEqual(names.map((n) => keyFor(vars, 'base', scopeFunction(n))), ['place.base', 'collector.base']);
        // The watch `history(base)` is the selected frame's function's variable, its rows at the
        // ops the trace has (0..N-1, the status bar's words), never the three functions mixed.
        const ops = readFileSync(rec.trace, 'utf8').split('\n').filter((l) => l.startsWith('S ')).length;
        const collector = vars.find((v) => v.key === 'collector.base')!;
        for (const [frame, key] of [[frames[0], 'place.base'], [frames[1], 'collector.base']] as const) {
          const w = await s.dc.evaluateRequest({ expression: 'history(base)', frameId: frame.id, context: 'watch' });
          const want = vars.find((v) => v.key === key)!;
          assert.equal(w.body.result, `${want.stores.length} values: ${want.stores.map((x) => x.value).join(', ')}`, key);
          const rows = (await s.dc.variablesRequest({ variablesReference: w.body.variablesReference })).body.variables;
          assert.equal(rows.length, want.stores.length);
          for (const row of rows) {
            const m = /^\[\d+\] (?:start|op (\d+)) · 0\.2 collector · line (\d+):\d+$/.exec(row.name);
            assert.ok(m, row.name);
            if (m[1] !== undefined) assert.ok(Number(m[1]) < ops, `${row.name}: the trace has ops 0..${ops - 1}`);
            if (key === 'collector.base') assert.ok(['13', '19'].includes(m[2]), row.name);
          }
        }
        assert.equal(collector.stores.length, 5);
        // `fn.name` names a variable from any frame; a bare name no frame decides lists the choices.
        const other = await s.dc.evaluateRequest({ expression: 'history(slot.base)', frameId: frames[1].id, context: 'watch' });
        assert.match(other.body.result, /^5 values/);
        const main = (await s.dc.stackTraceRequest({ threadId: threads.find((x) => x.name.startsWith('0 '))!.id })).body.stackFrames[0];
        const amb = await s.dc.evaluateRequest({ expression: 'history(base)', frameId: main.id, context: 'watch' });
        assert.match(amb.body.result, /`base` is a variable of 3 functions: watch one of history\(collector\.base\) \(5\), history\(place\.base\) \(5\), history\(slot\.base\) \(5\)/);
        // A data breakpoint from place's Variables view watches place's base, not the collector's.
        const scope = (await s.dc.scopesRequest({ frameId: frames[0].id })).body.scopes[0];
        const info = await s.dc.dataBreakpointInfoRequest({ name: 'base', variablesReference: scope.variablesReference });
        assert.equal(info.body.dataId, '0.2|place.base');
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail('the panic never stood on place');
  });
});

describe('variable history rows over DAP', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('goto just after each store of collector.base shows that value, on the statement after the store', async () => {
    assert.deepEqual(stores.map((x) => x.value), ['0', '1', '2', '3', '4']);
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: rec.trace, stopOnEntry: true, timeLimitSeconds: 60 });
    for (const store of stores) {
      const stopped = s.dc.waitForEvent('stopped');
      const r = await gotoStatement(s, { thread: '0.2', event: store.event, after: true });
      assert.ok(r.success, r.message);
      await stopped;
      const { frame, values } = await collectorTop(s);
      assert.equal(values.base, store.value, `row base = ${store.value}: ${JSON.stringify(values)} at ${frame.name} ${frame.line}:${frame.column}`);
      // Past the store: `base := 0` (13) is followed by the `for` (14); `base = base + 1` (19) by
      // the inner loop's body again (18) or the receive (15).
      assert.ok(frame.line !== store.line && [14, 15, 18].includes(frame.line), `${frame.name} ${frame.line}:${frame.column}`);
    }
    // At the statement itself (without `after`) the value is the one before it.
    const stopped = s.dc.waitForEvent('stopped');
    assert.ok((await gotoStatement(s, { thread: '0.2', event: stores[2].event })).success);
    await stopped;
    const at = await collectorTop(s);
    assert.equal(at.frame.line, 19);
    assert.equal(at.values.base, '1');
    // A statement the goroutine never ran is refused with a message that says what there is.
    const bad = await rawRequest(s.dc, 'frozenRun/goto', { statement: { thread: '0.2', event: 100_000 } });
    assert.equal(bad.success, false);
    assert.match(bad.message ?? '', /Goroutine 0\.2 ran statements 0\.\.\d+; there is no statement 100000/);
    const none = await rawRequest(s.dc, 'frozenRun/goto', { statement: { thread: '9.9', event: 0 } });
    assert.match(none.message ?? '', /No goroutine 9\.9/);
  });
});
