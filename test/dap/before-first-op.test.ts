// What ran before the first op is reachable backward (issue 29, point 3), over DAP with the real
// machin 0.137.0: in REORDER the collector runs `buf := ...` (12) and `base := 0` (13) and main
// its `make`s and `go`s (25 to 28) before any op completes, so those statements stand at record
// -1, position 0. Standing there is not the start: the cursor event's `atStart` (which disables
// the reverse buttons) is false, Reverse Continue meets a breakpoint there, Run Back to Cursor
// goes there, and only the very start (before every statement) says atStart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { recordProgram, type Recorded } from '../support/machin';
import { REORDER } from '../support/programs';
import { tempDir } from '../machin/support';
import { buildAdapter, lastCursor, launchAndStop, machinEnv, moveAndStop, rawRequest, startAdapter, type Session } from './support';

let rec: Recorded;
before(async () => {
  await buildAdapter();
  rec = recordProgram(tempDir('dap-before-op-'), 'reorder', REORDER);
});

async function statementsIn(s: Session): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (s.events.filter((e) => e.event === 'frozenRun/toolchain' && e.body.state === 'done').length >= 2) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the statements never came: ${s.output.join('')}`);
}

async function top(s: Session, prefix: string): Promise<string> {
  const thread = (await s.dc.threadsRequest()).body.threads.find((t) => t.name.startsWith(prefix))!;
  const f = (await s.dc.stackTraceRequest({ threadId: thread.id })).body.stackFrames[0];
  return `${f.name} ${f.line}:${f.column}`;
}

describe('statements before the first op, backward', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('from the panic: Reverse Continue stops on the collector\'s first line, Run Back to Cursor reaches main\'s `go`, Step Back then the start', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: rec.trace, replayToPanic: true, timeLimitSeconds: 60 });
    await statementsIn(s);
    assert.equal(lastCursor(s).atStart, false);
    const bp = await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [{ line: 12 }] });
    assert.equal(bp.body.breakpoints[0].verified, true);
    const stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'breakpoint');
    assert.equal(await top(s, '0.2 '), 'collector 12:5');
    let c = lastCursor(s);
    // Before any op (record -1, position 0) and yet not the start: the reverse buttons stay on.
    assert.deepEqual([c.record, c.position, c.atStart], [-1, 0, false]);
    await s.dc.setBreakpointsRequest({ source: { path: rec.program }, breakpoints: [] });
    // Run Back to Cursor on main's `go producer(ch)` (27), in the program's editor.
    await moveAndStop(s, () => rawRequest(s.dc, 'frozenRun/runBackTo', { path: rec.program, line: 27 }));
    assert.equal(await top(s, '0 '), 'main 27:5');
    assert.equal(lastCursor(s).atStart, false);
    // Step Back in main: its `done := make(...)` (26), then `ch := make(...)` (25), then the start.
    const mainId = (await s.dc.threadsRequest()).body.threads.find((t) => t.name.startsWith('0 '))!.id;
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: mainId }));
    assert.equal(await top(s, '0 '), 'main 26:5');
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: mainId }));
    assert.equal(await top(s, '0 '), 'main 25:5');
    assert.equal(lastCursor(s).atStart, false);
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: mainId }));
    c = lastCursor(s);
    assert.deepEqual([c.record, c.atStart], [-1, true], JSON.stringify(c));
    // Reverse Continue from a statement before the first op also ends at the start.
    await moveAndStop(s, () => s.dc.nextRequest({ threadId: mainId }));
    assert.equal(lastCursor(s).atStart, false);
    const back: DebugProtocol.StoppedEvent = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: mainId }));
    assert.equal(lastCursor(s).atStart, true, JSON.stringify(back.body));
  });
});
