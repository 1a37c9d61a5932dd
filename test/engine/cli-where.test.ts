// `frozen-run where` and `history` at source level, with the real machin 0.137.0 and programs
// recorded here (test/support/panic-programs.ts): the statement that panicked with its source
// lines, every goroutine's stack at the panic with each frame's values, and the statement of each
// store, all as read off the programs' text by hand.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { buildCli, CLI } from './build-cli';
import { machinPath, recordProgram, type Recorded } from '../support/machin';
import { DIVIDER, PANIC_PROGRAMS } from '../support/panic-programs';
import { tempDir } from '../machin/support';
import { BALANCER, REORDER } from '../support/programs';

const MACHIN = machinPath();

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--machin', MACHIN], { encoding: 'utf8', env: { ...process.env, MACHIN: '' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const recorded = new Map<string, Recorded>();
let calm: Recorded;
before(async () => {
  await buildCli();
  for (const p of PANIC_PROGRAMS) recorded.set(p.name, recordProgram(tempDir('cli-where-'), p.name, p.source));
  calm = recordProgram(tempDir('cli-where-'), 'calm', `func main() {\n    x := 1\n    x = x + 1\n    println(str(x))\n}\n`);
});

describe('frozen-run where', () => {
  it('--json: the statement that panicked, its lines, and every goroutine\'s stack and values at the panic', () => {
    for (const p of PANIC_PROGRAMS) {
      const rec = recorded.get(p.name)!;
      const r = run(['where', rec.trace, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout);
      assert.deepEqual(doc.panic.message, p.message, p.name);
      assert.equal(doc.panic.thread, p.thread);
      const [fn, lc] = p.frames[0].split(' ');
      const [line, column] = lc.split(':').map(Number);
      assert.deepEqual({ path: doc.statement.path, line: doc.statement.line, column: doc.statement.column, endLine: doc.statement.endLine, function: doc.statement.function, text: doc.statement.text }, { path: rec.program, line, column, endLine: p.endLine, function: fn, text: p.text }, p.name);
      // The statement's lines are marked, with three lines either side.
      const lines = p.source.split('\n');
      assert.deepEqual(doc.source.filter((l: { here?: true }) => l.here).map((l: { line: number }) => l.line), Array.from({ length: p.endLine - line + 1 }, (_, i) => line + i));
      for (const l of doc.source) assert.equal(l.text, lines[l.line - 1]);
      assert.equal(doc.source[0].line, Math.max(1, line - 3));
      // The goroutine that panicked first, with its stack and each frame's own values.
      const g = doc.goroutines[0];
      assert.equal(g.id, p.thread);
      assert.deepEqual(g.frames.map((f: { function: string; line: number; column: number }) => `${f.function} ${f.line}:${f.column}`), p.frames, p.name);
      for (const v of p.values.filter((x) => /^[a-z]+$/.test(x.expression))) assert.equal(g.frames[v.frame].locals[v.expression], v.result, `${p.name}: ${v.expression} in frame ${v.frame}`);
      // Every goroutine of the trace is listed (and those the statements add: a spawner with no op).
      const inspect = JSON.parse(run(['inspect', rec.trace, '--json']).stdout);
      const ids = doc.goroutines.map((x: { id: string }) => x.id);
      for (const t of inspect.threads) assert.ok(ids.includes(t.id), `${p.name}: goroutine ${t.id} is listed (${ids.join(', ')})`);
    }
  });

  it('the other goroutines stand where they were at the panic: DIVIDER\'s worker blocked on its last send', () => {
    const doc = JSON.parse(run(['where', recorded.get('divider')!.trace, '--json']).stdout);
    const worker = doc.goroutines.find((g: { id: string }) => g.id === '0.1');
    // worker sends n - i - 1 for i = 0, 1, 2 (line 8); main panicked on the third value, so i is 2.
    // What it ran after its last send races with the panic: shown, marked this replay only.
    const frames = worker.frames as Array<{ function: string; line: number; text: string; thisReplayOnly?: true; locals: Record<string, string> }>;
    const place = frames.map((f) => `${f.function} ${f.line} ${f.text}`);
    if (frames[0].thisReplayOnly) assert.ok(frames[0].line >= 8, place.join());
    else assert.deepEqual(place, ['worker 8 ch <- n - i - 1']);
    assert.equal(frames[0].locals.n, '3');
    assert.ok(frames[0].locals.i === '2' || (frames[0].thisReplayOnly && frames[0].locals.i === '3'), JSON.stringify(frames[0]));
  });

  it('a goroutine with no op of its own is listed where it stands: LEAF\'s spawner at its `go`', () => {
    const doc = JSON.parse(run(['where', recorded.get('leaf')!.trace, '--json']).stdout);
    const spawner = doc.goroutines.find((g: { id: string }) => g.id === '0.1');
    assert.equal(spawner.record, null, 'it did no channel op');
    // its last `go` surely ran (the leaf did something); the end of its body only in this replay
    const frames = spawner.frames as Array<{ function: string; line: number; text: string; thisReplayOnly?: true }>;
    if (frames[0].thisReplayOnly) assert.deepEqual(frames.map((f) => `${f.function} ${f.line}`), ['spawner 16']);
    else assert.deepEqual(frames.map((f) => `${f.function} ${f.line} ${f.text}`), ['spawner 15 go leaf(out, xs)']);
  });

  it('a goroutine blocked at the end is shown where it waits, as the Call Stack shows it, marked alike in every launch', () => {
    for (const [program, line, text] of [[BALANCER, 22, '<-done'], [REORDER, 29, 'println(str(<-done))']] as const) {
      const rec = recordProgram(tempDir('cli-where-blocked-'), program === BALANCER ? 'balancer' : 'reorder', program);
      for (let launch = 0; launch < 3; launch++) {
        const doc = JSON.parse(run(['where', rec.trace, '--json']).stdout);
        const main = doc.goroutines.find((g: { id: string }) => g.id === '0').frames[0];
        // Whether machin printed the blocking statement in this replay or not, the same frame:
        // racing with the panic, it is this replay only (docs/source-level.md, "Blocked at the end").
        assert.deepEqual({ fn: main.function, line: main.line, text: main.text, waiting: main.waiting, mark: main.thisReplayOnly }, { fn: 'main', line, text, waiting: 'blocked in receive', mark: true }, `launch ${launch + 1}`);
      }
      const out = run(['where', rec.trace]).stdout;
      assert.match(out, new RegExp(`^    main · blocked in receive  \\S+:${line}:5  ${text.replace(/[()]/g, '\\$&')}  \\(this replay only\\)$`, 'm'), out);
    }
  });

  it('text: the source lines with the statement marked, and the goroutines with their values', () => {
    const r = run(['where', recorded.get('divider')!.trace]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split('\n');
    assert.equal(out[0], 'panic: integer divide by zero');
    assert.match(r.stdout, /at ratio \(.*divider\.mfl:2:5\)/);
    const marked = out.findIndex((l) => l.startsWith('> 2 |'));
    assert.equal(out[marked], '> 2 |     q := a / b');
    // The caret line under the statement's columns (5 to 14).
    assert.equal(out[marked + 1], '    |     ^^^^^^^^^^');
    assert.ok(out.includes('  goroutine 0 (main) [panicked]'), r.stdout);
    assert.ok(out.some((l) => /^ {4}main .*divider\.mfl:19:9 {2}sum = sum \+ ratio\(12, d\)$/.test(l)), r.stdout);
    assert.ok(out.includes('        b = 0'));
    assert.ok(out.includes('        sum = 18'));
  });

  it('a run that did not panic, and bad arguments, get one clear line', () => {
    const r = run(['where', calm.trace, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).panic, null);
    assert.match(JSON.parse(r.stdout).why, /did not panic/);
    assert.match(run(['where', calm.trace]).stdout, /calm\.mflrr: the run did not panic/);
    const off = run(['where', calm.trace, '--no-toolchain']);
    assert.equal(off.code, 2);
    assert.match(off.stderr, /where needs machin/);
    assert.equal(run(['where', calm.trace, '--context', 'many']).code, 2);
  });
});

describe('frozen-run history at source level', () => {
  it('each store with the statement that made it; --function keeps one function\'s stores', () => {
    const rec = recorded.get('divider')!;
    const r = run(['history', rec.trace, 'sum', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    // sum := 0 (line 15), then sum = sum + ratio(12, d) (line 19) for d = 2 and d = 1.
    assert.deepEqual(doc.entries.map((e: { value: string; statement: { line: number; function: string; text: string } }) => `${e.value} ${e.statement.function}:${e.statement.line} ${e.statement.text}`), [
      '0 main:15 sum := 0',
      '6 main:19 sum = sum + ratio(12, d)',
      '18 main:19 sum = sum + ratio(12, d)',
    ]);
    const q = JSON.parse(run(['history', rec.trace, 'q', '--function', 'ratio', '--json']).stdout);
    assert.equal(q.function, 'ratio');
    assert.deepEqual(q.entries.map((e: { value: string; statement: { line: number } }) => `${e.value}@${e.statement.line}`), ['6@2', '12@2']);
    // main stores no q: said, with the variables of that name there are.
    const none = run(['history', rec.trace, 'q', '--function', 'main', '--json']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /`main` stores no `q`; the variables of that name: ratio\.q \(2 values\)/);
    const text = run(['history', rec.trace, 'sum']).stdout;
    assert.match(text, /sum = 6 {2}main line 19:9 {2}sum = sum \+ ratio\(12, d\)/);
    const bad = run(['history', rec.trace, 'sum', '--function', 'nosuch']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /the program has no function `nosuch`/);
  });

  it('the statement of a goroutine\'s parameter is its function\'s entry', () => {
    const doc = JSON.parse(run(['history', recorded.get(DIVIDER.name)!.trace, 'n', '--json']).stdout);
    assert.deepEqual(doc.entries.map((e: { value: string; goroutine: string; statement: { function: string; line: number } | null }) => `${e.goroutine} ${e.value} ${e.statement?.function}:${e.statement?.line}`), ['0.1 3 worker:5']);
  });
});
