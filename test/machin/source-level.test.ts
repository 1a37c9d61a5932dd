// Source level end to end with the real machin 0.137.0: a program with a loop, recursion and a
// panic is recorded here, and enrich replays it plain (the panic), against the statements-only
// copy beside it (the statements), then against the per-statement copy (the values). What a user of the debugger would see is asserted:
// the statement and the stack that panicked, stepping back through what the goroutine ran, a
// breakpoint in a loop hit once per iteration with the right values, the statement of each op,
// the same index in every replay, the values equal to a plain --print's, and the fallbacks (a
// program the instrumenter cannot read, an instrumented replay that ends otherwise, a cancel).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { RecordingError } from '../../replay-engine/model/errors';
import type { Recording } from '../../replay-engine/model/recording';
import type { SourceStatements } from '../../replay-engine/model/source-level';
import { runningProcessCount } from '../../replay-engine/toolchain/run-process';
import { machinPath, recordProgram, runMachin, scheduleOf } from '../support/machin';
import { tempDir } from './support';
import { DIGGER, SPAWNER } from '../support/programs';

const MACHIN = machinPath();
const PROGRAM = DIGGER;

/**
 * A stand-in for machin, named as one: it runs the real machin and passes its stderr through
 * `filter` (a shell command reading stdin), so a test sees what a differently behaving replay gives.
 */
function machinRewriting(name: string, filter: string): string {
  const bin = mkdtempSync(path.join(privateTmp, 'standin-'));
  const standin = path.join(bin, name);
  writeFileSync(standin, `#!/bin/bash
err=$(mktemp)
"${MACHIN}" "$@" 2>"$err"
rc=$?
${filter} <"$err" >&2
rm -f "$err"
exit $rc
`);
  chmodSync(standin, 0o755);
  return standin;
}

const savedTmp = process.env.TMPDIR;
let privateTmp = '';
let dir = '';
let trace = '';
let program = '';
before(() => {
  privateTmp = tempDir('source-level-test-');
  process.env.TMPDIR = privateTmp;
  dir = mkdtempSync(path.join(privateTmp, 'ws-'));
  ({ trace, program } = recordProgram(dir, 'bank', PROGRAM));
});
after(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});
const leftCopies = () => readdirSync(privateTmp).filter((d) => d.startsWith('frozen-run-machin-'));

async function enriched(options: Parameters<typeof enrichWithMachin>[1] = {}): Promise<{ rec: Recording; output: string[]; progress: string[] }> {
  const rec = await readMflrr(trace);
  const output: string[] = [];
  const progress: string[] = [];
  await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000, onOutput: (t) => output.push(t), onToolchainProgress: (m) => progress.push(m), ...options });
  return { rec, output, progress };
}

const at = (s: SourceStatements, t: number, e: number) => {
  const l = s.location(t, e);
  return `${l.line}:${l.column}`;
};

describe('source level with the real machin: a loop, recursion, a panic', () => {
  it('the panic is on its statement, with the recursive stack; machin ran three times (panic, statements, values), no copy was left', async () => {
    const { rec, output, progress } = await enriched();
    assert.equal(rec.panic?.message, 'index out of range [5] with length 2', JSON.stringify(rec.warnings));
    assert.deepEqual(rec.sourceLevel, { state: 'ready' }, JSON.stringify(rec.warnings));
    const s = rec.statements!;
    assert.equal(s.file, program);
    const t = rec.panic!.thread;
    const last = s.lastEvent(t);
    assert.deepEqual(s.location(t, last), { file: program, line: 6, column: 17, endLine: 6, endColumn: 29, kind: 'return', function: 'dig' });
    assert.deepEqual(
      s.stack(t, last).map((f) => `${f.function} ${f.line}:${f.column}`),
      ['dig 6:17', 'dig 7:5', 'dig 7:5', 'dig 7:5', 'main 30:5'],
    );
    const started = output.filter((o) => o.startsWith('$ '));
    assert.equal(started.length, 3, started.join(''));
    // the statements: the statements-only copy prints its statement probes alone (started first: the index waits for it)
    assert.match(started[0], / replay \S+statements-bank\.mflrr --verify --print fr_stmt0(,fr_mark0)?\n$/);
    assert.match(started[1], / replay \S+ --verify\n$/);
    // the values: the per-statement copy prints them with its statement probes
    assert.match(started[2], / replay \S+ --verify --print \S*got\S*fr_stmt0\S*\n$/);
    assert.deepEqual(progress, [
      'machin: replaying against the instrumented program (statements)',
      'machin: replaying the trace for the panic and the verdict',
      'building the statement index',
      `statement index ready: ${s.eventCount} statements executed; machin now prints the values`,
      'machin: replaying against the instrumented program (values)',
      'values ready',
    ]);
    assert.deepEqual(readdirSync(dir).sort(), ['bank.mfl', 'bank.mflrr'], 'nothing written beside the program');
    assert.deepEqual(leftCopies(), []);
  });

  it('stepping back from the panic visits what main ran, in reverse; over and out skip the calls', async () => {
    const { rec } = await enriched();
    const s = rec.statements!;
    const t = rec.panic!.thread;
    const back: string[] = [];
    for (let e = s.lastEvent(t), n = 0; e >= 0 && n < 14; e = s.stepTarget(t, e, 'backInto'), n++) back.push(at(s, t, e));
    assert.deepEqual(back, ['6:17', '6:5', '7:5', '6:5', '7:5', '6:5', '7:5', '6:5', '30:5', '29:5', '28:5', '2:17', '2:5', '3:5']);
    const call = s.stepTarget(t, s.lastEvent(t), 'backOut');
    assert.equal(at(s, t, call), '7:5', 'the call site of the innermost dig');
    assert.equal(s.stepTarget(t, s.lastEvent(t), 'out'), -1, 'nothing runs after the panic');
    // from `d := depth(3)`: over lands on the next line, into in depth
    const assign = findEvent(s, t, '27:5');
    assert.equal(at(s, t, s.stepTarget(t, assign, 'over')), '28:5');
    assert.equal(at(s, t, s.stepTarget(t, assign, 'into')), '2:5');
    assert.equal(at(s, t, s.stepTarget(t, s.stepTarget(t, assign, 'over'), 'backOver')), '27:5');
    const deepest = findEvent(s, t, '2:17');
    assert.deepEqual(s.stack(t, deepest).map((f) => `${f.function} ${f.line}:${f.column}`), ['depth 2:17', 'depth 3:5', 'depth 3:5', 'depth 3:5', 'main 27:5']);
  });

  it('a breakpoint inside a loop: one hit per iteration, with the loop\'s values as of each hit', async () => {
    const { rec } = await enriched();
    const s = rec.statements!;
    const tl = rec.timeline;
    assert.ok(s.breakableLines().includes(22) && !s.breakableLines().includes(16), 'verified where a statement starts, not on a func line');
    const hits = Array.from(s.lineHits(22), (q) => s.eventAt(q));
    assert.equal(hits.length, 3);
    const main = tl.threadIndex('0');
    const worker = tl.threadIndex('0.1');
    assert.ok(hits.every((h) => h.thread === main));
    // the value of got as of each hit: the last value assigned by an earlier statement
    const asOf = (name: string, thread: number, event: number) => rec.histories!.entries(name).filter((e) => e.thread === thread && e.event !== undefined && e.event < event).at(-1)?.value;
    assert.deepEqual(hits.map((h) => asOf('got', main, h.event)), ['0', '1', '2']);
    assert.deepEqual(hits.map((h) => asOf('total', main, h.event)), ['0', '0', '10']);
    const sends = Array.from(s.lineHits(12), (q) => s.eventAt(q));
    assert.deepEqual(sends.map((h) => [h.thread, asOf('i', worker, h.event)]), [[worker, '0'], [worker, '1'], [worker, '2']]);
    // in global order, and each hit's seq maps back to it
    const seqs = Array.from(s.lineHits(12));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    // each assignment is on the line of the statement that made it
    for (const e of rec.histories!.entries('got')) assert.ok([20, 24].includes(s.location(e.thread, e.event!).line), `got assigned on ${s.location(e.thread, e.event!).line}`);
  });

  it('the statement of every op: sends, receives, prints', async () => {
    const { rec } = await enriched();
    const s = rec.statements!;
    const tl = rec.timeline;
    const lines = Array.from({ length: tl.stepCount }, (_, k) => {
      const p = s.performerOfStep(k);
      return p ? `${tl.threads[p.thread].id}@${s.location(p.thread, p.event).line}` : null;
    });
    const sched = scheduleOf(trace);
    assert.equal(lines.length, sched.length);
    assert.deepEqual(lines.filter((l) => l?.startsWith('0.1@')), ['0.1@12', '0.1@12', '0.1@12']);
    assert.deepEqual(lines.filter((l) => l?.startsWith('0@')), ['0@22', '0@22', '0@22', '0@26', '0@28']);
    // the cursor on a record: the goroutine that did it is at the statement that did it
    for (let k = 0; k < tl.stepCount; k++) {
      const r = tl.recordOfStep(k);
      const p = s.performerOfStep(k)!;
      assert.equal(s.currentEventAtRecord(p.thread, r), p.event, `op ${k}`);
    }
  });

  it('the same index in every replay, and the same values as a plain --print', async () => {
    const a = (await enriched()).rec;
    const b = (await enriched({ deferValues: true })).rec;
    await b.valuesPending;
    const plain = (await enriched({ sourceLevel: false })).rec;
    assert.equal(plain.statements, null);
    assert.equal(plain.sourceLevel?.state, 'unavailable');
    // What surely ran is the same in every replay; what is this replay's only may differ.
    const dump = (r: Recording) => {
      const s = r.statements!;
      return Array.from({ length: s.eventCount }, (_, q) => s.eventAt(q))
        .filter((e) => s.isSure(e.thread, e.event))
        .map((e) => `${e.thread}:${e.event}@${s.positionOf(e.thread, e.event)} ${at(s, e.thread, e.event)} d${s.depth(e.thread, e.event)}`);
    };
    assert.deepEqual(dump(b), dump(a));
    const strip = (r: Recording, name: string) => r.histories!.entries(name).filter((e) => !e.thisReplayOnly).map(({ thread, position, value }) => ({ thread, position, value }));
    // machin's --print has no parameters (n, xs, ch): source level adds them; the rest is the same.
    const params = new Set(['n', 'xs', 'ch']);
    for (const name of plain.histories!.names.filter((n) => !params.has(n))) {
      assert.deepEqual(strip(a, name), strip(plain, name), name);
      assert.deepEqual(strip(b, name), strip(plain, name), name);
    }
    assert.ok(plain.histories!.names.includes('got'));
    // depth(3) and dig(xs, 3) each bind n = 3, 2, 1, 0 as they recurse, on main.
    const main = a.timeline.threadIndex('0');
    assert.deepEqual(a.histories!.entries('n').filter((e) => e.thread === main).map((e) => e.value), ['3', '2', '1', '0', '3', '2', '1', '0']);
    assert.deepEqual(strip(b, 'n'), strip(a, 'n'));
  });
});

describe('source level: falling back to record level', () => {
  it('a program the instrumenter cannot read (machin pack form): one warning with file:line:column, the panic still there', async () => {
    const packedDir = mkdtempSync(path.join(privateTmp, 'packed-'));
    const packed = path.join(packedDir, 'bank.mfl');
    // machin pack takes one declaration a line (machin's canonical form)
    const oneLine = path.join(packedDir, 'one-line.mfl');
    writeFileSync(oneLine, PROGRAM.split(/\n(?=func )/).map((f) => f.trim().split('\n').map((l) => l.trim()).join(' ')).join('\n') + '\n');
    const pack = runMachin(['pack', oneLine]);
    assert.equal(pack.exit, 0, pack.stderr);
    writeFileSync(packed, pack.stdout);
    const rec = await readMflrr(trace);
    const output: string[] = [];
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [packedDir], program: packed, timeLimitMs: 30_000, onOutput: (t) => output.push(t) });
    assert.equal(rec.panic?.message, 'index out of range [5] with length 2', JSON.stringify(rec.warnings));
    const w = rec.warnings.filter((x) => x.code === 'source-level-unavailable');
    assert.equal(w.length, 1);
    assert.match(w[0].message, new RegExp(`^${packed.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:1: .*machin pack form.*stepping stays at record level`));
    assert.equal(rec.statements, null);
    assert.equal(rec.sourceLevel?.state, 'unavailable');
    assert.match(rec.sourceLevel?.state === 'unavailable' ? rec.sourceLevel.reason : '', /pack form/);
    assert.ok(!output.some((o) => o.includes('fr_stmt')), 'no instrumented replay');
    assert.deepEqual(leftCopies(), []);
  });

  it('an instrumented replay that ends otherwise is not trusted: one warning, values from a plain --print', async () => {
    // A stand-in for machin that is the real one except that a replay printing fr_stmt probes
    // reports another panic: what a program whose copy behaves differently would give.
    const standin = machinRewriting('machin-standin-instrumented-differs', `case "$*" in
  *fr_stmt*) sed 's/^panic: index out of range/panic: slice bounds out of range/' ;;
  *) cat ;;
esac`);
    const { rec, output } = await enriched({ machinPath: standin });
    assert.equal(rec.panic?.message, 'index out of range [5] with length 2');
    const w = rec.warnings.filter((x) => x.code === 'source-level-unavailable');
    assert.equal(w.length, 1, JSON.stringify(rec.warnings));
    assert.match(w[0].message, /bank\.mfl: the replay of the instrumented program differs from the plain replay \(panic "index out of range \[5\] with length 2" in goroutine 0 after op \d+\/8 became panic "slice bounds out of range \[5\] with length 2"/);
    assert.match(w[0].message, /stepping stays at record level$/);
    assert.equal(rec.statements, null);
    const started = output.filter((o) => o.startsWith('$ '));
    assert.equal(started.length, 3);
    assert.match(started[2], / replay \S+ --print (?!.*fr_stmt)\S+\n$/);
    assert.deepEqual(rec.histories!.entries('got').map((e) => e.value), ['0', '1', '2', '3']);
    assert.ok(rec.histories!.entries('got').every((e) => e.event === undefined), 'no statement to point at');
    assert.deepEqual(leftCopies(), []);
  });

  it('statement probes that are no walk of the program: one warning, values from a plain --print', async () => {
    // A stand-in for machin that is the real one except that the first statement probe of an
    // statements-only replay names no statement (0: statement numbers start at 1).
    const standin = machinRewriting('machin-standin-bad-statement', `case "$*" in
  *'--print fr_stmt0'|*'--print fr_stmt0,fr_mark0') sed '0,/ fr_stmt0 = [0-9]* /s// fr_stmt0 = 0 /' ;;
  *) cat ;;
esac`);
    const { rec, output } = await enriched({ machinPath: standin });
    assert.equal(rec.panic?.message, 'index out of range [5] with length 2');
    const w = rec.warnings.filter((x) => x.code === 'source-level-unavailable');
    assert.equal(w.length, 1, JSON.stringify(rec.warnings));
    assert.match(w[0].message, /could not be indexed \(the instrumented replay's statement probes are not statement numbers: goroutine 0 printed 0 for a statement probe\); stepping stays at record level$/);
    assert.equal(rec.statements, null);
    assert.equal(output.filter((o) => o.startsWith('$ ')).length, 3);
    assert.deepEqual(rec.histories!.entries('got').map((e) => e.value), ['0', '1', '2', '3']);
    assert.deepEqual(leftCopies(), []);
  });

  it("a values' replay that runs other statements than the statements' replay: said, the statements kept, those values placed by their ops", async () => {
    // A stand-in for machin that is the real one except that in the replay printing the values,
    // main's statement probes after its first name its first statement again (bank.mfl's main is its last function).
    const standin = machinRewriting('machin-standin-values-differ', `case "$*" in
  *got*fr_stmt0*) awk '/^probe 0 fr_stmt0 = / { n++; if (n == 2) sub(/= [0-9]+ /, "= 1 ") } { print }' ;;
  *) cat ;;
esac`);
    const { rec, output } = await enriched({ machinPath: standin });
    assert.equal(rec.panic?.message, 'index out of range [5] with length 2');
    assert.deepEqual(rec.sourceLevel, { state: 'ready' }, JSON.stringify(rec.warnings));
    const w = rec.warnings.filter((x) => x.code === 'values-unplaced');
    assert.equal(w.length, 1, JSON.stringify(rec.warnings));
    assert.match(w[0].message, /bank\.mfl: machin's replay for the values ran other statements than its replay for the statements \(goroutine 0 from its statement 2 \(line \d+\)\): those goroutines' values from there on are placed by their ops, not at their statements$/);
    assert.equal(output.filter((o) => o.startsWith('$ ')).length, 3);
    // main's values are all there, none at a statement; the workers' are at theirs
    const got = rec.histories!.entries('got');
    assert.deepEqual(got.map((e) => e.value), ['0', '1', '2', '3']);
    const main = rec.timeline.threadIndex('0');
    assert.ok(got.filter((e) => e.thread === main).every((e) => e.event === undefined), JSON.stringify(got));
    assert.deepEqual(leftCopies(), []);
  });

  it('cancel during the instrumented replay: machin is stopped, both copies are removed', async () => {
    const rec = await readMflrr(trace);
    const ac = new AbortController();
    let runs = 0;
    const running = enrichWithMachin(rec, {
      machinPath: MACHIN,
      programRoots: [dir],
      timeLimitMs: 30_000,
      signal: ac.signal,
      onOutput: (t) => {
        if (t.startsWith('$ ') && ++runs === 2) setTimeout(() => ac.abort(), 20);
      },
    });
    await assert.rejects(running, (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
    assert.equal(runs, 2);
    assert.equal(runningProcessCount(), 0);
    assert.deepEqual(leftCopies(), []);
    assert.equal(rec.statements, null);
    assert.deepEqual(rec.sourceLevel, { state: 'unavailable', reason: 'cancelled' });
  });
});

describe('a goroutine with no op of its own', () => {
  let spawner = '';
  let spawnerDir = '';
  before(() => {
    spawnerDir = mkdtempSync(path.join(privateTmp, 'spawner-'));
    spawner = recordProgram(spawnerDir, 'spawner', SPAWNER).trace;
  });

  it('its statements up to the last `go` whose goroutine surely sent are sure, the same in every replay; what follows races with the end and is marked', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const rec = await readMflrr(spawner);
      await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [spawnerDir], timeLimitMs: 30_000 });
      assert.equal(rec.sourceLevel?.state, 'ready');
      const s = rec.statements!;
      const t = rec.timeline.threadIndex('0.1');
      assert.ok(t >= 0, 'starter (0.1) is a thread');
      const lines = Array.from({ length: s.sureEventsOf(t) }, (_, e) => `${s.location(t, e).function} ${s.location(t, e).line}`);
      // entry (4), x := 1, go, x = x + 1, go (8) surely ran; line 9 and the closing brace only in this replay.
      assert.deepEqual(lines, ['starter 4', 'starter 5', 'starter 6', 'starter 7', 'starter 8']);
      for (let e = s.sureEventsOf(t); e < s.eventsOf(t); e++) assert.ok(s.location(t, e).line >= 9, 'what follows is after the last go');
      // The values its sure statements stored: x = 1 and x = 2; the racing 3 only marked.
      const x = rec.histories!.entries('x').filter((e) => e.thread === t);
      assert.deepEqual(x.filter((e) => !e.thisReplayOnly).map((e) => e.value), ['1', '2']);
      assert.ok(x.filter((e) => e.thisReplayOnly).every((e) => e.value === '3'));
      seen.push(JSON.stringify(lines));
    }
    assert.equal(new Set(seen).size, 1);
  });
});

/** 600,000 statements run with no op between them: machin prints ~29 MB of statement probes. */
const LONG_LOOP = `func feed(ch) { ch <- 1 }
func main() {
    ch := make(chan int)
    go feed(ch)
    v := <-ch
    i := 0
    for i < 600000 {
        i = i + v
    }
    println(str(i))
}
`;

describe('a long instrumented replay is read and indexed in slices', () => {
  let long = '';
  let longDir = '';
  before(() => {
    longDir = mkdtempSync(path.join(privateTmp, 'long-'));
    long = recordProgram(longDir, 'long', LONG_LOOP).trace;
  });

  async function enrichLong(abortAt: RegExp | null): Promise<{ rec: Recording; progress: string[]; result: Promise<void> }> {
    const rec = await readMflrr(long);
    const ac = new AbortController();
    const progress: string[] = [];
    const result = enrichWithMachin(rec, {
      machinPath: MACHIN, programRoots: [longDir], timeLimitMs: 60_000, signal: ac.signal,
      onToolchainProgress: (m) => {
        progress.push(m);
        if (abortAt?.test(m)) ac.abort();
      },
    });
    return { rec, progress, result };
  }

  it('says how far reading and indexing got, and indexes every statement', async () => {
    const { rec, progress, result } = await enrichLong(null);
    await result;
    assert.ok(progress.some((m) => /^reading the statements machin prints: [\d,]+ so far$/.test(m)), progress.join('\n'));
    // (the index is built as the statements are read: what is left after machin ends is one step)
    assert.ok(progress.some((m) => /^building the statement index(: \d+%)?$/.test(m)), progress.join('\n'));
    assert.equal(rec.sourceLevel?.state, 'ready');
    // main's 600,000 loop bodies, and its other statements and feed's.
    assert.ok(rec.statements!.eventCount > 600_000, String(rec.statements!.eventCount));
    assert.ok(progress.some((m) => /^statement index ready: \d+ statements executed; machin now prints the values$/.test(m)), progress.join('\n'));
    assert.equal(progress[progress.length - 1], 'values ready');
  });

  for (const [what, at] of [['reading machin\'s output', /^reading the statements machin prints: /], ['building the index', /^building the statement index/]] as const) {
    it(`a cancel while ${what} stops there: the open is cancelled, no copy is left`, async () => {
      const { rec, progress, result } = await enrichLong(at);
      await assert.rejects(result, (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
      // Nothing after the slice the cancel came in: no index, no later step.
      assert.match(progress[progress.length - 1], at);
      assert.equal(rec.statements, null);
      assert.deepEqual(rec.sourceLevel, { state: 'unavailable', reason: 'cancelled' });
      assert.equal(runningProcessCount(), 0);
      assert.deepEqual(leftCopies(), []);
    });
  }

  it('a cancel while machin prints the values (the statements are in): the open is cancelled, the statements stay, no copy is left', async () => {
    const { rec, progress, result } = await enrichLong(/^reading the values machin prints: /);
    await assert.rejects(result, (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
    assert.match(progress[progress.length - 1], /^reading the values machin prints: /);
    assert.equal(rec.sourceLevel?.state, 'ready');
    assert.ok(rec.statements!.eventCount > 600_000);
    assert.equal(rec.histories, null, 'no values: the replay that prints them was stopped');
    assert.equal(runningProcessCount(), 0);
    assert.deepEqual(leftCopies(), []);
  });
});

/** The first event of thread t at line:column. */
function findEvent(s: SourceStatements, t: number, where: string): number {
  for (let e = 0; e < s.eventsOf(t); e++) if (at(s, t, e) === where) return e;
  throw new Error(`no event at ${where}`);
}
