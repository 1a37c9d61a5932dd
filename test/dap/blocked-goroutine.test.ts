// A goroutine blocked when the run ends is shown where it waits (issue 29, point 8), over DAP
// with the real machin 0.137.0. In BALANCER main runs `go worker(1, results, start)` (21:5) and
// then waits in `<-done` (22:5), which never completes: the trace has no op of main. At the
// panic its top frame is that statement, named "blocked in receive"; the same for REORDER's
// `println(str(<-done))` (29:5), marked this replay only as `where` marks it (another replay may end
// with main before that statement; docs/source-level.md, "Blocked at the end"). A goroutine whose last op did complete (the producer, the
// worker) is not called blocked, and neither is the one that panicked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordProgram, type Recorded } from '../support/machin';
import { BALANCER, REORDER } from '../support/programs';
import { tempDir } from '../machin/support';
import { buildAdapter, launchAndStop, machinEnv, moveAndStop, startAdapter, type Session } from './support';

let balancer: Recorded;
let reorder: Recorded;
before(async () => {
  await buildAdapter();
  balancer = recordProgram(tempDir('dap-blocked-'), 'balancer', BALANCER);
  reorder = recordProgram(tempDir('dap-blocked-'), 'reorder', REORDER);
});

async function statementsIn(s: Session): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (s.events.filter((e) => e.event === 'frozenRun/toolchain' && e.body.state === 'done').length >= 2) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the statements never came: ${s.output.join('')}`);
}

async function tops(s: Session): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of (await s.dc.threadsRequest()).body.threads) {
    const f = (await s.dc.stackTraceRequest({ threadId: t.id })).body.stackFrames[0];
    out[t.name.split(' ')[0]] = `${f.name} ${f.line}:${f.column}`;
  }
  return out;
}

describe('blocked goroutines at the end of the run', () => {
  let s: Session;
  after(async () => {
    await s?.dc.stop().catch(() => undefined);
  });

  test('balancer: main is in `<-done`, blocked in receive; the others as they are', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: balancer.trace, replayToPanic: true, timeLimitSeconds: 60 });
    await statementsIn(s);
    const at = await tops(s);
    assert.equal(at['0'], 'main · blocked in receive · this replay only 22:5', JSON.stringify(at));
    assert.equal(at['0.2'], 'share 1:24');
    assert.doesNotMatch(at['0.3'], /blocked/, JSON.stringify(at));
    // Back before main's `go worker(...)` ran, main stands on it, not blocked.
    const main = (await s.dc.threadsRequest()).body.threads.find((t) => t.name.startsWith('0 '))!.id;
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: main }));
    assert.equal((await tops(s))['0'], 'main 21:5');
    await s.dc.stop();
  });

  test('reorder: main waits in `println(str(<-done))`, the producer whose last send completed is not blocked', async () => {
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: reorder.trace, replayToPanic: true, timeLimitSeconds: 60 });
    await statementsIn(s);
    const at = await tops(s);
    assert.equal(at['0'], 'main · blocked in receive · this replay only 29:5', JSON.stringify(at));
    assert.equal(at['0.2'], 'place 2:55');
    assert.doesNotMatch(at['0.1'], /blocked/, JSON.stringify(at));
  });
});
