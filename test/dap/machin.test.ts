// The adapter with the real machin 0.137.0 on PATH. Each fixture trace is copied with its program
// into a temp folder, as a trace mailed from another machine would be. Expectations come from
// machin's own outputs (outputs.json, made with this machin), parsed here independently of the
// engine, values placed by docs/value-positions.md.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { expectedHistory, panicPosition, probeLines, recordProgram, runMachin, scheduleOf } from '../support/machin';
import { tempDir } from '../machin/support';
import { typedVariablesOf } from './support';
import {
  buildAdapter, copyFixture, lastCursor, launchAndStop, machinFixtures, moveAndStop, machinEnv, startAdapter, topFrame, traceRecords, variablesOf, type Session,
} from './support';

before(buildAdapter);

for (const fx of machinFixtures()) {
  if (traceRecords(fx.trace).length === 0) continue;
  describe(`with machin: ${fx.name}`, () => {
    let s: Session;
    let copy: { dir: string; trace: string };
    let threadIds: Map<string, number>;
    const total = traceRecords(fx.trace).filter((r) => r.tag === 'S').length;

    before(async () => {
      copy = copyFixture(fx);
      s = await startAdapter(machinEnv());
      // Stepping by record here (sourceLevel: false); by statement in source-level.test.ts.
      await launchAndStop(s, { recording: copy.trace, replayToPanic: true, sourceLevel: false, timeLimitSeconds: 30 });
      const threads = await s.dc.threadsRequest();
      threadIds = new Map(threads.body.threads.map((t) => [t.name.split(' ')[0], t.id]));
    });
    after(async () => {
      await s.dc.stop();
      rmSync(copy.dir, { recursive: true, force: true });
    });

    test('the toolchain status says machin ran', () => {
      const states = s.events.filter((e) => e.event === 'frozenRun/toolchain').map((e) => e.body.state);
      assert.deepEqual(states.slice(0, 1), ['running']);
      assert.ok(states.includes('done'), `toolchain states: ${states.join(', ')}`);
    });

    test('below each goroutine\'s record, the frame of its function in the program (the copy next to the trace)', async () => {
      const program = path.join(copy.dir, path.basename(fx.program));
      const lines = readFileSync(program, 'utf8').split('\n');
      let checked = 0;
      for (const t of (await s.dc.threadsRequest()).body.threads) {
        const label = t.name.split(' ')[1];
        if (!label) continue;
        const frames = (await s.dc.stackTraceRequest({ threadId: t.id })).body.stackFrames;
        assert.equal(frames[1]?.source?.path, program, t.name);
        assert.equal(frames[1].name, label);
        assert.match(lines[frames[1].line - 1], new RegExp(`^func ${label}\\(`), t.name);
        checked++;
      }
      assert.ok(checked > 0);
    });

    if (fx.panic) {
      const p = fx.panic;
      const schedule = scheduleOf(fx.trace);
      const stopAt = panicPosition(schedule, p.goroutine, p.scheduleOp);
      test('replay to panic stops on machin\'s own op and goroutine, with the panic as exception info', async () => {
        const stop = [...s.events].reverse().find((e) => e.event === 'stopped')!;
        assert.equal(stop.body.reason, 'exception');
        assert.equal(stop.body.threadId, threadIds.get(p.goroutine));
        assert.equal(lastCursor(s).position, stopAt);
        assert.equal(lastCursor(s).thread, p.goroutine);
        const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId });
        assert.equal(info.body.exceptionId, 'panic');
        assert.equal(info.body.description, p.panic);
        assert.ok(info.body.details?.stackTrace?.endsWith(schedule.slice(0, stopAt).slice(-200).join(' → ')), info.body.details?.stackTrace);
        const chain = s.events.find((e) => e.event === 'frozenRun/causalChain');
        assert.deepEqual(chain?.body.steps, p.causalChain);
      });

      test('the variables at the panic are machin\'s last probed values of that goroutine', async () => {
        const t = threadIds.get(p.goroutine)!;
        const frame = (await s.dc.stackTraceRequest({ threadId: t })).body.stackFrames[0];
        // The first scope, the program's values; notes (a name in parentheses) are not values.
        const scopes = (await s.dc.scopesRequest({ frameId: frame.id })).body.scopes;
        assert.match(scopes[0].name, /^Program \(goroutine /);
        const watched = Object.fromEntries(Object.entries(await variablesOf(s, frame.id, scopes[0].name)).filter(([k]) => !k.startsWith('(')));
        const expected: Record<string, string> = {};
        for (const probe of fx.probes) if (probe.goroutine === p.goroutine && probe.op <= stopAt) expected[probe.name] = probe.value;
        assert.deepEqual(watched, expected);
        for (const [name, value] of Object.entries(expected)) {
          const r = await s.dc.evaluateRequest({ expression: name, frameId: frame.id, context: 'watch' });
          assert.equal(r.body.result, value);
        }
      });

      test('from the panic, a walk back to the first record and forward again agrees with the trace', async () => {
        const recs = traceRecords(fx.trace);
        const opsUpTo = (i: number) => recs.slice(0, i + 1).filter((r) => r.tag === 'S').length;
        const at = lastCursor(s).record;
        for (let i = at - 1; i >= -1; i--) {
          const stop = await moveAndStop(s, () => s.dc.customRequest('frozenRun/stepBackIn', {}));
          if (i < 0) {
            assert.equal(lastCursor(s).atStart, true);
            continue;
          }
          assert.equal(stop.body.threadId, threadIds.get(recs[i].goroutine));
          assert.equal((await topFrame(s, stop.body.threadId!)).line, recs[i].line);
          assert.equal(lastCursor(s).position, opsUpTo(i));
        }
        for (let i = 0; i <= at; i++) {
          const stop = await moveAndStop(s, () => s.dc.stepInRequest({ threadId: 1 }));
          assert.equal((await topFrame(s, stop.body.threadId!)).line, recs[i].line);
          assert.equal(lastCursor(s).position, opsUpTo(i));
          if (i === at) assert.equal(stop.body.reason, 'exception', 'stepping onto the panic is an exception stop');
        }
        assert.equal(lastCursor(s).position, stopAt);
      });
    } else {
      test('a run that did not panic stops at its end and says so', async () => {
        const stop = [...s.events].reverse().find((e) => e.event === 'stopped')!;
        assert.notEqual(stop.body.reason, 'exception');
        // machin's --json gave no panic and --verify a verdict: it is known that the run did not panic.
        assert.match(stop.body.text ?? '', /the run did not panic/);
        assert.equal(lastCursor(s).position, total);
      });
    }

    const changing = [...new Set(fx.probes.map((x) => `${x.goroutine}|${x.name}`))].map((k) => k.split('|') as [string, string]);
    if (changing.length > 0) {
      test('data breakpoints stop exactly where --print says the value changes, forward and backward', async () => {
        for (const [g, name] of changing) {
          const probes = fx.probes.filter((x) => x.goroutine === g && x.name === name);
          const want: number[] = [];
          let last: string | undefined;
          for (const x of probes) {
            if (x.value !== last && x.op > 0 && want[want.length - 1] !== x.op) want.push(x.op);
            last = x.value;
          }
          const t = threadIds.get(g)!;
          const frame = (await s.dc.stackTraceRequest({ threadId: t })).body.stackFrames[0];
          const info = await s.dc.dataBreakpointInfoRequest({ name, frameId: frame.id });
          assert.ok(info.body.dataId, `${g} ${name}: ${info.body.description}`);
          const set = await s.dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId!, accessType: 'write' }] });
          assert.equal(set.body.breakpoints[0].verified, true);
          await s.dc.setExceptionBreakpointsRequest({ filters: [] });
          await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 0 }));
          const forward: number[] = [];
          for (;;) {
            const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: t }));
            if (lastCursor(s).reason === 'end') break;
            assert.equal(stop.body.reason, 'data breakpoint');
            assert.equal(stop.body.threadId, t);
            forward.push(lastCursor(s).position);
          }
          assert.deepEqual(forward, want, `${g} ${name} forward`);
          const backward: number[] = [];
          for (;;) {
            await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: t }));
            if (lastCursor(s).reason === 'start') break;
            backward.push(lastCursor(s).position);
          }
          assert.deepEqual(backward, [...want].reverse(), `${g} ${name} backward`);
          await s.dc.setDataBreakpointsRequest({ breakpoints: [] });
          await s.dc.setExceptionBreakpointsRequest({ filters: ['panic', 'divergence'] });
        }
      });

      test('conditions over watched variables and history() in the debug console', async () => {
        const [g, name] = changing[0];
        const probes = fx.probes.filter((x) => x.goroutine === g && x.name === name);
        const r = await s.dc.evaluateRequest({ expression: `history(${name}, "${g}")`, context: 'repl' });
        assert.match(r.body.result, new RegExp(`^${probes.length} value`));
        const items = await s.dc.variablesRequest({ variablesReference: r.body.variablesReference });
        assert.deepEqual(items.body.variables.map((v) => v.value), probes.map((x) => x.value));
        // A condition on the goroutine's own records: stop on its first record where the value is the last probed one.
        const target = probes[probes.length - 1];
        const escaped = target.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
        await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${g}`, condition: `${name} == "${escaped}"` }] });
        await s.dc.setExceptionBreakpointsRequest({ filters: [] });
        await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 0 }));
        const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
        if (lastCursor(s).reason !== 'end') {
          assert.equal(stop.body.threadId, threadIds.get(g));
          const frame = (await s.dc.stackTraceRequest({ threadId: stop.body.threadId! })).body.stackFrames[0];
          const v = await s.dc.evaluateRequest({ expression: name, frameId: frame.id, context: 'hover' });
          assert.equal(v.body.result, target.value);
          assert.ok(lastCursor(s).position >= target.op);
        } else {
          // The value was set after the goroutine's last record: no record of it sees it.
          const recs = traceRecords(fx.trace);
          const ops = recs.filter((x) => x.tag === 'S').map((x) => x.goroutine);
          const lastOp = ops.lastIndexOf(g) + 1;
          assert.ok(target.op > lastOp - 1, `${g} ${name}: no stop although set at op ${target.op}`);
        }
        await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
        await s.dc.setExceptionBreakpointsRequest({ filters: ['panic', 'divergence'] });
      });
    }
  });
}

describe('crash trace: a condition `idx > 10` stops where machin says idx became 12', () => {
  let s: Session;
  let copy: { dir: string; trace: string };
  const fx = machinFixtures().find((f) => f.name === 'crash/crash.mflrr')!;
  before(async () => {
    copy = copyFixture(fx);
    s = await startAdapter(machinEnv());
    await launchAndStop(s, { recording: copy.trace, stopOnEntry: true, sourceLevel: false, timeLimitSeconds: 30 });
  });
  after(async () => {
    await s.dc.stop();
    rmSync(copy.dir, { recursive: true, force: true });
  });

  test('forward and back', async () => {
    const idx12 = fx.probes.find((x) => x.name === 'idx' && x.value === '12')!;
    await s.dc.setExceptionBreakpointsRequest({ filters: [] });
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'sched', condition: 'idx > 10' }] });
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'function breakpoint');
    assert.equal(lastCursor(s).position, idx12.op);
    assert.equal(lastCursor(s).thread, idx12.goroutine);
    const top = await topFrame(s, stop.body.threadId!);
    const v = await s.dc.evaluateRequest({ expression: 'idx', frameId: top.frames[0].id, context: 'watch' });
    assert.equal(v.body.result, '12');
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'end');
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).position, idx12.op);
    const start = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).reason, 'start');
    assert.ok(start);
  });

  test('a `panic` function breakpoint stops at the panic with the exception filter off', async () => {
    await s.dc.setExceptionBreakpointsRequest({ filters: [] });
    const res = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'panic' }] });
    assert.equal(res.body.breakpoints[0].verified, true);
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'function breakpoint');
    assert.equal(lastCursor(s).position, panicPosition(scheduleOf(fx.trace), fx.panic!.goroutine, fx.panic!.scheduleOp));
    assert.equal(lastCursor(s).thread, fx.panic!.goroutine);
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await s.dc.setExceptionBreakpointsRequest({ filters: ['panic'] });
    await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { position: 0 }));
    const exc = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(exc.body.reason, 'exception');
  });
});

describe('a program recorded here: five launches stop at the same panic with the same values', () => {
  const SOURCE = `func talker(ch, id, n) { i := 0  for i < n { msg := id * 100 + i  ch <- msg  i = i + 1 } }
func main() {
    ch := make(chan int)
    go talker(ch, 1, 5)
    go talker(ch, 2, 5)
    got := 0  sum := 0
    for got < 10 { v := <-ch  sum = sum + v  got = got + 1 }
    xs := []int{1}
    println(str(xs[got]))
}
`;

  test('panic, position, goroutine and every Watched variable of every goroutine, five times over', async () => {
    const dir = tempDir('dap-machin-');
    const { trace } = recordProgram(dir, 'talkers', SOURCE);
    const json = runMachin(['replay', trace, '--json'], { timeoutMs: 30_000 });
    const panic = JSON.parse(json.stderr.split('\n').find((l) => l.startsWith('{"panic"'))!) as { panic: string; goroutine: string; scheduleOp: number };
    const probes = probeLines(runMachin(['replay', trace, '--print', 'i,msg,got,sum,v'], { timeoutMs: 30_000 }).stderr);
    const stopAt = panicPosition(scheduleOf(trace), panic.goroutine, panic.scheduleOp);
    const answers: Array<{ stop: unknown; seen: Record<string, Record<string, string>>; marked: Record<string, string[]> }> = [];
    for (let launch = 0; launch < 5; launch++) {
      const s = await startAdapter(machinEnv());
      try {
        const stop = await launchAndStop(s, { recording: trace, replayToPanic: true, timeLimitSeconds: 30 });
        assert.equal(stop.body.reason, 'exception', s.output.join(''));
        assert.equal(lastCursor(s).position, stopAt);
        assert.equal(lastCursor(s).thread, panic.goroutine);
        const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId! });
        assert.equal(info.body.description, panic.panic);
        const seen: Record<string, Record<string, string>> = {};
        const markedOf: Record<string, string[]> = {};
        for (const t of (await s.dc.threadsRequest()).body.threads) {
          const g = t.name.split(' ')[0];
          const frame = (await s.dc.stackTraceRequest({ threadId: t.id })).body.stackFrames[0];
          const program = (await s.dc.scopesRequest({ frameId: frame.id })).body.scopes.find((sc) => sc.name.startsWith('Program ('))!;
          const typed = (await typedVariablesOf(s, frame.id, program.name)).filter((v) => !v.name.startsWith('('));
          // A value machin may not print in another replay is shown marked (test/machin/happens-before.test.ts
          // holds those to an independent truth); the sure ones are the same in every launch.
          const marked = new Set(typed.filter((x) => x.type === 'this replay only').map((x) => x.name));
          const shown = Object.fromEntries(typed.filter((v) => v.type !== 'this replay only').map((v) => [v.name, v.value]));
          // machin's values by the position rule: the last placed at or before the stop.
          const want: Record<string, string> = {};
          for (const name of ['i', 'msg', 'got', 'sum', 'v']) {
            const last = expectedHistory(trace, probes, name, panic.goroutine).filter((e) => e.goroutine === g && e.op <= stopAt).at(-1);
            if (last) want[name] = last.value;
          }
          // machin's --print has no parameters; the talkers' frames show theirs, as `go talker(ch, k, 5)` passed them.
          if (g !== '0') Object.assign(want, { id: g.split('.')[1], n: '5' });
          for (const name of marked) delete want[name];
          seen[g] = shown;
          markedOf[g] = [...marked];
          assert.deepEqual(shown, want, `goroutine ${g}, launch ${launch + 1}`);
        }
        // (statementSeq counts this replay's other statements too: not compared)
        const { statementSeq: _seq, ...cursor } = lastCursor(s) as Record<string, unknown>;
        answers.push({ stop: cursor, seen, marked: markedOf });
      } finally {
        await s.dc.stop();
      }
    }
    // The same in every launch, but for the names some launch showed as this replay's only.
    const same = answers.map(({ stop, seen }) =>
      JSON.stringify({ stop, seen: Object.fromEntries(Object.entries(seen).map(([g, v]) => [g, Object.fromEntries(Object.entries(v).filter(([n]) => !answers.some((a) => a.marked[g]?.includes(n))))])) }),
    );
    assert.equal(new Set(same).size, 1, same.join('\n'));
  });

  test('a goroutine that panicked with no record of its own: the panic and its function as frames', async () => {
    const dir = tempDir('dap-machin-');
    const { trace, program } = recordProgram(dir, 'quiet', 'func boom(d) { x := 10 / d  println(str(x)) }\nfunc main() {\n    go boom(0)\n    sleep(50)\n}\n');
    const s = await startAdapter(machinEnv());
    try {
      // At record level (the statements come from a second replay, run beside the first: here none)
      const stop = await launchAndStop(s, { recording: trace, replayToPanic: true, timeLimitSeconds: 30, sourceLevel: false });
      assert.equal(stop.body.reason, 'exception');
      const t = (await s.dc.threadsRequest()).body.threads.find((x) => x.name.startsWith('0.1'))!;
      assert.equal(stop.body.threadId, t.id);
      const frames = (await s.dc.stackTraceRequest({ threadId: t.id })).body.stackFrames;
      assert.equal(frames[0].name, 'panic: integer divide by zero');
      assert.equal(frames[1]?.name, 'boom');
      assert.equal(frames[1]?.source?.path, program);
      assert.equal(frames[1]?.line, 1);
    } finally {
      await s.dc.stop();
    }
  });
});
