// The instrumented copy against the real machin 0.137.0: machin's checker accepts the copy of
// every fixture program and of a program with the tricky shapes; the copy runs with the same
// output; replaying each fixture trace against its copy gives the plain replay's verdict and
// panic, and the printed statement numbers are, per goroutine, a valid walk of the statement
// table, from which the call stack is rebuilt (recursion included).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseReplayOutput, type ReplayOutput } from '../../replay-engine/machin/machin-output';
import { writeInstrumentedCopy, type InstrumentedCopy } from '../../replay-engine/machin/source/instrument';
import { StatementIndex } from '../../replay-engine/machin/source/statement-index';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { TimelineBuilder, type Timeline } from '../../replay-engine/model/timeline';
import { instrumentedReplayDiffers } from '../../replay-engine/machin/source/trust-check';
import { writeTraceCopy } from '../../replay-engine/machin/trace-copy';
import { fixtureTraces } from './support';
import { runMachin } from '../support/machin';

const TRICKY = path.join(__dirname, 'programs', 'tricky.mfl');
/** extern-free odd corners: contracts, variadics, named results, field/index multi-assign, slices, arena, select send and ok-receive, maps. */
const SHAPES = path.join(__dirname, 'programs', 'shapes.mfl');
const copies: InstrumentedCopy[] = [];
after(async () => {
  for (const c of copies) await c.remove();
});

async function instrumented(program: string): Promise<InstrumentedCopy> {
  const copy = await writeInstrumentedCopy(program);
  copies.push(copy);
  return copy;
}

/** `machin replay TRACE FLAGS` with the trace's program line pointing at `program`. */
async function replay(trace: string, program: string, flags: string[]): Promise<{ exit: number | null; out: ReplayOutput; stdout: string; said: string }> {
  const copy = await writeTraceCopy(trace, program);
  try {
    const r = runMachin(['replay', copy.file, ...flags]);
    // (what machin said besides its probes, for a failing assertion to show)
    const said = `machin replay exit ${r.exit}${r.timedOut ? ' (timed out)' : ''}: ${r.stderr.split('\n').filter((l) => !l.startsWith('probe ')).join('\n').slice(0, 2000)}`;
    return { exit: r.exit, out: parseReplayOutput(r.stderr), stdout: r.stdout, said };
  } finally {
    await copy.remove();
  }
}

/** The index of the replay's statement probes over the trace's timeline (goroutines machin names that the trace has no line for added). */
async function indexOf(copy: InstrumentedCopy, out: ReplayOutput, trace: string): Promise<StatementIndex> {
  // An empty trace (a deadlock's: machin exits before flushing) is no recording to read, but machin replays it.
  const tl = statSync(trace).size === 0 ? new TimelineBuilder(0, 1).finish('mflrr', trace, [], 5) : (await readMflrr(trace)).timeline;
  for (const g of new Set(out.probes.map((p) => p.goroutine))) if (tl.threadIndex(g) < 0) tl.threads.push({ id: g, label: '' });
  const names = new Set(copy.table.probeNames);
  const probes = out.probes.filter((p) => names.has(p.name)).map((p) => ({ thread: tl.threadIndex(p.goroutine), statement: Number(p.value), op: p.op }));
  const index = StatementIndex.build(copy.table, copy.file, tl, probes);
  timelines.set(index, tl);
  return index;
}

const timelines = new WeakMap<StatementIndex, Timeline>();

/** The goroutine's events, by id. */
function eventsOf(index: StatementIndex, id: string) {
  return index.threads.find((g) => g && goroutineOf(index, g.thread) === id)!;
}

function goroutineOf(index: StatementIndex, thread: number): string {
  return timelines.get(index)!.threads[thread].id;
}

function blockedSet(out: ReplayOutput): unknown {
  const d = out.deadlock;
  return d && { count: d.goroutineCount, blocked: d.blocked.map((b) => `${b.goroutine}: ${b.waiting}`).sort() };
}

/** Each goroutine starts with a function entry, and every later event is in its current frame. */
function assertValidWalk(index: StatementIndex, what: string): void {
  assert.ok(index.eventCount > 0, `${what}: no statement events`);
  for (const g of index.threads) {
    if (!g) continue;
    const id = goroutineOf(index, g.thread);
    assert.equal(index.table.rows[g.statements[0] - 1].kind, 'entry', `${what}: goroutine ${id} starts with an entry`);
    assert.equal(g.repairs, 0, `${what}: goroutine ${id} has events outside the frame it was in`);
    for (let i = 0; i < g.statements.length; i++) {
      assert.equal(index.table.rows[g.statements[i] - 1].fn, g.frameFunction[g.frames[i]], `${what}: event ${i} of ${id}`);
      if (i > 0) assert.ok(g.ownOps[i] >= g.ownOps[i - 1], `${what}: own op counts never go back`);
    }
  }
}

describe('instrumented copies and the real machin', () => {
  const programs = [...new Set(fixtureTraces().map((fx) => fx.programFile))];
  for (const program of [...programs, TRICKY, SHAPES]) {
    it(`machin check accepts the copy of ${path.basename(path.dirname(program))}/${path.basename(program)}`, async () => {
      const copy = await instrumented(program);
      const r = runMachin(['check', copy.file]);
      assert.equal(r.exit, 0, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /ok — no errors/);
    });
  }

  for (const [program, sample] of [[TRICKY, /walk 2/], [SHAPES, /16 32/]] as const) {
    it(`the copy of ${path.basename(program)} prints what the program prints`, async () => {
      const copy = await instrumented(program);
      const plain = runMachin(['run', program]);
      const probed = runMachin(['run', copy.file]);
      assert.equal(plain.exit, 0, plain.stderr);
      assert.equal(probed.exit, plain.exit);
      assert.equal(probed.stdout, plain.stdout);
      assert.match(plain.stdout, sample);
    });
  }

  for (const fx of fixtureTraces()) {
    it(`${fx.name}: the instrumented replay has the plain verdict and panic, and a valid walk`, async () => {
      const copy = await instrumented(fx.programFile);
      const plain = await replay(fx.traceFile, fx.programFile, ['--verify']);
      const probed = await replay(fx.traceFile, copy.file, ['--verify', '--print', copy.table.probeNames.join(',')]);
      assert.equal(probed.exit, plain.exit);
      assert.equal(probed.stdout, plain.stdout);
      assert.deepEqual(probed.out.verify, plain.out.verify);
      assert.deepEqual(probed.out.panic, plain.out.panic);
      // machin lists the blocked goroutines in the order they blocked, which varies between replays
      assert.deepEqual(blockedSet(probed.out), blockedSet(plain.out));
      assert.equal(instrumentedReplayDiffers(plain.out, probed.out), null);
      const index = await indexOf(copy, probed.out, fx.traceFile);
      assertValidWalk(index, fx.name);
      if (plain.out.panic) {
        // the panicking goroutine's last event is a statement (not an entry or exit) of the program
        const g = eventsOf(index, plain.out.panic.goroutine);
        const last = index.table.rows[g.statements[g.statements.length - 1] - 1];
        assert.ok(last.kind === 'statement' || last.kind === 'return', `${fx.name}: panicked at a ${last.kind}`);
      }
    });
  }
});

describe('programs recorded in the test', () => {
  it('shapes.mfl: the instrumented replay is FAITHFUL and a valid walk, the closure under apply2', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fr-shapes-'));
    const trace = path.join(dir, 'shapes.mflrr');
    const rec = runMachin(['run', '--record', trace, SHAPES]);
    assert.equal(rec.exit, 0, rec.stderr);
    const copy = await instrumented(SHAPES);
    const probed = await replay(trace, copy.file, ['--verify', '--print', copy.table.probeNames.join(',')]);
    assert.equal(probed.out.verify?.verdict, 'FAITHFUL', probed.said);
    const index = await indexOf(copy, probed.out, trace);
    assertValidWalk(index, 'shapes');
    const main = eventsOf(index, '0');
    const stacks = Array.from(main.statements, (_, i) => index.stack(main.thread, i).map((f) => f.function).join(' '));
    assert.ok(stacks.includes('main.func1 apply2 main'));
    assert.ok(stacks.includes('sum main'));
    assert.ok(!stacks.some((s) => s.startsWith('sender')), 'sender runs on its own goroutine');
  });
});

describe('call stacks rebuilt from a recorded recursive program', () => {
  it('has one frame per active call of fib, fact and walk, and none left after they return', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fr-recursion-'));
    const trace = path.join(dir, 'tricky.mflrr');
    const rec = runMachin(['run', '--record', trace, TRICKY]);
    assert.equal(rec.exit, 0, rec.stderr);
    const copy = await instrumented(TRICKY);
    const probed = await replay(trace, copy.file, ['--verify', '--print', copy.table.probeNames.join(',')]);
    assert.equal(probed.out.verify?.verdict, 'FAITHFUL', probed.said);
    const index = await indexOf(copy, probed.out, trace);
    assertValidWalk(index, 'tricky');
    const main = eventsOf(index, '0');
    const src = readFileSync(TRICKY, 'utf8').split('\n');
    const stacks: string[][] = [];
    const textOf = (i: number): string => {
      const r = index.table.rows[main.statements[i] - 1];
      return src[r.line - 1].slice(r.column - 1, r.endLine === r.line ? r.endColumn - 1 : undefined);
    };
    for (let i = 0; i < main.statements.length; i++) stacks.push(index.stack(main.thread, i).map((f) => f.function));
    // fib(6): the deepest call is fib(1) under five more fibs, under main
    const fibDepth = Math.max(...stacks.map((s) => s.filter((f) => f === 'fib').length));
    assert.equal(fibDepth, 6);
    for (const s of stacks) if (s[0] === 'fib') assert.deepEqual(s.slice(s.lastIndexOf('fib') + 1), ['main']);
    // fact(5) recurses through the return in its else block
    assert.equal(Math.max(...stacks.map((s) => s.filter((f) => f === 'fact').length)), 5);
    // walk(2) prints on the way out: three frames deep first, then two, then one
    const walkPrints = stacks.filter((_, i) => textOf(i).startsWith('println("walk "'));
    assert.deepEqual(walkPrints, [['walk', 'walk', 'walk', 'main'], ['walk', 'walk', 'main'], ['walk', 'main']]);
    // a closure called through apply is a frame under apply
    assert.ok(stacks.some((s) => s.join(' ') === 'main.func1 apply main'), 'main.func1 under apply');
    // every statement of main itself runs with main alone on the stack
    for (let i = 0; i < main.statements.length; i++) {
      if (index.table.functions[index.table.rows[main.statements[i] - 1].fn].name === 'main') assert.deepEqual(stacks[i], ['main'], textOf(i));
    }
    // the producer goroutine runs producer alone
    const producer = index.threads.find((g) => g && g.thread !== main.thread)!;
    for (let i = 0; i < producer.statements.length; i++) assert.deepEqual(index.stack(producer.thread, i).map((f) => f.function), ['producer']);
  });
});
