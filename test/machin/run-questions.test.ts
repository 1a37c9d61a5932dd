// Asking the whole run (issue 30) with the real machin 0.137.0, on programs recorded here: a log
// point's hits and values in a loop three goroutines run, and how often each line ran, checked
// against an independent per-line instrumentation (test/support/truth-probes.ts: a probe before
// every statement line, replayed by machin), never the product's own index; a line no goroutine
// reached; where a value came from across two goroutines and a channel, and one read from I/O
// (checked against the trace's own I/O record).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { LogPoint, LogPointError } from '../../debug-adapter/log-point-hits';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { ValueOrigins } from '../../replay-engine/machin/source/value-origin';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { lineCounts } from '../../replay-engine/model/line-counts';
import type { Recording } from '../../replay-engine/model/recording';
import { machinPath, recordProgram, scheduleOf } from '../support/machin';
import { CLOCK_READER, ONE_LINE, ONE_LINE_BODY_COLUMN, RANGES, RANGES_CHANNEL_BODY_LINE, RANGES_SLICE_BODY_LINE, STDIN_THEN_CLOCK, WORKERS, WORKERS_LOOP_LINE, WORKERS_NEVER_LINE, WORKERS_RECEIVE_LINE } from '../support/question-programs';
import { truthReplay, type TruthStatement } from '../support/truth-probes';
import { tempDir } from './support';

async function enriched(name: string, source: string, stdin?: string): Promise<{ rec: Recording; trace: string; program: string; stdout: string }> {
  const dir = tempDir(`questions-${name}-`);
  const { trace, program, record } = recordProgram(dir, name, source, { stdin });
  const rec = await readMflrr(trace);
  await enrichWithMachin(rec, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
  assert.equal(rec.sourceLevel?.state, 'ready', JSON.stringify(rec.warnings));
  return { rec, trace, program, stdout: record.stdout };
}

describe('asking the whole run, against an independent truth', () => {
  let workers: { rec: Recording; trace: string; program: string; stdout: string };
  let truth: Map<string, TruthStatement[]>;
  before(async () => {
    workers = await enriched('workers', WORKERS);
    truth = truthReplay(workers.trace, workers.program, ['i', 'acc', 'total', 'k', 'r']).byGoroutine;
  });

  it('a log point in a loop three goroutines run: every hit, in run order, with the values the truth has before that statement', () => {
    const { rec } = workers;
    const lp = new LogPoint(rec, rec.statements!, { line: WORKERS_LOOP_LINE, logMessage: 'i={i} acc={acc}' });
    const hits = lp.all();
    for (let k = 1; k < hits.length; k++) assert.ok(hits[k].seq > hits[k - 1].seq, 'run order');
    for (const g of ['0.1', '0.2', '0.3']) {
      const want = (truth.get(g) ?? []).filter((t) => t.line === WORKERS_LOOP_LINE).map((t) => `i=${t.values.i} acc=${t.values.acc}`);
      const got = hits.filter((h) => h.goroutine === g).map((h) => h.text);
      assert.deepEqual(got, want, `goroutine ${g}`);
      assert.ok(want.length >= 3);
    }
    assert.ok(hits.every((h) => h.function === 'work' && h.line === WORKERS_LOOP_LINE && h.problems.length === 0 && !h.thisReplayOnly));
  });

  it('condition, hit count, goroutine and text filters; a part that cannot be evaluated says why once', () => {
    const { rec } = workers;
    const s = rec.statements!;
    const cond = new LogPoint(rec, s, { line: WORKERS_LOOP_LINE, logMessage: '{acc}', condition: 'i >= 2' }).all();
    const want = [...truth.values()].flat().filter((t) => t.line === WORKERS_LOOP_LINE && Number(t.values.i) >= 2).length;
    assert.equal(cond.length, want);
    const third = new LogPoint(rec, s, { line: WORKERS_LOOP_LINE, logMessage: 'x', hitCondition: '3' }).all();
    assert.deepEqual(third.map((h) => h.arrival), [3]);
    const lp = new LogPoint(rec, s, { line: WORKERS_LOOP_LINE, logMessage: '{nope} and {nope + 1} i={i}' });
    const only = lp.all({ goroutine: '0.2' });
    assert.equal(only.length, truth.get('0.2')!.filter((t) => t.line === WORKERS_LOOP_LINE).length);
    assert.ok(only.every((h) => h.goroutine === '0.2'));
    assert.match(only[0].text, /^\? and \? i=0$/);
    assert.deepEqual(only[0].problems, ['nope: not a variable of work']);
    assert.equal(lp.all({ text: 'i=3' }).length, 1);
    assert.throws(() => lp.all({ goroutine: '9.9' }), (e: Error) => e instanceof LogPointError && /no goroutine 9\.9/.test(e.message));
    assert.throws(() => new LogPoint(rec, s, { line: WORKERS_LOOP_LINE, logMessage: '{i +}' }), (e: Error) => e instanceof LogPointError && /line 5/.test(e.message));
  });

  it('how often each line ran, per goroutine, equals the truth; the line never reached is listed apart', () => {
    const { rec } = workers;
    const counts = lineCounts(rec.statements!, rec.timeline);
    const want = new Map<number, Record<string, number>>();
    for (const [g, list] of truth) for (const t of list) {
      const per = want.get(t.line) ?? {};
      per[g] = (per[g] ?? 0) + 1;
      want.set(t.line, per);
    }
    // The truth's probe before a `for` line runs once, before the loop; the loop's body lines once per iteration.
    for (const [line, per] of want) {
      const got = counts.lines.find((l) => l.line === line);
      assert.ok(got, `line ${line} ran`);
      assert.deepEqual(got.byGoroutine, per, `line ${line}`);
    }
    assert.deepEqual(counts.lines.map((l) => l.line).sort((a, b) => a - b), [...want.keys()].sort((a, b) => a - b));
    assert.deepEqual(counts.notReached, [WORKERS_NEVER_LINE]);
    assert.ok(!want.has(WORKERS_NEVER_LINE));
  });

  it('where r came from: the receive, then the send in the goroutine whose value it was, then the statement that computed it', () => {
    const { rec, trace } = workers;
    const s = rec.statements!;
    const main = rec.timeline.threadIndex('0');
    // Each `r := <-done` took the k-th value sent: the k-th worker to send (the trace's order of their ops).
    const sent = scheduleOf(trace).filter((g) => g !== '0');
    const finals = new Map([...truth].filter(([g]) => g !== '0').map(([g, list]) => [g, list[list.length - 1].values.acc]));
    const after = [];
    for (let e = 0; e < s.eventsOf(main); e++) if (s.location(main, e).line === WORKERS_RECEIVE_LINE + 1) after.push(e);
    assert.equal(after.length, 3);
    const origins = new ValueOrigins(rec, s);
    after.forEach((e, k) => {
      const c = origins.chain('r', main, e);
      assert.deepEqual(c.steps.map((x) => `${x.via} ${x.goroutine} ${x.line}`), [`receive 0 ${WORKERS_RECEIVE_LINE}`, `send ${sent[k]} 8`, `store ${sent[k]} ${WORKERS_LOOP_LINE}`]);
      assert.equal(c.value, finals.get(sent[k]));
      assert.equal(c.steps[1].value, c.value);
      assert.equal(c.steps[1].text, 'done <- acc');
      assert.equal(c.end.kind, 'computed');
      assert.deepEqual(c.end.from, ['acc', 'id', 'i']);
    });
    assert.throws(() => origins.chain('nope', main, 0), /nope has no value in goroutine 0/);
  });

  it('an origin that ends at an I/O read: the clock value sent across goroutines, ending at its I record', async () => {
    const { rec, trace } = await enriched('clock', CLOCK_READER);
    const s = rec.statements!;
    const main = rec.timeline.threadIndex('0');
    const c = new ValueOrigins(rec, s).chain('w', main, s.eventsOf(main) - 1);
    assert.deepEqual(c.steps.map((x) => `${x.via} ${x.goroutine} ${x.text}`), ['copy 0 w := v', 'receive 0 v := <-ch', 'send 0.1 out <- t', 'store 0.1 t := now_ms()']);
    assert.equal(c.end.kind, 'io');
    // The record it names is the reader's I line, and it holds the value (hex of its decimal text).
    const line = readFileSync(trace, 'utf8').split('\n')[c.end.recordLine! - 1];
    assert.match(line, /^I 0\.1 [0-9a-f]+$/);
    assert.equal(Buffer.from(line.split(' ')[2], 'hex').toString(), c.value);
  });

  it('origins at I/O: a stdin read sent across goroutines ends at its I record; a clock read after it at the next one', async () => {
    const { rec, trace } = await enriched('stdin-clock', STDIN_THEN_CLOCK, 'typed in\n');
    const s = rec.statements!;
    const lines = readFileSync(trace, 'utf8').split('\n');
    const bytesOf = (recordLine: number) => Buffer.from(lines[recordLine - 1].split(' ')[2] ?? '', 'hex').toString();
    const main = rec.timeline.threadIndex('0');
    const k = new ValueOrigins(rec, s).chain('k', main, s.eventsOf(main) - 1);
    assert.deepEqual(k.steps.map((x) => `${x.via} ${x.goroutine} ${x.text}`), ['copy 0 k := got', 'receive 0 got := <-ch', 'send 0.1 out <- s', 'store 0.1 s := read_stdin()']);
    assert.equal(k.end.kind, 'io', k.end.message);
    assert.match(lines[k.end.recordLine! - 1], /^I 0\.1 /);
    assert.equal(bytesOf(k.end.recordLine!), 'typed in\n');
    assert.equal(k.value, 'typed in\n');
    // The clock is the reader's second I record: the stdin read before it is counted.
    const reader = rec.timeline.threadIndex('0.1');
    const t = new ValueOrigins(rec, s).chain('t', reader, s.eventsOf(reader) - 1);
    assert.equal(t.end.kind, 'io', t.end.message);
    assert.equal(t.end.recordLine, k.end.recordLine! + 1);
    assert.match(lines[t.end.recordLine! - 1], /^I 0\.1 [0-9a-f]+$/);
    assert.equal(bytesOf(t.end.recordLine!), t.value);
    assert.match(t.value, /^\d{10,}$/);
  });

  it('range-bound names have their value at every iteration: a channel range and a slice range, as the recorded run printed them', async () => {
    const { rec, stdout } = await enriched('ranges', RANGES);
    const printed = stdout.split('\n');
    const overChannel = new LogPoint(rec, rec.statements!, { line: RANGES_CHANNEL_BODY_LINE, logMessage: 'v {v}' }).all();
    assert.deepEqual(overChannel.map((h) => h.text), printed.filter((l) => l.startsWith('v ')));
    assert.equal(overChannel.length, 3);
    const overSlice = new LogPoint(rec, rec.statements!, { line: RANGES_SLICE_BODY_LINE, logMessage: 'ix {i} {x}' }).all();
    assert.deepEqual(overSlice.map((h) => h.text), printed.filter((l) => l.startsWith('ix ')));
    assert.equal(overSlice.length, 3);
    assert.ok([...overChannel, ...overSlice].every((h) => h.problems.length === 0));
  });

  it('a one-line function whose loop begins mid-line: one hit per iteration with that iteration\'s values, after the arrival at the line; a column names one statement', async () => {
    const { rec } = await enriched('one-line', ONE_LINE);
    const s = rec.statements!;
    // The program's own arithmetic: iteration k of work(id, n) starts with i = k, acc = id * k * (k - 1) / 2.
    const iterations = (id: number, n: number) => Array.from({ length: n }, (_, k) => `${k} ${(id * k * (k - 1)) / 2}`);
    const byLine = new LogPoint(rec, s, { line: 1, logMessage: '{i} {acc}' }).all();
    const atColumn = new LogPoint(rec, s, { line: 1, column: ONE_LINE_BODY_COLUMN, logMessage: '{i} {acc}' }).all();
    for (const [g, id, n] of [['0.1', 1, 3], ['0.2', 2, 4]] as const) {
      assert.deepEqual(byLine.filter((h) => h.goroutine === g).map((h) => h.text), ['? ?', ...iterations(id, n)], g);
      assert.deepEqual(atColumn.filter((h) => h.goroutine === g).map((h) => h.text), iterations(id, n), g);
    }
    assert.ok(atColumn.every((h) => h.column === ONE_LINE_BODY_COLUMN));
    const counts = lineCounts(s, rec.timeline).lines.find((l) => l.line === 1)!;
    assert.deepEqual(counts.byGoroutine, { '0.1': 4, '0.2': 5 });
    assert.deepEqual(counts.byFunction, { work: 9 });
    // main's line holds main and its function literal, called twice: counted per function.
    const mainLine = lineCounts(s, rec.timeline).lines.find((l) => l.line === 2)!;
    assert.equal(mainLine.functions.length, 2);
    const literal = mainLine.functions.find((f) => f !== 'main')!;
    assert.deepEqual(mainLine.byFunction, { main: 1, [literal]: 2 });
  });
});
