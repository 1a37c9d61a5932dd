// A run over records that are expensive to look at still hears `pause` (issue 31, 4: a move on a
// capsule of 4 MB effects ran 60 s past its 10 s budget). In process, on the runtime the debug
// adapter and the MCP server share: a condition names each part once per record, the clock is
// read after every record, and neither a 4-million-digit RESP number nor a long digit text costs
// a condition quadratic time.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { evaluate, parseExpression } from '../../debug-adapter/expression';
import { RecordScope } from '../../debug-adapter/record-scope';
import { ReplayRuntime } from '../../debug-adapter/runtime';
import { readRecording } from '../../replay-engine/open';
import { buildBody, FIXTURE_KEY, seal, type EffectSpec } from '../tcap/support/seal';

const DIR = mkdtempSync(join(tmpdir(), 'frozen-run-expensive-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const GET = '3:GET 6:cart:7\n';

async function open(name: string, effects: EffectSpec[]) {
  const file = join(DIR, name);
  writeFileSync(file, seal(buildBody({ effects, panic: 'boom' }), FIXTURE_KEY));
  return readRecording(file, { keyHex: FIXTURE_KEY });
}

/** The auditor's condition: 195 terms, each naming the effect's data. */
function longCondition(): string {
  let condition = 'data == "x"';
  for (let i = 1; i < 195; i++) condition += ` || data == "d${i}"`;
  return condition;
}

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('runtime: expensive records', () => {
  it('a condition of 195 terms describes its record once', async () => {
    const rec = await open('once.tcap', [{ kind: 'redis@1', key: GET, data: '+OK\r\n' }]);
    let described = 0;
    const describeRecord = rec.describe.bind(rec);
    rec.describe = (r: number) => (described++, describeRecord(r));
    const expr = parseExpression(longCondition());
    const scope = new RecordScope(rec);
    assert.equal(evaluate(expr, scope.at(0, 1)), false);
    assert.equal(described, 1);
    // The next record is looked at afresh.
    evaluate(expr, scope.at(0, 1));
    assert.equal(described, 2);
  });

  it('a pause asked during a run over records of 300 ms each stops it after the record under way', { timeout: 60_000 }, async () => {
    const rec = await open('slow.tcap', Array.from({ length: 200 }, (_, i) => ({ kind: 'redis@1', key: GET, data: `:${i}\r\n` })));
    const describeRecord = rec.describe.bind(rec);
    rec.describe = (r: number) => (busy(300), describeRecord(r));
    const rt = new ReplayRuntime(rec, { log: () => undefined });
    rt.breakpoints.setFunctionBreakpoints([{ name: 'redis@1', condition: longCondition() }]);
    const started = performance.now();
    setTimeout(() => rt.pause(), 1000);
    const stop = await rt.continueForward();
    const ms = performance.now() - started;
    assert.equal(stop.reason, 'pause');
    // Read every 64 records, the clock let it run 64 x 300 ms = 19 s before hearing the pause.
    assert.ok(ms < 4000, `paused after ${Math.round(ms)} ms`);
    assert.ok(rt.record > 0 && rt.record < 20, `paused at record ${rt.record}`);
  });

  it('a RESP3 big number of 4 million digits decodes in linear time, and a condition on it is quick', { timeout: 60_000 }, async () => {
    const digits = '7'.repeat(4_000_000);
    const rec = await open('bignum.tcap', [{ kind: 'redis@1', key: GET, data: `(+000${digits}\r\n` }, { kind: 'redis@1', key: GET, data: '(-0\r\n' }]);
    let t = performance.now();
    const view = rec.describe(0);
    const result = view.value.children!.find((c) => c.name === 'result')!.value.text;
    assert.equal(result, digits);
    assert.equal(rec.describe(1).value.children!.find((c) => c.name === 'result')!.value.text, '0');
    assert.ok(performance.now() - t < 3000, `decoded in ${Math.round(performance.now() - t)} ms`);
    // 195 comparisons of a long run of digits (the result, the data's 8 KiB of hex) with a number-like text.
    t = performance.now();
    const scope = new RecordScope(rec);
    for (const name of ['result', 'data']) {
      let condition = `${name} == "1"`;
      for (let i = 1; i < 195; i++) condition += ` || ${name} == ${i}`;
      assert.equal(evaluate(parseExpression(condition), scope.at(0, 1)), false);
    }
    assert.ok(performance.now() - t < 2000, `evaluated in ${Math.round(performance.now() - t)} ms`);
  });

  it('numbers in texts still compare as numbers', async () => {
    const rec = await open('numbers.tcap', [{ kind: 'redis@1', key: GET, data: ':42\r\n' }]);
    const scope = new RecordScope(rec).at(0, 1);
    for (const [expr, want] of [
      ['result == 42', true], ['result > 9', true], ['result == "42"', true], ['"1.5" < 2', true], ['".5" == 0.5', true],
      ['"0x1f" == 31', true], ['"1e3" == 1000', true], ['"1." == 1', false], ['"12a" > 5', false], ['" 7 " == 7', true],
    ] as const) {
      assert.equal(evaluate(parseExpression(expr), scope), want, expr);
    }
  });
});
