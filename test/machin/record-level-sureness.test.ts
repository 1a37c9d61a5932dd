// Without the program's statements (source level off: `sourceLevel: false`, the CLI's inspect,
// history and compare), only schedule ops can order a value before the run's end: the values
// they order are sure and the same on every launch; for the others it cannot be told, and the
// warning says exactly that (which goroutines and variables, and that the statements are not
// known), never that machin "may not print them in another replay" (issue 25: a compute goroutine
// that panics with no op of its own left every other value marked so, though machin prints them
// every time). With the real machin 0.137.0; the truth is machin's own `--print` and the
// source-level answer of happens-before on the same trace.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openRecording } from '../../replay-engine/open';
import type { Recording } from '../../replay-engine/model/recording';
import { machinPath, probeLines, recordProgram, runMachin, type Recorded } from '../support/machin';
import { tempDir } from './support';

const SPLIT = `func measure(base, out) {
    m := base * 4
    m = m - 20
    out <- m
}

func splitter(total, parts, done) {
    share := total
    share = share / parts
    done <- share
}

func boss(done) {
    box := make(chan int)
    go measure(5, box)
    d := <-box
    f := d * 3
    g := f + 50
    go splitter(g, f, done)
}

func main() {
    done := make(chan int)
    z := 3
    z = z + 4
    go boss(done)
    res := <-done
    println(str(res + z))
}
`;

const TICK = `func clock(out, halt) {
    beat := 10
    for beat < 13 {
        out <- beat
        beat = beat + 1
    }
    <-halt
}

func main() {
    out := make(chan int)
    halt := make(chan int)
    go clock(out, halt)
    sum := 0
    n := 0
    for n < 3 {
        b := <-out
        sum = sum + b
        n = n + 1
    }
    println(str(sum))
}
`;

const open = (r: Recorded, sourceLevel: boolean) => openRecording(r.trace, { machinPath: machinPath(), programRoots: [r.dir], timeLimitMs: 60_000, sourceLevel });

/** Per goroutine and variable: the values, each with `?` when marked, and where placed. */
function values(rec: Recording, names: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of names) {
    for (const e of rec.histories!.entries(name)) (out[`${rec.timeline.threads[e.thread].id} ${name}`] ??= []).push(`${e.value}${e.thisReplayOnly ? '?' : ''}@${e.position}`);
  }
  return out;
}

describe('record level (no statements): sure where ops say so, "not known" where they cannot', () => {
  let split: Recorded;
  let tick: Recorded;
  before(() => {
    split = recordProgram(tempDir('record-level-'), 'split', SPLIT);
    tick = recordProgram(tempDir('record-level-'), 'tick', TICK);
  });

  it('a panicking goroutine with no op: its values sure and the same on 3 launches; the others kept, said to be not known', async () => {
    const names = ['m', 'share', 'd', 'f', 'g', 'z', 'res'];
    const printed = probeLines(runMachin(['replay', split.trace, '--print', names.join(',')], { cwd: split.dir }).stderr);
    const launches: string[] = [];
    for (let launch = 0; launch < 3; launch++) {
      const rec = await open(split, false);
      assert.equal(rec.panic?.message, 'integer divide by zero');
      assert.equal(rec.timeline.threads[rec.panic!.thread].id, '0.1.2', 'splitter panicked');
      const v = values(rec, names);
      // splitter's values are sure (it printed them before it ended), exactly what machin printed
      assert.deepEqual(v['0.1.2 share'], printed.filter((p) => p.goroutine === '0.1.2' && p.name === 'share').map((p) => `${p.value}@0`));
      // every value machin printed is there, on its goroutine, in its order
      for (const p of printed) assert.ok(v[`${p.goroutine} ${p.name}`]?.some((x) => x.startsWith(`${p.value}`)), `${p.goroutine} ${p.name} = ${p.value} kept`);
      // the others: no op orders them before the end (splitter did none), so not known: marked
      for (const key of ['0 z', '0.1.1 m', '0.1 d', '0.1 f', '0.1 g']) assert.ok(v[key].every((x) => x.includes('?')), `${key} marked`);
      const codes = rec.warnings.map((w) => w.code);
      assert.ok(!codes.includes('values-this-replay-only'), 'never "printed by this replay only" without statements');
      const w = rec.warnings.find((x) => x.code === 'values-not-known-sure');
      assert.ok(w, codes.join(', '));
      assert.match(w.message, /goroutine 0\.1 boss: d, f, g \(3\)/);
      assert.match(w.message, /goroutine 0( main)?: z \(2\)/);
      assert.match(w.message, /goroutine 0\.1\.1 measure: m \(2\)/);
      assert.match(w.message, /the program's statements are not known \(source level was not asked for/);
      assert.match(w.message, /goroutine 0\.1\.2( splitter)? ends, and it did no schedule op/);
      assert.doesNotMatch(w.message, /may not print them in another replay/);
      launches.push(JSON.stringify(v['0.1.2 share']));
    }
    assert.ok(launches.every((x) => x === launches[0]), 'the sure values are the same on every launch');
    // Sound: what is sure without the statements is sure with them (happens-before), placed by the same ops.
    const full = await open(split, true);
    assert.deepEqual(full.sourceLevel, { state: 'ready' }, JSON.stringify(full.warnings));
    assert.ok(full.histories!.entries('share').every((e) => !e.thisReplayOnly));
    // ...and there the boss's values are known to be sure: its `go splitter` comes after them
    assert.ok(full.histories!.entries('g').every((e) => !e.thisReplayOnly));
  });

  it('source level unavailable (the instrumenter cannot read the program): the warning says so, and why', async () => {
    // 210 parentheses deep: machin runs it, Frozen Run's instrumenter stops at 200 levels
    const deep = `${'('.repeat(210)}1${')'.repeat(210)}`;
    const r = recordProgram(tempDir('record-level-'), 'split', SPLIT.replace('    z := 3\n', `    z := 3 + ${deep} - 1\n`));
    const rec = await open(r, true);
    assert.equal(rec.sourceLevel?.state, 'unavailable');
    assert.equal(rec.panic?.message, 'integer divide by zero');
    const w = rec.warnings.find((x) => x.code === 'values-not-known-sure');
    assert.ok(w, rec.warnings.map((x) => x.code).join(', '));
    assert.match(w.message, /the program's statements are not known \(source level is unavailable: \S+split\.mfl:24:\d+: the program nests too deeply here/);
    assert.match(w.message, /goroutine 0\.1 boss: d, f, g \(3\)/);
    assert.ok(!rec.warnings.some((x) => x.code === 'values-this-replay-only'));
  });

  it('the run ends with main, which has ops: values before a goroutine\'s op up to main\'s last are sure, the value after the last send is not known', async () => {
    const names = ['beat', 'sum', 'n', 'b'];
    for (let launch = 0; launch < 3; launch++) {
      const rec = await open(tick, false);
      const v = values(rec, names);
      const beats = v['0.1 beat'];
      // 10, 11, 12 before its three sends (each send is an op main's receives come after): sure
      assert.deepEqual(beats.slice(0, 3).map((x) => x.split('@')[0]), ['10', '11', '12']);
      // 13 after its last send: printed in some replays only, and without the statements not told apart
      if (beats.length > 3) {
        assert.equal(beats[3].split('@')[0], '13?');
        const w = rec.warnings.find((x) => x.code === 'values-not-known-sure');
        assert.match(w!.message, /goroutine 0\.1 clock: beat \(1\).*the run ends when goroutine 0 main ends, so the ops up to its last \(op 7\/7\) complete in every replay/);
      }
      assert.ok(v['0 sum'].every((x) => !x.includes('?')), 'main\'s values are sure');
    }
  });
});
