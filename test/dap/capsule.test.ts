// Tin capsules over DAP: tasks as threads, the decoded document served by sourceReference, the
// recorded panic, faults, kind breakpoints, the request scope, select sites as program frames,
// the bulk timeline, and keys from the environment or the `frozenRun/setKey` request. Expected
// values come from each fixture's .expect.json, read here independently of the engine.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unpack } from 'msgpackr';
import { buildAdapter, FIXTURE_KEY, lastCursor, launchAndStop, moveAndStop, noMachinEnv, startAdapter, TIN_FIXTURES, topFrame, variablesOf, type Session } from './support';

before(buildAdapter);

interface Expect {
  panic: string;
  request: string;
  status: number;
  effects: Array<{ seq: number; kind: string; key: string; outcome: string; data_hex: string }>;
}

const ORDERS = path.join(TIN_FIXTURES, 'orders-panic.tcap');
const expectOf = (name: string): Expect => JSON.parse(readFileSync(path.join(TIN_FIXTURES, `${name}.expect.json`), 'utf8'));

/** The task of every effect, derived from the sched.resume@1 records as the format says. */
function tasksOf(e: Expect): number[] {
  let task = 0;
  return e.effects.map((x) => {
    if (x.kind === 'sched.resume@1') task = Number(Buffer.from(x.data_hex, 'hex').readBigInt64LE(0));
    return task;
  });
}

describe('capsule orders-panic (key from TIN_REPLAY_KEY)', () => {
  const expect = expectOf('orders-panic');
  const tasks = tasksOf(expect);
  let s: Session;
  let roots: string;
  let ids: Map<string, number>;

  before(async () => {
    // A program root holding the select site's file, so the select effect gets a program frame.
    roots = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-dap-tin-'));
    writeFileSync(path.join(roots, 'orders.tin'), Array.from({ length: 50 }, (_, i) => `// line ${i + 1}`).join('\n'));
    s = await startAdapter(noMachinEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    const stop = await launchAndStop(s, { recording: ORDERS, replayToPanic: true, programRoots: [roots] });
    assert.equal(stop.body.reason, 'exception');
    ids = new Map((await s.dc.threadsRequest()).body.threads.map((t) => [t.name, t.id]));
  });
  after(async () => {
    await s.dc.stop();
    rmSync(roots, { recursive: true, force: true });
  });

  test('threads are the tasks, named `task N` (the request task labelled)', () => {
    const names = [...ids.keys()];
    assert.deepEqual(names.map((n) => Number(/^task (\d+)/.exec(n)![1])).sort(), [...new Set(tasks)].sort());
    assert.ok(names.includes('task 0 (request)'), names.join(', '));
  });

  test('replay to panic: the recorded panic, on the task of the last effect, after every effect', async () => {
    const stop = [...s.events].reverse().find((e) => e.event === 'stopped')!;
    assert.equal(stop.body.reason, 'exception');
    assert.equal(stop.body.threadId, ids.get(tasks[tasks.length - 1] === 0 ? 'task 0 (request)' : `task ${tasks[tasks.length - 1]}`));
    assert.equal(lastCursor(s).position, expect.effects.length);
    const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId! });
    assert.equal(info.body.description, expect.panic);
  });

  test('the top frame is the effect in the decoded document, served read-only by sourceReference', async () => {
    const top = await topFrame(s, lastCursor(s).threadId);
    assert.equal(top.source?.path, undefined);
    assert.match(top.source?.name ?? '', /orders-panic\.tcap \(decoded\)$/);
    const doc = await s.dc.sourceRequest({ source: top.source, sourceReference: top.source!.sourceReference! });
    const lineText = doc.body.content.split('\n')[top.line - 1];
    assert.ok(lineText.includes(expect.effects[expect.effects.length - 1].kind), lineText);
  });

  test('the request and the outcome scopes', async () => {
    const top = await topFrame(s, lastCursor(s).threadId);
    const req = await variablesOf(s, top.frames[0].id, 'Request');
    const [method, target] = expect.request.split(' ');
    assert.equal(req.method, method);
    assert.equal(req.target, target);
    const outcome = await variablesOf(s, top.frames[0].id, 'Outcome');
    assert.equal(outcome.status, String(expect.status));
    assert.equal(outcome.panic, expect.panic);
  });

  test('Continue at the panic says the run ends there; walking back effect by effect follows the tasks the resumes give', async () => {
    // The panic is after the last effect: Continue adds no second stop there, it says why.
    const stops = s.events.filter((e) => e.event === 'stopped').length;
    const refused = await s.dc.continueRequest({ threadId: 1 }).then(() => '', (e: Error) => e.message);
    assert.match(refused, /^The run ends here: it panicked/);
    assert.equal(s.events.filter((e) => e.event === 'stopped').length, stops);
    assert.equal(lastCursor(s).position, expect.effects.length);
    const panicTask = [...ids.entries()].find(([, id]) => id === lastCursor(s).threadId)![0];
    assert.equal(Number(/^task (\d+)/.exec(panicTask)![1]), tasks[expect.effects.length - 1]);
    for (let i = expect.effects.length - 2; i >= 0; i--) {
      const stop = await moveAndStop(s, () => s.dc.customRequest('frozenRun/stepBackIn', {}));
      assert.equal(lastCursor(s).position, i + 1, `effect ${i}`);
      const name = [...ids.entries()].find(([, id]) => id === stop.body.threadId)![0];
      assert.equal(Number(/^task (\d+)/.exec(name)![1]), tasks[i], `task of effect ${i}`);
      const rec = await variablesOf(s, (await topFrame(s, stop.body.threadId!)).frames[0].id, 'Record');
      assert.equal(rec.kind, expect.effects[i].kind);
    }
  });

  test('the select effect has the program frame of its site; function breakpoints on kinds', async () => {
    const res = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'sched.select' }, { name: 'redis@1' }] });
    assert.deepEqual(res.body.breakpoints.map((b) => b.verified), [true, true]);
    await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 0 }));
    const wanted = expect.effects.filter((x) => x.kind === 'sched.select@1' || x.kind === 'redis@1');
    for (const w of wanted) {
      const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(stop.body.reason, 'function breakpoint');
      assert.equal(lastCursor(s).position, w.seq + 1);
      const top = await topFrame(s, stop.body.threadId!);
      if (w.kind === 'sched.select@1') {
        const [file, line] = w.key.split(':');
        assert.equal(top.frames[1]?.source?.path, path.join(roots, file));
        assert.equal(top.frames[1]?.line, Number(line));
      }
    }
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  });

  test('the fault filter stops on faulted effects, both ways', async () => {
    const faults = expect.effects.filter((x) => x.outcome === 'fault');
    assert.ok(faults.length > 0);
    await s.dc.setExceptionBreakpointsRequest({ filters: ['fault'] });
    await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 0 }));
    for (const f of faults) {
      const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(stop.body.reason, 'exception');
      assert.equal(lastCursor(s).position, f.seq + 1);
      const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId! });
      assert.equal(info.body.exceptionId, 'fault');
    }
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atEnd, true);
    const back = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'exception');
    assert.equal(lastCursor(s).position, faults[faults.length - 1].seq + 1);
    await s.dc.setExceptionBreakpointsRequest({ filters: ['panic'] });
  });

  test('frozenRun/timeline returns the per-step arrays, msgpackr-encoded, in chunks', async () => {
    const whole = await s.dc.customRequest('frozenRun/timeline', { from: 0 });
    assert.equal(whole.body.stepCount, expect.effects.length);
    const data = unpack(Buffer.from(whole.body.data, 'base64'));
    const taskOfThread = whole.body.threads.map((t: { id: string }) => Number(t.id));
    assert.deepEqual(Array.from(data.thread as Uint16Array, (t) => taskOfThread[t]), tasks);
    assert.deepEqual(Array.from(data.kind as Uint8Array, (k) => whole.body.kinds[k]), expect.effects.map((x) => x.kind));
    assert.equal(whole.body.panic.message, expect.panic);
    const part = await s.dc.customRequest('frozenRun/timeline', { from: 5, count: 3 });
    const pdata = unpack(Buffer.from(part.body.data, 'base64'));
    assert.equal(part.body.from, 5);
    assert.deepEqual(Array.from(pdata.thread as Uint16Array, (t) => taskOfThread[t]), tasks.slice(5, 8));
  });
});

describe('capsule keys', () => {
  test('a key given by frozenRun/setKey opens the capsule; a malformed key is refused without echo', async () => {
    const s = await startAdapter(noMachinEnv());
    try {
      await assert.rejects(s.dc.customRequest('frozenRun/setKey', { keyHex: 'zz' }), (e: Error) => /64 hex digits/.test(e.message) && !e.message.includes('zz'));
      await s.dc.customRequest('frozenRun/setKey', { keyHex: FIXTURE_KEY });
      const stop = await launchAndStop(s, { recording: path.join(TIN_FIXTURES, 'checkout-declined.tcap'), stopOnEntry: true });
      assert.equal(stop.body.reason, 'entry');
      const threads = await s.dc.threadsRequest();
      assert.ok(threads.body.threads[0].name.startsWith('task 0'));
    } finally {
      await s.dc.stop();
    }
  });

  test('a key attribute in the launch configuration is refused, pointing at the command and TIN_REPLAY_KEY', async () => {
    const s = await startAdapter(noMachinEnv());
    try {
      await assert.rejects(s.dc.launchRequest({ recording: ORDERS, key: FIXTURE_KEY } as never), (e: Error) => /Set Capsule Key/.test(e.message) && /TIN_REPLAY_KEY/.test(e.message) && !e.message.includes(FIXTURE_KEY));
    } finally {
      await s.dc.stop();
    }
  });

  for (const [name, env, why] of [
    ['tampered', { TIN_REPLAY_KEY: FIXTURE_KEY }, /wrong key or damaged/],
    ['orders-panic', { TIN_REPLAY_KEY: 'ff'.repeat(32) }, /wrong key or damaged/],
    ['orders-panic', {}, /key/i],
    ['unknown-kind', { TIN_REPLAY_KEY: FIXTURE_KEY }, /grpc@1/],
  ] as const) {
    test(`${name}.tcap ${Object.keys(env).length ? '' : 'without a key '}ends the launch with the engine's message`, async () => {
      const s = await startAdapter(noMachinEnv(env));
      try {
        await assert.rejects(s.dc.launchRequest({ recording: path.join(TIN_FIXTURES, `${name}.tcap`) } as never), (e: Error) => why.test(e.message) && !e.message.includes(FIXTURE_KEY));
      } finally {
        await s.dc.stop();
      }
    });
  }
});
