// `frozen-run inspect` and `history` with the real machin 0.137.0 (test/support/machin.ts builds
// it): panic, causal chain, verify verdict and histories must equal what machin prints, for the
// fixtures (outputs.json, recorded with this machin) and for a program recorded here. History
// positions follow docs/value-positions.md, computed here independently of the engine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, CLI } from './build-cli';
import { MACHIN_FIXTURES } from '../support/paths';
import { expectedHistory, machinPath, panicPosition, probeLines, recordProgram, runMachin, scheduleOf } from '../support/machin';
import { tempDir } from '../machin/support';
import { REORDER } from '../support/programs';

const FIX = MACHIN_FIXTURES;
const MACHIN = machinPath();
before(async () => {
  await buildCli();
});

interface Replay {
  args: string[];
  stderr: string;
}

function run(args: string[], machin: string[] = ['--machin', MACHIN]) {
  const r = spawnSync(process.execPath, [CLI, ...args, ...machin], { encoding: 'utf8', env: { ...process.env, MACHIN: '' }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A history entry without the statement that stored it (machin's --print says none: tested in cli-where.test.ts). */
const valueOnly = (e: { op: number; goroutine: string; value: string }) => ({ op: e.op, goroutine: e.goroutine, value: e.value });

/** `inspect --json` against machin's own `--json` and `--verify` stderr. */
function assertInspect(file: string, jsonStderr: string, verifyStderr: string) {
  const r = run(['inspect', file, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const jsonLine = jsonStderr.split('\n').find((l) => l.startsWith('{"panic"'));
  if (jsonLine) {
    const p = JSON.parse(jsonLine) as { panic: string; goroutine: string; scheduleOp: number; causalChain: string[] };
    // machin's P is racy (docs/value-positions.md): the panic is placed by the rule, and its
    // causal chain is the trace's first ops up to there, a prefix of machin's own chain.
    const schedule = scheduleOf(file);
    const op = panicPosition(schedule, p.goroutine, p.scheduleOp);
    assert.deepEqual(j.panic, { message: p.panic, thread: p.goroutine, op });
    assert.deepEqual(j.causalChain, schedule.slice(0, op));
    assert.deepEqual(j.causalChain, p.causalChain.slice(0, op));
  } else {
    assert.equal(j.panic, null);
  }
  const v = /replay-verify: schedule (\d+)\/(\d+) ops, io-underrun=(yes|no), boundary=(\S+) -> (\w+)/.exec(verifyStderr);
  // mainsLastOp: how many of the trace's ops come up to main's last one, read from its S lines
  if (v) assert.deepEqual(j.verify, { scheduleDone: Number(v[1]), scheduleTotal: Number(v[2]), ioUnderrun: v[3] === 'yes', boundary: v[4], verdict: v[5], mainsLastOp: scheduleOf(file).lastIndexOf('0') + 1 });
  else assert.equal(j.verify, null);
}

const dirs = readdirSync(FIX).filter((d) => {
  try {
    return Array.isArray((JSON.parse(readFileSync(join(FIX, d, 'outputs.json'), 'utf8')) as { replays?: unknown }).replays);
  } catch {
    return false;
  }
});


/** A history's entries machin prints in every replay (those of this replay only carry `thisReplayOnly`). */
function sureOnly<E extends { thisReplayOnly?: true }>(entries: E[]): Array<Omit<E, 'thisReplayOnly'>> {
  return entries.filter((e) => !e.thisReplayOnly);
}

describe('frozen-run with the real machin, fixtures', () => {
  for (const d of dirs) {
    const trace = readdirSync(join(FIX, d)).find((f) => f.endsWith('.mflrr'));
    if (!trace) continue;
    const file = join(FIX, d, trace);
    const replays = (JSON.parse(readFileSync(join(FIX, d, 'outputs.json'), 'utf8')) as { replays: Replay[] }).replays;
    if (readFileSync(file).length === 0) continue; // the empty deadlock trace: see cli.test.ts

    it(`${d}: inspect --json agrees with machin replay --json and --verify`, () => {
      const of = (flag: string) => replays.find((x) => x.args.includes(flag))?.stderr ?? '';
      assertInspect(file, of('--json'), of('--verify'));
    });

    const print = replays.find((x) => x.args.includes('--print'));
    if (!print) continue;
    const panicLine = replays.find((x) => x.args.includes('--json'))?.stderr.split('\n').find((l) => l.startsWith('{"panic"'));
    const ender = panicLine ? (JSON.parse(panicLine) as { goroutine: string }).goroutine : '0';
    const probes = probeLines(print.stderr);
    // Two variables per fixture keep the run short; every value of each is compared.
    const names = [...new Set(probes.map((m) => m.name))].slice(0, 2);
    for (const name of names) {
      it(`${d}: history ${name} --json equals machin replay --print, positions by the rule`, () => {
        const r = run(['history', file, name, '--json']);
        assert.equal(r.code, 0, r.stderr);
        const j = JSON.parse(r.stdout) as { entries: Array<{ op: number; goroutine: string; value: string; thisReplayOnly?: true }> };
        // The values machin prints in every replay, by the rule; the others are kept, marked.
        assert.deepEqual(sureOnly(j.entries).map(valueOnly), expectedHistory(file, probes, name, ender));
        for (const e of j.entries.filter((x) => x.thisReplayOnly)) assert.ok(probes.some((p) => p.name === name && p.goroutine === e.goroutine), `${name} = ${e.value} on ${e.goroutine}`);
      });
    }
  }
});

describe('frozen-run with the real machin, a program recorded here', () => {
  const SOURCE = `func produce(ch, n) { k := 0  for k < n { item := "job-" + str(k)  ch <- item  k = k + 1 } close(ch) }
func main() {
    ch := make(chan string)
    go produce(ch, 5)
    go produce(ch, 4)
    seen := 0  last := ""
    for seen < 9 { last = <-ch  seen = seen + 1 }
    parts := []int{1, 2, 3}
    println(last + str(parts[seen - 5]))
}
`;

  it('inspect --json and history of every variable machin prints agree with machin, in five launches', () => {
    const dir = tempDir('cli-machin-');
    const { trace } = recordProgram(dir, 'jobs', SOURCE);
    const json = runMachin(['replay', trace, '--json'], { timeoutMs: 30_000 });
    assert.match(json.stderr, /"panic":"index out of range \[4\] with length 3"/);
    assertInspect(trace, json.stderr, '');
    const names = ['k', 'item', 'seen', 'last', 'n'];
    const printed = runMachin(['replay', trace, '--print', names.join(',')], { timeoutMs: 30_000 });
    const probes = probeLines(printed.stderr);
    const everyName = [...new Set(probes.map((p) => p.name))].sort();
    assert.deepEqual(everyName, ['item', 'k', 'last', 'seen'], 'machin prints these (n is a parameter: never assigned)');
    for (const name of everyName) {
      const want = expectedHistory(trace, probes, name);
      for (let launch = 0; launch < (name === 'item' ? 5 : 1); launch++) {
        const r = run(['history', trace, name, '--json']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(sureOnly((JSON.parse(r.stdout) as { entries: Array<{ op: number; goroutine: string; value: string; thisReplayOnly?: true }> }).entries).map(valueOnly), want, `${name}, launch ${launch + 1}`);
      }
    }
  });

  it('history with --machin but the program missing says the program is missing, not that machin is needed', () => {
    const dir = tempDir('cli-machin-');
    const trace = join(dir, 'crash.mflrr');
    copyFileSync(join(FIX, 'crash/crash.mflrr'), trace);
    const r = run(['history', trace, 'idx']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /the program is missing: program \/home\/ci\/app\/crash\.mfl not found/);
    assert.doesNotMatch(r.stderr, /machin is needed/);
    const none = run(['history', trace, 'idx'], []);
    assert.match(none.stderr, /machin is needed/, 'without machin anywhere, that is what it says');
  });
});

describe('frozen-run inspect: the program used and a panicking run\'s verdict (issue 29, points 5, 7 and 10)', () => {
  it('names the .mfl beside the trace, the recorded path as secondary, the panic after op N-1/N, and why there is no machin verdict', () => {
    const dir = tempDir('cli-machin-inspect-');
    const trace = join(dir, 'crash.mflrr');
    copyFileSync(join(FIX, 'crash/crash.mflrr'), trace);
    copyFileSync(join(FIX, 'crash/crash.mfl'), join(dir, 'crash.mfl'));
    const recorded = /^program (.*)$/m.exec(readFileSync(trace, 'utf8'))![1];
    const ops = scheduleOf(trace).length;
    // machin's own answer (recorded with this machin in the fixture's outputs.json): a panic, and no verdict line from --verify.
    const replays = (JSON.parse(readFileSync(join(FIX, 'crash/outputs.json'), 'utf8')) as { replays: Replay[] }).replays;
    const of = (flag: string) => replays.find((x) => x.args.includes(flag))?.stderr ?? '';
    assert.doesNotMatch(of('--verify'), /replay-verify: .* -> (FAITHFUL|DIVERGED)/);
    const p = JSON.parse(of('--json').split('\n').find((l) => l.startsWith('{"panic"'))!) as { goroutine: string; scheduleOp: number };
    const position = panicPosition(scheduleOf(trace), p.goroutine, p.scheduleOp);
    const text = run(['inspect', trace]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^  program: ${join(dir, 'crash.mfl').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(recorded as ${recorded.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`, 'm'));
    assert.match(text.stdout, new RegExp(`^    on goroutine ${p.goroutine.replace('.', '\\.')} after op ${position - 1}/${ops}$`, 'm'));
    assert.doesNotMatch(text.stdout, new RegExp(`op ${ops}/${ops}`), 'there is no op N');
    assert.match(text.stdout, /^  verify: PANIC REPRODUCED \(machin replay --verify gives no verdict for a run that panics/m);
    const j = JSON.parse(run(['inspect', trace, '--json']).stdout);
    assert.equal(j.program, recorded);
    assert.equal(j.programUsed, join(dir, 'crash.mfl'));
    assert.equal(j.verify, null);
    assert.equal(j.panicVerdict.verdict, 'PANIC REPRODUCED');
    assert.match(j.panicVerdict.detail, /no verdict for a run that panics/);
    // A run machin gives a verdict for has no panic verdict.
    const pipeline = JSON.parse(run(['inspect', join(FIX, 'pipeline/pipeline.mflrr'), '--json']).stdout);
    assert.notEqual(pipeline.verify, null);
    assert.equal(pipeline.panicVerdict, null);
    // Without the program, nothing was read: the recorded path, said so.
    const alone = tempDir('cli-machin-inspect-');
    copyFileSync(trace, join(alone, 'crash.mflrr'));
    const none = run(['inspect', join(alone, 'crash.mflrr')]);
    assert.match(none.stdout, new RegExp(`^  program: ${recorded.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(as recorded; not read here\\)$`, 'm'));
    assert.equal(JSON.parse(run(['inspect', join(alone, 'crash.mflrr'), '--json']).stdout).programUsed, null);
  });

  it('history: a bare name several functions bind lists the choices; fn.var prints at ops the trace has', () => {
    const dir = tempDir('cli-machin-history-');
    const { trace } = recordProgram(dir, 'reorder', REORDER);
    const ops = scheduleOf(trace).length;
    const bare = run(['history', trace, 'base']);
    assert.notEqual(bare.code, 0);
    assert.match(bare.stderr, /`base` is a variable of 3 functions; name one: collector\.base \(5 values\), place\.base \(5 values\), slot\.base \(5 values\)/);
    const one = run(['history', trace, 'collector.base']);
    assert.equal(one.code, 0, one.stderr);
    const lines = one.stdout.trim().split('\n');
    assert.match(lines[0], /^collector\.base: 5 values/);
    for (const l of lines.slice(1)) {
      const m = /^  (start|op (\d+)) +goroutine 0\.2 +collector\.base = \d  collector line (13|19):\d+ /.exec(l);
      assert.ok(m, l);
      if (m[2] !== undefined) assert.ok(Number(m[2]) < ops, `${l}: ops are 0..${ops - 1}`);
    }
    assert.deepEqual(run(['history', trace, 'base', '--function', 'collector']).stdout, one.stdout);
  });
});

describe('frozen-run history: a value machin prints in some replays only', () => {
  // The ticker's last `i = i + 1` follows its last send: nothing orders it before main's end.
  // main takes all three sends, so each earlier store happens before a send main's receive
  // completes, whatever schedule the recording took (a send nobody receives may be recorded after
  // main's last op, and then the store before it is rightly this replay only too).
  const TICKER = `func ticker(out, stop) {
    i := 0
    for i < 3 {
        out <- i
        i = i + 1
    }
    <-stop
}
func main() {
    ch := make(chan int)
    stop := make(chan int)
    go ticker(ch, stop)
    k := 0
    total := 0
    for k < 3 {
        t := <-ch
        total = total + t
        k = k + 1
    }
    println(str(total))
}
`;

  it('is listed, marked this replay only, in text and in --json; the values before it are not marked', () => {
    const dir = tempDir('cli-machin-ticker-');
    const { trace } = recordProgram(dir, 'ticker', TICKER);
    let seen = 0;
    for (let launch = 0; launch < 6 && seen === 0; launch++) {
      const r = run(['history', trace, 'i', '--json', '--goroutine', '0.1']);
      assert.equal(r.code, 0, r.stderr);
      const entries = (JSON.parse(r.stdout) as { entries: Array<{ goroutine: string; value: string; thisReplayOnly?: true }> }).entries;
      assert.deepEqual(entries.slice(0, 3).map((e) => [e.value, !!e.thisReplayOnly]), [['0', false], ['1', false], ['2', false]]);
      if (entries.length < 4) continue;
      seen++;
      assert.deepEqual([entries[3].goroutine, entries[3].value, entries[3].thisReplayOnly], ['0.1', '3', true]);
      const text = run(['history', trace, 'i', '--goroutine', '0.1']);
      const last = text.stdout.trim().split('\n').at(-1) ?? '';
      if (/i = 3/.test(last)) assert.match(last, /i = 3 {2}\(this replay only\) {2}ticker line 5:9 {2}i = i \+ 1$/);
    }
    assert.ok(seen > 0, 'machin printed the last increment in none of 6 replays');
  });
});
