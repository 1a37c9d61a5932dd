// Variable histories at source level (issue 29, points 1 and 2) with the real machin 0.137.0: two
// programs recorded here (a reorder buffer, a balancer), opened as the extension opens them. A
// variable is one function's: the collector's `base` has as many values as machin's own
// `--print base` of the plain program prints (machin prints no parameter), the helpers' `base`
// parameters are variables of their own, and each store names the statement that made it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openRecording } from '../../replay-engine/open';
import type { Recording } from '../../replay-engine/model/recording';
import { statementVariables, keyFor, type StatementVariable } from '../../replay-engine/model/statement-histories';
import { historyAnswer } from '../../replay-engine/model/history-answer';
import { dataChanges } from '../../debug-adapter/data-changes';
import { readFileSync } from 'node:fs';
import { machinPath, probeLines, recordProgram, runMachin, type Recorded } from '../support/machin';
import { BALANCER, REORDER } from '../support/programs';
import { tempDir } from './support';

async function opened(r: Recorded): Promise<Recording> {
  return openRecording(r.trace, { machinPath: machinPath(), programRoots: [r.dir], timeLimitMs: 60_000 });
}

/** How many values machin itself prints for `name` replaying the plain program. */
function machinCount(r: Recorded, name: string): number {
  const out = runMachin(['replay', r.trace, '--print', name], { cwd: r.dir, timeoutMs: 60_000 });
  assert.equal(out.timedOut, false);
  return probeLines(out.stderr).filter((p) => p.name === name).length;
}

const where = (v: StatementVariable) => v.stores.map((s) => `${s.line}:${s.column}=${s.value}`);

describe('source-level variable histories', () => {
  let reorder: Recorded;
  let balancer: Recorded;
  before(() => {
    reorder = recordProgram(tempDir('stmt-hist-'), 'reorder', REORDER);
    balancer = recordProgram(tempDir('stmt-hist-'), 'balancer', BALANCER);
  });

  it('splits `base` by function: the collector has as many values as machin prints, each with its statement', async () => {
    const rec = await opened(reorder);
    assert.deepEqual(rec.sourceLevel, { state: 'ready' }, JSON.stringify(rec.warnings));
    const vars = statementVariables(rec.histories!, rec.statements!)!;
    const keys = vars.map((v) => v.key);
    for (const k of ['collector.base', 'place.base', 'slot.base', 'collector.seq', 'place.i', 'producer.k']) assert.ok(keys.includes(k), `${k} in ${keys.join(', ')}`);
    assert.ok(!keys.includes('base'), 'no unsplit `base` mixing three functions');
    const base = vars.find((v) => v.key === 'collector.base')!;
    assert.equal(base.stores.length, machinCount(reorder, 'base'));
    // `base := 0` (13:5), then `base = base + 1` (19:13) once per slide of the window.
    assert.deepEqual(where(base), ['13:5=0', '19:13=1', '19:13=2', '19:13=3', '19:13=4']);
    assert.ok(base.stores.every((s) => rec.timeline.threads[s.thread].id === '0.2' && s.depth === 0));
    // The helpers' parameters: one value per call, stored at their entry, one and two frames down.
    const place = vars.find((v) => v.key === 'place.base')!;
    assert.deepEqual(where(place), ['2:1=0', '2:1=0', '2:1=2', '2:1=3', '2:1=4']);
    assert.ok(place.stores.every((s) => s.depth === 1));
    assert.ok(vars.find((v) => v.key === 'slot.base')!.stores.every((s) => s.depth === 2));
    // `i := slot(base, seq)`: a value a call returned is stored by the caller's statement (2:33).
    assert.deepEqual(where(vars.find((v) => v.key === 'place.i')!), ['2:33=1', '2:33=0', '2:33=0', '2:33=0', '2:33=4']);
    // Run order: the stores of one thread follow its statements.
    for (const v of vars) for (let i = 1; i < v.stores.length; i++) assert.ok(v.stores[i - 1].seq < v.stores[i].seq, v.key);
    // A plain name (the Variables view's `base` in a frame of place) means that function's.
    assert.equal(keyFor(vars, 'base', 'place'), 'place.base');
    assert.equal(keyFor(vars, 'base'), 'collector.base');
  });

  it('the balancer: total and w of the balancer agree with machin; report and share hold their own copies', async () => {
    const rec = await opened(balancer);
    const vars = statementVariables(rec.histories!, rec.statements!)!;
    const total = vars.find((v) => v.key === 'balancer.total')!;
    const w = vars.find((v) => v.key === 'balancer.w')!;
    assert.equal(total.stores.length, machinCount(balancer, 'total'));
    assert.equal(w.stores.length, machinCount(balancer, 'w'));
    assert.deepEqual(where(total), ['6:5=0', '10:30=73', '10:30=147', '10:30=222', '10:30=298']);
    assert.deepEqual(where(w), ['7:5=1', '11:31=3', '11:31=2', '11:31=0']);
    // share's w: one per call, the last the zero it divided by.
    const shareW = vars.find((v) => v.key === 'share.w')!;
    assert.equal(shareW.stores.at(-1)!.value, '0');
    assert.ok(shareW.stores.every((s) => s.depth === 2));
    // A select-bound name is stored by the `select` (its op brings the value), not by its case's
    // line: as docs/source-level.md says under "Not built yet" (issue 29, point 6).
    const lines = BALANCER.split('\n');
    const select = lines.findIndex((l) => l.trim() === 'select {') + 1;
    const nw = vars.find((v) => v.key === 'balancer.nw')!;
    assert.ok(nw.stores.length > 0 && nw.stores.every((s) => s.line === select), `${where(nw).join(', ')}; select on line ${select}`);
  });

  it('the CLI\'s and MCP\'s history answer one function\'s variable, at ops the trace has; a bare name several functions bind lists them', async () => {
    const rec = await opened(reorder);
    const ops = readFileSync(reorder.trace, 'utf8').split('\n').filter((l) => l.startsWith('S ')).length;
    assert.throws(() => historyAnswer(rec, reorder.trace, 'base'), /`base` is a variable of 3 functions; name one: collector\.base \(5 values\), place\.base \(5 values\), slot\.base \(5 values\)/);
    const base = historyAnswer(rec, reorder.trace, 'collector.base');
    assert.equal(base.key, 'collector.base');
    assert.equal(base.entries.length, machinCount(reorder, 'base'), 'as many as machin prints for the plain program');
    assert.deepEqual(base.entries.map((e) => e.value), ['0', '1', '2', '3', '4']);
    assert.deepEqual(base.entries.map((e) => `${e.statement?.function} ${e.statement?.line}`), ['collector 13', 'collector 19', 'collector 19', 'collector 19', 'collector 19']);
    // Each value at the op the status bar shows when it is set: ops are 0..N-1 (the trace's S lines), never N.
    for (const e of base.entries) {
      const m = /^(?:start|op (\d+))$/.exec(e.at);
      assert.ok(m, e.at);
      if (m[1] !== undefined) assert.ok(Number(m[1]) < ops && Number(m[1]) === e.op - 1, `${e.at} with ${ops} ops`);
      else assert.equal(e.op, 0);
    }
    assert.deepEqual(historyAnswer(rec, reorder.trace, 'base', undefined, 'place').entries, historyAnswer(rec, reorder.trace, 'place.base').entries);
    assert.deepEqual(historyAnswer(rec, reorder.trace, 'place.base').entries.map((e) => e.value), ['0', '0', '2', '3', '4']);
    assert.throws(() => historyAnswer(rec, reorder.trace, 'producer.base'), /`producer` stores no `base`; the variables of that name: collector\.base/);
    // A name only one function binds needs no function.
    assert.equal(historyAnswer(rec, reorder.trace, 'k').key, 'producer.k');
  });

  it('a data breakpoint on one function\'s variable changes only with that function\'s stores', async () => {
    const rec = await opened(reorder);
    const t = rec.timeline.threadIndex('0.2');
    assert.deepEqual(dataChanges(rec.histories!, rec.statements!, t, 'collector.base').atStatements.values, ['0', '1', '2', '3', '4']);
    const place = dataChanges(rec.histories!, rec.statements!, t, 'place.base').atStatements;
    assert.deepEqual(place.values, ['0', '2', '3', '4'], 'place.base: 0, 0, 2, 3, 4 changes four times');
    const collector = dataChanges(rec.histories!, rec.statements!, t, 'collector.base').atStatements;
    // Met at place's own entries, never at the collector's stores.
    assert.ok([...place.seqs].every((q) => ![...collector.seqs].includes(q)));
    for (const q of place.seqs) assert.equal(rec.statements!.location(t, rec.statements!.eventAt(q).event).function, 'place');
  });

  it('record level (no statements): the names stay as machin printed them', async () => {
    const rec = await openRecording(reorder.trace, { machinPath: machinPath(), programRoots: [reorder.dir], timeLimitMs: 60_000, sourceLevel: false });
    assert.equal(rec.statements ?? null, null);
    assert.ok(rec.histories!.entries('base').length >= 5);
    // The CLI's history of the bare name still answers, every store of the name, with the words of the status bar.
    const h = historyAnswer(rec, reorder.trace, 'base');
    assert.equal(h.entries.length, rec.histories!.entries('base').length);
    assert.ok(h.entries.every((e) => e.at === (e.op === 0 ? 'start' : `op ${e.op - 1}`)));
  });
});
