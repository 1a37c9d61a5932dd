// The replay runtime on real recordings read by the engine, without DAP: the divergence stop (a
// verdict machin gives for a diverged replay, set on a fixture trace), pause during a long run,
// and the condition language.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { readRecording } from '../../replay-engine/open';
import { evaluate, parseExpression, ExpressionError } from '../../debug-adapter/expression';
import { parseHitCondition, hitMatches } from '../../debug-adapter/hit-condition';
import { ReplayRuntime } from '../../debug-adapter/runtime';
import { MACHIN_FIXTURES } from './support';

describe('runtime', () => {
  test('divergence: a DIVERGED verdict that names an op stops there, both ways, when the filter is on', async () => {
    const rec = await readRecording(path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr'));
    rec.verify = { scheduleDone: 7, scheduleTotal: 21, ioUnderrun: true, boundary: 'faithful', verdict: 'DIVERGED' };
    const rt = new ReplayRuntime(rec, { log: () => undefined });
    let stop = await rt.continueForward();
    assert.equal(stop.reason, 'exception');
    assert.equal(stop.exception, 'divergence');
    assert.equal(rt.position, 7);
    assert.match(stop.description, /7 of 21/);
    stop = await rt.continueForward();
    assert.equal(stop.reason, 'end');
    stop = await rt.reverseContinue();
    assert.equal(stop.exception, 'divergence');
    assert.equal(rt.position, 7);
    rt.breakpoints.setExceptionFilters(['panic']);
    await rt.reverseContinue();
    stop = await rt.continueForward();
    assert.equal(stop.reason, 'end');
  });

  test('pause stops a long continue where it is, and the runtime moves again afterwards', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-rt-'));
    try {
      // Five million ops of main, then one of 0.1. A breakpoint on main whose condition never holds
      // makes five million candidates to look at: a run long enough to pause.
      const file = path.join(dir, 'long.mflrr');
      writeFileSync(file, 'MFLRR 1\nboundary faithful\nprogram /x/long.mfl\nsafe 0\n' + 'S 0\n'.repeat(5_000_000) + 'S 0.1\n');
      const rec = await readRecording(file);
      const rt = new ReplayRuntime(rec, { log: () => undefined });
      const [bp] = rt.breakpoints.setFunctionBreakpoints([{ name: 'goroutine 0', condition: 'op < 0' }]);
      assert.equal(bp.verified, true);
      const running = rt.continueForward();
      assert.equal(rt.running, true);
      rt.pause();
      const stop = await running;
      assert.equal(stop.reason, 'pause');
      assert.ok(rt.record > 0 && rt.record < rec.timeline.recordCount - 1, `paused at ${rt.record}`);
      assert.equal(rt.running, false);
      rt.breakpoints.setFunctionBreakpoints([{ name: 'goroutine 0.1' }]);
      const hit = await rt.continueForward();
      assert.equal(hit.reason, 'function breakpoint');
      assert.equal(rt.record, rec.timeline.recordCount - 1);
      const end = await rt.continueForward();
      assert.equal(end.reason, 'end');
      assert.equal(rt.position, 5_000_001);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stepping back from the end', () => {
  test('the first Step Back (any thread, or the thread of the last op) lands on an earlier op', async () => {
    const rec = await readRecording(path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'));
    const tl = rec.timeline;
    const total = tl.stepCount;
    const main = tl.threadIndex('0');
    const rt = new ReplayRuntime(rec, { log: () => undefined });
    await rt.continueForward();
    assert.equal(rt.atEnd, true);
    let stop = await rt.stepBackIn();
    assert.equal(rt.position, total - 1, 'step back in: one op earlier');
    assert.equal(stop.reason, 'step');
    await rt.continueForward();
    stop = await rt.stepBack(main);
    assert.equal(stop.reason, 'step');
    assert.equal(rt.position, total - 1, 'step back on main (whose op is the last): one op earlier');
    // A thread whose last op is earlier: its last record is the first step back, already an earlier op.
    const worker = tl.threadIndex('0.2');
    await rt.continueForward();
    await rt.stepBack(worker);
    assert.equal(rt.position, tl.positionOf(tl.recordOfStep(1)));
    assert.ok(rt.position < total);
  });
});

describe('condition language', () => {
  const scope = (vars: Record<string, string | number>) => ({ lookup: (n: string) => vars[n] });
  const cases: Array<[string, Record<string, string | number>, unknown]> = [
    ['idx > 10', { idx: '12' }, true],
    ['idx > 10', { idx: '9' }, false],
    ['idx > 10', {}, false],
    ['kind == "redis@1"', { kind: 'redis@1' }, true],
    ["thread == '0.2' && op >= 3", { thread: '0.2', op: 3 }, true],
    ['thread == "0.2" || idx < 0', { thread: '0.1', idx: '-1' }, true],
    ['!(a == b)', { a: 'x', b: 'x' }, false],
    ['a + 1', { a: '41' }, 42],
    ['a + "!"', { a: 'hi' }, 'hi!'],
    ['(a - 2) * 3 % 4', { a: 5 }, 1],
    ['s == "a\\"b"', { s: 'a"b' }, true],
    ['10 == "10.0"', {}, true],
    ['"abc" < "abd"', {}, true],
  ];
  for (const [src, vars, want] of cases) {
    test(`${src} with ${JSON.stringify(vars)}`, () => {
      assert.equal(evaluate(parseExpression(src), scope(vars)), want);
    });
  }
  for (const bad of ['idx >', '(a', 'a b', '"open', 'a # b', '']) {
    test(`'${bad}' is a clear syntax error`, () => {
      assert.throws(() => parseExpression(bad), ExpressionError);
    });
  }
  test('no way to reach JavaScript: no member calls, and calls only where the scope offers them', () => {
    assert.throws(() => parseExpression('constructor.constructor("return process")()'), ExpressionError);
    assert.throws(() => evaluate(parseExpression('constructor.constructor("return process")'), { lookup: () => undefined }), ExpressionError);
    assert.equal(evaluate(parseExpression('__proto__'), { lookup: () => undefined }), undefined);
  });
  test('hit conditions', () => {
    const h = (t: string) => {
      const r = parseHitCondition(t);
      assert.notEqual(typeof r, 'string', String(r));
      return r as Exclude<ReturnType<typeof parseHitCondition>, string>;
    };
    assert.deepEqual([1, 2, 3, 4].map((n) => hitMatches(h('3'), n)), [false, false, true, false]);
    assert.deepEqual([1, 2, 3, 4].map((n) => hitMatches(h('>= 3'), n)), [false, false, true, true]);
    assert.deepEqual([1, 2, 3, 4].map((n) => hitMatches(h('% 2'), n)), [false, true, false, true]);
    assert.equal(typeof parseHitCondition('often'), 'string');
    assert.equal(typeof parseHitCondition('% 0'), 'string');
  });
});
