// The machin bridge end to end with the real machin 0.137.0 (test/support/machin.ts builds it):
// every fixture's panic, causal chain, verify verdict and value histories must equal what
// machin printed when the fixture was made (outputs.json; positions by the rule of
// docs/value-positions.md, since machin's own @op varies); labels come from the program; time
// limits (a cut trace, a changed program: machin waits forever), cancellation, program trust and
// clean-up are exercised for real.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { parseReplayOutput } from '../../replay-engine/machin/machin-output';
import { mergeReplay } from '../../replay-engine/machin/merge-replay';
import { runMachinReplay } from '../../replay-engine/machin/run-replay';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { RecordingError } from '../../replay-engine/model/errors';
import type { Recording } from '../../replay-engine/model/recording';
import { expectedHistory, MACHIN_BIN, machinPath, pointTraceAt, probeLines, recordProgram, runMachin, scheduleOf } from '../support/machin';
import { fixtureTraces, recorded, stageFixture, tempDir, type FixtureTrace } from './support';

const MACHIN = machinPath();
const hash = (f: string) => createHash('sha256').update(readFileSync(f, 'latin1'), 'latin1').digest('hex');
const fixtures = fixtureTraces().filter((fx) => statSync(fx.traceFile).size > 0);
const byName = (name: string) => fixtures.find((f) => f.name === name)!;

// Temporary copies go to a folder of this test alone, so "nothing left behind" is checkable.
const savedTmp = process.env.TMPDIR;
let privateTmp = '';
before(() => {
  privateTmp = tempDir('enrich-test-');
  process.env.TMPDIR = privateTmp;
});
after(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});
const leftCopies = () => readdirSync(privateTmp).filter((d) => d.startsWith('frozen-run-machin-'));

async function staged(fx: FixtureTrace) {
  const s = stageFixture(fx, mkdtempSync(path.join(privateTmp, 'ws-')));
  return { ...s, rec: await readMflrr(s.trace) };
}

/** What outputs.json says, read with its own small parsers (not the bridge's). */
function expected(fx: FixtureTrace) {
  const json = recorded(fx, '--json');
  const panicLine = json?.stderr.split('\n').find((l) => l.startsWith('{"panic"'));
  const panic = panicLine ? (JSON.parse(panicLine) as { panic: string; goroutine: string; scheduleOp: number; causalChain: string[] }) : null;
  // The second shape of outputs.json (flaky-runs) has no --verify: asked of the real machin here.
  const verifyText = recorded(fx, '--verify')?.stderr ?? verifyOf(fx);
  const v = /replay-verify: schedule (\d+)\/(\d+) ops, io-underrun=(\w+), boundary=(\S+) -> (\w+)/.exec(verifyText);
  // mainsLastOp: how many of the trace's ops come up to main's last one, read from its S lines
  const verify = v ? { scheduleDone: +v[1], scheduleTotal: +v[2], ioUnderrun: v[3] === 'yes', boundary: v[4], verdict: v[5], mainsLastOp: scheduleOf(fx.traceFile).lastIndexOf('0') + 1 } : null;
  const print = recorded(fx, '--print');
  const probes = probeLines(print?.stderr ?? '');
  const printed = print ? print.args[print.args.indexOf('--print') + 1].split(',') : [];
  const history = (name: string) => expectedHistory(fx.traceFile, probes, name, panic?.goroutine);
  return { panic, verify, printed, history, hasJson: !!json };
}

function verifyOf(fx: FixtureTrace): string {
  const dir = tempDir('verify-');
  const program = path.join(dir, path.basename(fx.programFile));
  copyFileSync(fx.programFile, program);
  const trace = pointTraceAt(fx.traceFile, program, path.join(dir, 'trace.mflrr'));
  return runMachin(['replay', trace, '--verify'], { timeoutMs: 30_000 }).stderr;
}

function ids(rec: Recording, threads: ArrayLike<number>): string[] {
  return Array.from(threads, (t) => rec.timeline.threads[t].id);
}

describe('enrich with the real machin, every fixture', () => {
  for (const fx of fixtures) {
    it(fx.name, async () => {
      const { dir, trace, rec } = await staged(fx);
      const before = hash(trace);
      const want = expected(fx);
      await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000 });

      if (want.panic) {
        const p = rec.panic!;
        assert.equal(p.message, want.panic.panic);
        assert.equal(rec.timeline.threads[p.thread].id, want.panic.goroutine);
        assert.equal(p.position, want.panic.scheduleOp);
        assert.deepEqual(ids(rec, p.causalChain), want.panic.causalChain);
        assert.equal(p.source, 'machin');
      } else {
        assert.equal(rec.panic, null);
      }
      assert.deepEqual(rec.verify, want.verify);

      const h = rec.histories!;
      for (const name of want.printed) {
        // The values that surely ran; those of this replay only are kept too, marked (checked below).
        const got = h.entries(name).filter((e) => !e.thisReplayOnly).map((e) => ({ op: e.position, goroutine: rec.timeline.threads[e.thread].id, value: e.value }));
        assert.deepEqual(got, want.history(name), name);
      }
      // valueAt: the last value placed at or before p on that goroutine, at every position.
      for (const name of want.printed) {
        for (let t = 0; t < rec.timeline.threads.length; t++) {
          for (let p = 0; p <= rec.timeline.stepCount; p++) {
            const own = want.history(name).filter((e) => e.goroutine === rec.timeline.threads[t].id && e.op <= p);
            const sure = h.entryAt!(name, t, p);
            if (sure?.thisReplayOnly) continue;
            assert.equal(sure?.value, own.at(-1)?.value, `${name} on ${rec.timeline.threads[t].id} at ${p}`);
          }
        }
      }
      assert.ok(!rec.warnings.some((w) => w.code === 'replay-mismatch'), JSON.stringify(rec.warnings));
      // the values above came from the replay against the instrumented copy, which was trusted
      assert.deepEqual(rec.sourceLevel, { state: 'ready' }, JSON.stringify(rec.warnings));
      if (rec.panic) {
        const s = rec.statements!;
        const last = s.location(rec.panic.thread, s.lastEvent(rec.panic.thread));
        assert.ok(last.kind === 'statement' || last.kind === 'return', `panicked at a ${last.kind}`);
      }
      assert.equal(hash(trace), before, 'the recording is not modified');
      assert.deepEqual(leftCopies(), []);
    });
  }

  it('labels goroutines from the program', async () => {
    const labels = async (name: string) => {
      const { dir, rec } = await staged(byName(name));
      await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir] });
      return Object.fromEntries(rec.timeline.threads.map((t) => [t.id, t.label]));
    };
    assert.deepEqual(await labels('crash/crash.mflrr'), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    // 0.1 (spawner) did no channel op, so the trace has no line for it; the goroutines it started
    // did, so its statements up to its last `go` surely ran: it is a thread (added last).
    assert.deepEqual(await labels('pipeline/pipeline.mflrr'), { '0': 'main', '0.1.1': 'source', '0.1.2': 'stage', '0.1': 'spawner' });
    assert.deepEqual(await labels('flaky/flaky.mflrr'), { '0': 'main', '0.1': 'feed', '0.2': 'feed' });
    assert.deepEqual(await labels('gopanic/gopanic.mflrr'), { '0': 'main', '0.1': 'divide', '0.2': 'divide' });
  });

  it('source locations: the function the record\'s goroutine runs', async () => {
    const { dir, program, rec } = await staged(byName('gopanic/gopanic.mflrr'));
    await enrichWithMachin(rec, { noToolchain: true, programRoots: [dir] });
    const tl = rec.timeline;
    const first = (id: string) => Array.from({ length: tl.recordCount }, (_, r) => r).find((r) => tl.threads[tl.thread[r]].id === id)!;
    assert.deepEqual(rec.sourceLocation?.(first('0.2')), { path: program, line: 1, name: 'divide' });
    assert.deepEqual(rec.sourceLocation?.(first('0')), { path: program, line: 2, name: 'main' });
  });

  it('a best-effort trace: results labelled best-effort', async () => {
    const { dir, rec } = await staged(byName('ffi/ffi.mflrr'));
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir] });
    assert.equal(rec.bestEffort, true);
    assert.equal(rec.verify?.verdict, 'DIVERGED');
    assert.ok(rec.warnings.some((w) => w.code === 'best-effort-results'));
  });
});

describe('enrich: finding things, trust, failures', () => {
  it('machin missing: a warning saying how to get it; labels still come from the source', async () => {
    const { dir, rec } = await staged(byName('crash/crash.mflrr'));
    await enrichWithMachin(rec, { programRoots: [dir], env: { PATH: path.join(dir, 'no-bin') } });
    const w = rec.warnings.find((x) => x.code === 'toolchain-missing');
    assert.match(w?.message ?? '', /machin not found on PATH: install machin.*frozenRun\.machinPath.*MACHIN/);
    assert.equal(rec.panic, null);
    assert.equal(rec.timeline.threads.find((t) => t.id === '0.1')?.label, 'worker');
  });

  it('machin from the MACHIN variable and from PATH', async () => {
    for (const env of [{ MACHIN, PATH: '' }, { PATH: MACHIN_BIN }]) {
      const { dir, rec } = await staged(byName('gopanic/gopanic.mflrr'));
      await enrichWithMachin(rec, { programRoots: [dir], env });
      assert.equal(rec.panic?.message, 'integer divide by zero');
    }
  });

  it('--no-toolchain: nothing runs, labels still set', async () => {
    const { dir, rec } = await staged(byName('crash/crash.mflrr'));
    const output: string[] = [];
    await enrichWithMachin(rec, { noToolchain: true, machinPath: MACHIN, programRoots: [dir], onOutput: (t) => output.push(t) });
    assert.deepEqual(output, []);
    assert.equal(rec.panic, null);
    assert.equal(rec.timeline.threads.find((t) => t.id === '0.2')?.label, 'worker');
  });

  it('program not found: the warning says to open it or set program; an explicit program works', async () => {
    const fx = byName('crash/crash.mflrr');
    const ws = mkdtempSync(path.join(privateTmp, 'ws-'));
    const trace = path.join(ws, 'crash.mflrr');
    copyFileSync(fx.traceFile, trace);
    const rec = await readMflrr(trace);
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [ws] });
    assert.match(rec.warnings.find((w) => w.code === 'program-missing')?.message ?? '', /program \/home\/ci\/app\/crash\.mfl not found.*open it in the workspace or set program/);
    assert.equal(rec.panic, null);

    const elsewhere = mkdtempSync(path.join(privateTmp, 'src-'));
    const program = path.join(elsewhere, 'renamed.mfl');
    copyFileSync(fx.programFile, program);
    const again = await readMflrr(trace);
    await enrichWithMachin(again, { machinPath: MACHIN, programRoots: [ws], program });
    assert.equal(again.panic?.message, 'index out of range [12] with length 2');
  });

  it('found in the workspace roots, not beside the trace', async () => {
    const fx = byName('gopanic/gopanic.mflrr');
    const ws = mkdtempSync(path.join(privateTmp, 'ws-'));
    mkdirSync(path.join(ws, 'src/deep'), { recursive: true });
    mkdirSync(path.join(ws, 'traces'));
    copyFileSync(fx.programFile, path.join(ws, 'src/deep/gopanic.mfl'));
    copyFileSync(fx.traceFile, path.join(ws, 'traces/gopanic.mflrr'));
    const rec = await readMflrr(path.join(ws, 'traces/gopanic.mflrr'));
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [ws] });
    assert.equal(rec.panic?.message, 'integer divide by zero');
  });

  it('a program outside the workspace runs only when confirmed', async () => {
    const fx = byName('crash/crash.mflrr');
    const ws = mkdtempSync(path.join(privateTmp, 'ws-'));
    const outside = mkdtempSync(path.join(privateTmp, 'outside-'));
    const program = path.join(outside, 'crash.mfl');
    copyFileSync(fx.programFile, program);
    const trace = path.join(ws, 'crash.mflrr');
    writeFileSync(trace, readFileSync(fx.traceFile, 'utf8').replace('/home/ci/app/crash.mfl', program));
    const asked: string[] = [];
    const output: string[] = [];

    const refused = await readMflrr(trace);
    await enrichWithMachin(refused, { machinPath: MACHIN, programRoots: [ws], onOutput: (t) => output.push(t), confirmProgram: async (p) => (asked.push(p), false) });
    assert.deepEqual(asked, [program]);
    assert.deepEqual(output, [], 'machin never ran');
    assert.equal(refused.panic, null);
    assert.ok(refused.warnings.some((w) => w.code === 'program-not-confirmed' && w.message.includes(program)));
    // Read only where it may be run (issue 31): a trace's `program` line does not get an outside file parsed without asking.
    assert.equal(refused.timeline.threads.find((t) => t.id === '0.1')?.label, '', 'an unconfirmed outside program was read');

    const noPrompt = await readMflrr(trace);
    await enrichWithMachin(noPrompt, { machinPath: MACHIN, programRoots: [ws] });
    assert.equal(noPrompt.panic, null, 'no way to ask: no run');

    const confirmed = await readMflrr(trace);
    await enrichWithMachin(confirmed, { machinPath: MACHIN, programRoots: [ws], confirmProgram: async () => true });
    assert.equal(confirmed.panic?.message, 'index out of range [12] with length 2');
    assert.equal(confirmed.timeline.threads.find((t) => t.id === '0.1')?.label, 'worker', 'confirmed: read for labels too');
  });

  it('a cut last line is left out of the copy, so machin does not hang; the file is untouched', async () => {
    const { trace, dir } = await staged(byName('gopanic/gopanic.mflrr'));
    writeFileSync(trace, `${readFileSync(trace, 'utf8')}S 0.`);
    const before = hash(trace);
    const rec = await readMflrr(trace);
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 20_000 });
    assert.equal(rec.panic?.message, 'integer divide by zero');
    assert.equal(hash(trace), before);
    assert.deepEqual(leftCopies(), []);
  });
});

describe('enrich: time limits and cancellation', () => {
  it('the time limit stops a replay that waits forever (a cut trace handed to machin directly)', async () => {
    const { trace, program } = await staged(byName('pipeline/pipeline.mflrr'));
    const cut = path.join(path.dirname(trace), 'cut.mflrr');
    // Cut in the first goroutine id: machin waits for a goroutine `0.` that never comes.
    const header = readFileSync(trace, 'utf8').split('\n').slice(0, 4).join('\n').replace('/home/ci/app/pipeline.mfl', program);
    writeFileSync(cut, `${header}\nS 0.`);
    const started = Date.now();
    await assert.rejects(
      runMachinReplay({ path: MACHIN, from: 'setting' }, cut, ['--json'], { timeLimitMs: 1500 }),
      (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-timeout' && /no answer within 1.5 s.*frozenRun\.timeLimitSeconds/.test(e.message),
    );
    assert.ok(Date.now() - started < 1500 + 5000, 'stopped soon after the limit');
  });

  it('through enrich a time limit becomes a warning, and the copy is removed', async () => {
    const { dir, rec } = await staged(byName('crash/crash.mflrr'));
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 1 });
    assert.ok(rec.warnings.some((w) => w.code === 'toolchain-timeout'), JSON.stringify(rec.warnings));
    assert.equal(rec.panic, null);
    assert.deepEqual(leftCopies(), []);
  });

  it('cancel: enrich rejects with cancelled and removes the copy', async () => {
    const { dir, rec } = await staged(byName('flaky/flaky.mflrr'));
    const ac = new AbortController();
    const running = enrichWithMachin(rec, {
      machinPath: MACHIN,
      programRoots: [dir],
      signal: ac.signal,
      onOutput: (t) => {
        if (t.startsWith('$ ')) setTimeout(() => ac.abort(), 20);
      },
    });
    await assert.rejects(running, (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
    assert.deepEqual(leftCopies(), []);
    const before = await readMflrr(path.join(dir, 'flaky.mflrr'));
    const pre = new AbortController();
    pre.abort();
    await assert.rejects(enrichWithMachin(before, { machinPath: MACHIN, programRoots: [dir], signal: pre.signal }), (e: unknown) => e instanceof RecordingError && e.code === 'cancelled');
    assert.deepEqual(leftCopies(), []);
  });
});

describe('merging machin results that disagree with the trace', () => {
  it('a different causal chain or schedule total is a warning; an unknown goroutine is added', async () => {
    const { rec } = await staged(byName('crash/crash.mflrr'));
    const warnings: string[] = [];
    const run = (flags: string[], stderr: string, exitCode: number) => ({ flags, exitCode, stdout: '', stderr, output: parseReplayOutput(stderr) });
    mergeReplay(
      rec,
      [
        run(['--json'], '{"panic":"boom","goroutine":"0.3","scheduleOp":3,"scheduleTotal":5,"causalChain":["0.1","0","0"]}\n', 1),
        run(['--print', 'q'], 'probe 0.3 q = 1 @op2\nweird line\n', 0),
      ],
      { copy: { scheduleTotal: 4 }, warn: (code, m) => warnings.push(`${code}: ${m}`) },
    );
    const tl = rec.timeline;
    assert.equal(tl.threads[rec.panic!.thread].id, '0.3');
    // The chain shown is the trace's own first ops up to the panic (the timeline is the trace);
    // machin's different chain is the warning below.
    assert.deepEqual(ids(rec, rec.panic!.causalChain), ['0.1', '0.2', '0']);
    // 0.3 has no op in the trace: none of its own had completed, so its value is placed at 0.
    assert.deepEqual(rec.histories!.entries('q'), [{ thread: rec.panic!.thread, position: 0, value: '1' }]);
    const text = warnings.join('\n');
    assert.match(text, /replay-mismatch: machin counted 5 schedule ops; the trace has 4/);
    assert.match(text, /causal chain differs from the trace at op 1 \(machin: 0, trace: 0\.2\)/);
    assert.match(text, /goroutine-without-records: goroutine 0\.3/);
    assert.match(text, /machin-output: machin replay --print printed what Frozen Run does not recognise: weird line/);
  });
});

describe('enrich: as few machin replays as possible', () => {
  it('without source level, --verify and --print share one machin process; the panic comes from its plain lines', async () => {
    const { dir, rec } = await staged(byName('gopanic/gopanic.mflrr'));
    const output: string[] = [];
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000, sourceLevel: false, onOutput: (t) => output.push(t) });
    const started = output.filter((t) => t.startsWith('$ '));
    assert.equal(started.length, 1, started.join(''));
    assert.match(started[0], / replay \S+ --verify --print \S+\n$/);
    assert.equal(rec.panic?.message, 'integer divide by zero');
    assert.deepEqual(ids(rec, rec.panic!.causalChain), ['0', '0', '0.1', '0.1', '0', '0.2'], 'the first P `S` lines, as --json would say');
    assert.ok(rec.histories!.entries('q').length > 0);
    assert.equal(rec.statements, null);
    assert.deepEqual(rec.sourceLevel, { state: 'unavailable', reason: 'not asked for' });
  });

  it('with source level: a plain --verify and the statements-only --print beside it, then one --verify --print of the values and the statements', async () => {
    const { dir, rec } = await staged(byName('gopanic/gopanic.mflrr'));
    const output: string[] = [];
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000, onOutput: (t) => output.push(t) });
    const started = output.filter((t) => t.startsWith('$ '));
    assert.equal(started.length, 3, started.join(''));
    // (under SCHED_BATCH, each on one CPU of its own where chrt and taskset can: replay-cores.ts;
    // the statements-only one is started first: the index waits for it)
    assert.match(started[0], / replay \S+ --verify --print fr_stmt0(,fr_mark0)?\n$/);
    // (every replay's heap in huge pages where glibc and the system have them, and one malloc arena
    // for a replay that prints on one CPU: replay-memory.ts)
    assert.match(started[1], /^\$ GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1 (\/\S+\/chrt --batch 0 )?(\/\S+\/taskset -c \d+ )?\/\S+ replay \S+ --verify\n$/);
    assert.match(started[2], / replay \S+ --verify --print \S*q\S*,fr_stmt0\S*\n$/);
    // only the instrumented replays' programs get their stderr buffered (source/stderr-buffer.ts)
    for (const run of [started[0], started[2]]) assert.match(run, /^\$ LD_PRELOAD=\/\S+\/fr-stderr-buffer\.so GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1(:glibc\.malloc\.arena_max=1)? (\/\S+\/chrt --batch 0 )?(\/\S+\/taskset -c \d+ )?\/\S+ replay /);
    for (const run of [started[0], started[2]]) assert.equal(/arena_max=1/.test(run), /\/taskset -c \d+ /.test(run), `one malloc arena exactly where the printing replay is on one CPU: ${run}`);
    assert.equal(rec.panic?.message, 'integer divide by zero');
    assert.equal(rec.sourceLevel?.state, 'ready');
    // the divide that panicked: goroutine 0.2's last statement, and every value points at its statement
    const s = rec.statements!;
    const loc = s.location(rec.panic!.thread, s.lastEvent(rec.panic!.thread));
    assert.equal(loc.function, 'divide');
    assert.ok(rec.histories!.entries('q').every((e) => e.event !== undefined && s.location(e.thread, e.event).function === 'divide'));
  });

  it('deferValues without source level: the panic and verdict from one replay, the values from a second, after', async () => {
    const { dir, rec } = await staged(byName('crash/crash.mflrr'));
    const output: string[] = [];
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000, deferValues: true, sourceLevel: false, onOutput: (t) => output.push(t) });
    assert.equal(rec.panic?.message, 'index out of range [12] with length 2');
    assert.equal(rec.histories, null, 'not yet');
    assert.ok(rec.valuesPending);
    await rec.valuesPending;
    assert.deepEqual(rec.histories!.entries('idx').map((e) => [e.position, e.value]), [[0, '0'], [3, '5'], [4, '12']]);
    const started = output.filter((t) => t.startsWith('$ '));
    assert.equal(started.length, 2);
    assert.match(started[0], / replay \S+ --verify\n$/);
    assert.match(started[1], / replay \S+ --print \S+\n$/);
    assert.deepEqual(leftCopies(), []);
  });

  it('deferValues with source level: the statements-only replay beside the plain one, the statements before the values', async () => {
    const { dir, rec } = await staged(byName('crash/crash.mflrr'));
    const output: string[] = [];
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000, deferValues: true, onOutput: (t) => output.push(t) });
    assert.equal(rec.panic?.message, 'index out of range [12] with length 2');
    // The statements-only replay runs beside the plain one: the statements may already be in when
    // the panic is (a short run), never before it; the values come after them, from a third replay.
    assert.ok(rec.statementsPending);
    assert.ok(rec.sourceLevel?.state === 'pending' || rec.sourceLevel?.state === 'ready', JSON.stringify(rec.sourceLevel));
    await rec.statementsPending;
    assert.equal(rec.sourceLevel?.state, 'ready');
    assert.equal(rec.histories, null, 'the values come after the statements');
    await rec.valuesPending;
    assert.deepEqual(rec.histories!.entries('idx').map((e) => [e.position, e.value]), [[0, '0'], [3, '5'], [4, '12']]);
    // crash.mfl: `println(xs[idx])` on line 12 panicked, in main
    const s = rec.statements!;
    const p = s.location(rec.panic!.thread, s.lastEvent(rec.panic!.thread));
    assert.deepEqual([p.line, p.column, p.function], [12, 5, 'main']);
    assert.deepEqual(rec.histories!.entries('idx').map((e) => s.location(e.thread, e.event!).line), [7, 9, 11]);
    const started = output.filter((t) => t.startsWith('$ '));
    assert.equal(started.length, 3);
    assert.match(started[0], / replay \S+ --verify --print fr_stmt0(,fr_mark0)?\n$/);
    assert.match(started[1], / replay \S+ --verify\n$/);
    assert.match(started[2], / replay \S+ --verify --print \S*idx\S*fr_stmt0\S*\n$/);
    assert.deepEqual(leftCopies(), []);
  });
});

describe('enrich: what real machin does with a changed or missing program', () => {
  it('a program changed since the recording makes machin wait forever: the time limit ends it and says why', async () => {
    const { dir, program, rec } = await staged(byName('crash/crash.mflrr'));
    // One worker fewer: the replay waits for the turn the trace gives to goroutine 0.2, never spawned.
    writeFileSync(program, readFileSync(program, 'utf8').replace('    go worker(ch, 7)\n', ''));
    const started = Date.now();
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 4000 });
    assert.ok(Date.now() - started < 4000 + 5000, 'stopped soon after the limit');
    const w = rec.warnings.find((x) => x.code === 'toolchain-timeout')?.message ?? '';
    assert.match(w, /no answer within 4 s/);
    assert.match(w, /program differs from the one that was recorded/);
    assert.match(w, /frozenRun\.timeLimitSeconds.*--time-limit/);
    assert.equal(rec.panic, null);
    assert.deepEqual(leftCopies(), []);
  });

  it('a program that is gone when machin runs: machin\'s own error, parsed as program-missing', async () => {
    const { trace } = await staged(byName('crash/crash.mflrr'));
    const run = await runMachinReplay({ path: MACHIN, from: 'setting' }, trace, ['--json'], { timeLimitMs: 30_000 });
    assert.equal(run.exitCode, 1);
    assert.equal(run.stderr, 'error: open /home/ci/app/crash.mfl: no such file or directory\n');
    assert.equal(run.output.failure?.kind, 'program-missing');
  });

  it('a goroutine that panics without a record of its own is added, labelled and placed', async () => {
    const dir = mkdtempSync(path.join(privateTmp, 'ws-'));
    const { trace, program } = recordProgram(dir, 'quiet', 'func boom(d) { x := 10 / d  println(str(x)) }\nfunc main() {\n    go boom(0)\n    sleep(50)\n}\n');
    const rec = await readMflrr(trace);
    await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 30_000 });
    assert.equal(rec.panic?.message, 'integer divide by zero', JSON.stringify(rec.warnings));
    const t = rec.panic!.thread;
    assert.equal(rec.timeline.threads[t].id, '0.1');
    assert.equal(rec.timeline.threads[t].label, 'boom');
    assert.deepEqual(rec.threadLocation?.(t), { path: program, line: 1, name: 'boom' });
  });
});

describe('enrich: a trace without a program line', () => {
  it('warns that the program is unknown; with an explicit program the copy gets a program line', async () => {
    const fx = byName('gopanic/gopanic.mflrr');
    const ws = mkdtempSync(path.join(privateTmp, 'ws-'));
    const trace = path.join(ws, 'hand-made.mflrr');
    writeFileSync(trace, readFileSync(fx.traceFile, 'utf8').replace(/^program .*\n/m, ''));
    const bare = await readMflrr(trace);
    await enrichWithMachin(bare, { machinPath: MACHIN, programRoots: [ws] });
    assert.match(bare.warnings.find((w) => w.code === 'program-missing')?.message ?? '', /no `program` line.*set program/);
    assert.equal(bare.panic, null);

    const program = path.join(ws, 'gopanic.mfl');
    copyFileSync(fx.programFile, program);
    const named = await readMflrr(trace);
    await enrichWithMachin(named, { machinPath: MACHIN, programRoots: [ws], program });
    assert.equal(named.panic?.message, 'integer divide by zero');
    assert.equal(named.timeline.threads.find((t) => t.id === '0.2')?.label, 'divide');
  });
});
