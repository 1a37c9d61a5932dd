// `frozen-run compare` through the built CLI (node dist/cli.js), on the real flaky runs; with the
// real machin 0.137.0 for value histories. Expected answers come from the files' text and from
// machin's recorded `--print` output (positions by docs/value-positions.md), not from the engine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCli } from '../engine/build-cli';
import { alwaysPrinted, expectedPosition, machinPath, probeLines, scheduleOf as goroutinesOf } from '../support/machin';
import { buildBody, seal, word, FIXTURE_KEY } from '../tcap/support/seal';
import { FLAKY_RUNS, TempTraces, scheduleOf } from './support/traces';

const MACHIN = machinPath();
let cli = '';
const temp = new TempTraces();
before(async () => {
  cli = await buildCli();
});
after(() => temp.dispose());

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'compare', ...args], { encoding: 'utf8', env: { ...process.env, MACHIN: '' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const runFile = (name: string) => join(FLAKY_RUNS, name);

/** First op where two traces' schedules differ, from their text. */
function firstScheduleDifference(a: string, b: string) {
  const sa = scheduleOf(a);
  const sb = scheduleOf(b);
  let k = 0;
  while (k < sa.length && k < sb.length && sa[k].goroutine === sb[k].goroutine) k++;
  return { k, a: sa[k], b: sb[k] };
}

/** machin's recorded `--print` probes per (goroutine, name), each at its position by the rule. */
function probes(name: string): Map<string, Array<{ value: string; op: number }>> {
  const outputs = JSON.parse(readFileSync(join(FLAKY_RUNS, 'outputs.json'), 'utf8'));
  const stderr: string = outputs[name]['replay {trace} --print got,order'].stderr;
  const schedule = goroutinesOf(runFile(name));
  const out = new Map<string, Array<{ value: string; op: number }>>();
  for (const p of probeLines(stderr).filter((q) => alwaysPrinted(schedule, q.goroutine, q.op, '0'))) {
    const key = `${p.goroutine} ${p.name}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push({ value: p.value, op: expectedPosition(schedule, p.goroutine, p.op) });
  }
  return out;
}

describe('frozen-run compare', () => {
  for (const [a, b] of [
    ['r1.mflrr', 'r3.mflrr'],
    ['r3.mflrr', 'r14.mflrr'],
    ['r14.mflrr', 'r1.mflrr'],
  ]) {
    it(`--json on ${a} and ${b}: commonPrefix and firstDivergence with op, thread and line on each side`, () => {
      const r = run(runFile(a), runFile(b), '--json', '--no-toolchain');
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      const want = firstScheduleDifference(runFile(a), runFile(b));
      assert.equal(json.firstDivergence.a.op, want.k);
      assert.equal(json.firstDivergence.b.op, want.k);
      assert.equal(json.firstDivergence.a.thread, want.a.goroutine);
      assert.equal(json.firstDivergence.b.thread, want.b.goroutine);
      assert.equal(json.firstDivergence.a.line, want.a.line);
      assert.equal(json.firstDivergence.b.line, want.b.line);
      assert.equal(typeof json.commonPrefix.records, 'number');
      assert.ok(json.commonPrefix.ops <= want.k);
      assert.equal(json.format, 'mflrr');
      assert.deepEqual(
        json.threads.map((t: { id: string }) => t.id).sort(),
        [...new Set(scheduleOf(runFile(a)).map((s) => s.goroutine))].sort(),
      );
    });
  }

  it('the same run twice: firstDivergence is null', () => {
    const r = run(runFile('r1.mflrr'), runFile('r1.mflrr'), '--json', '--no-toolchain');
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.firstDivergence, null);
    assert.equal(json.identical, true);
    assert.equal(json.commonPrefix.ops, scheduleOf(runFile('r1.mflrr')).length);
  });

  it('without --json: a short summary naming both goroutines at the divergence', () => {
    const r = run(runFile('r1.mflrr'), runFile('r14.mflrr'), '--no-toolchain');
    assert.equal(r.code, 0, r.stderr);
    const want = firstScheduleDifference(runFile('r1.mflrr'), runFile('r14.mflrr'));
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length <= 15, r.stdout);
    assert.match(lines[1], new RegExp(`op ${want.k}: r1\\.mflrr runs goroutine ${want.a.goroutine.replace('.', '\\.')}\\b.*r14\\.mflrr runs goroutine ${want.b.goroutine.replace('.', '\\.')}\\b`));
  });

  it('with machin: the first variable whose value differs, and where', () => {
    const r = run(runFile('r1.mflrr'), runFile('r14.mflrr'), '--json', '--machin', MACHIN);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.histories, { a: true, b: true });
    // Expected: over the recorded probes, per (goroutine, name), the earliest k-th value that differs.
    const pa = probes('r1.mflrr');
    const pb = probes('r14.mflrr');
    let best: { key: string; k: number; op: number } | null = null;
    for (const [key, va] of pa) {
      const vb = pb.get(key) ?? [];
      const k = va.findIndex((v, i) => vb[i]?.value !== v.value);
      if (k >= 0 && (!best || va[k].op < best.op)) best = { key, k, op: va[k].op };
    }
    assert.ok(best);
    const [goroutine, name] = best.key.split(' ');
    const d = json.firstVariableDifference;
    assert.equal(d.name, name);
    assert.equal(d.thread, goroutine);
    assert.equal(d.assignment, best.k);
    assert.equal(d.a.op, best.op);
    assert.equal(d.a.value, pa.get(best.key)![best.k].value);
    assert.equal(d.b.value, pb.get(best.key)![best.k].value);
    assert.equal(d.b.op, pb.get(best.key)![best.k].op);
  });

  it('two capsules with --key: the first effect whose kind or key differs; the key is never printed', () => {
    const write = (name: string, keys: string[]) => {
      const file = join(temp.dir, name);
      const effects = [
        { kind: 'tide.now@1', data: word(name.length) },
        ...keys.map((k) => ({ kind: 'quarry.read@1', key: k, data: 'x' })),
      ];
      writeFileSync(file, seal(buildBody({ program: '/srv/bin/orders', effects }), FIXTURE_KEY));
      return file;
    };
    const a = write('a.tcap', ['/etc/a', '/etc/b', '/etc/c']);
    const b = write('bb.tcap', ['/etc/a', '/etc/x', '/etc/c']);
    const r = run(a, b, '--json', '--key', FIXTURE_KEY);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.format, 'tcap');
    assert.equal(json.firstDivergence.cause, 'effect');
    assert.equal(json.firstDivergence.a.op, 2);
    assert.equal(json.firstDivergence.b.op, 2);
    assert.equal(json.firstDivergence.a.thread, '0');
    assert.equal(typeof json.firstDivergence.a.line, 'number');
    assert.equal(json.valueDifferences.total, 2); // the clock, and the read of another file
    const text = run(a, b, '--key', FIXTURE_KEY);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /effects part at effect 2/);
    for (const out of [r.stdout, r.stderr, text.stdout, text.stderr]) assert.ok(!out.toLowerCase().includes(FIXTURE_KEY), 'the key was printed');
  });

  it('runs of different programs: exit 1 and one line saying which programs were compared', () => {
    const other = temp.write('crash-run.mflrr', ['S 0'], '/home/ci/app/crash.mfl');
    const r = run(runFile('r1.mflrr'), other, '--no-toolchain');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /flaky\.mfl/);
    assert.match(r.stderr, /crash\.mfl/);
    assert.doesNotMatch(r.stderr, /\bat \S+:\d+/);
  });

  it('a recording that cannot be read: exit 1 naming the file; a missing argument: exit 2', () => {
    const broken = join(temp.dir, 'broken.mflrr');
    writeFileSync(broken, 'MFLRR 1\nprogram /x/flaky.mfl\nS 0\nS zz!\n');
    const r = run(runFile('r1.mflrr'), broken, '--no-toolchain');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken\.mflrr/);
    const usage = run(runFile('r1.mflrr'));
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage/);
  });
});
