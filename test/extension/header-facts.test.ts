// The timeline header's facts with the real machin 0.137.0 (issue 29, points 5 and 10): a replay
// that panics has no `--verify` verdict (machin exits first), so the header says what is known
// and whose word it is; a trace mailed from CI names the CI path of its program, and the header
// shows the `.mfl` actually used (beside the trace), the recorded path after it.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { openRecording } from '../../replay-engine/open';
import type { Recording } from '../../replay-engine/model/recording';
import { verdictOf } from '../../extension/faithfulness';
import { traceInspectText } from '../../replay-engine/mflrr/inspect-document';
import type { MflrrRecording } from '../../replay-engine/mflrr/recording';
import { timelineModel } from '../../extension/view-models/timeline-model';
import { machinPath, recordProgram, type Recorded } from '../support/machin';
import { REORDER } from '../support/programs';
import { REPO_ROOT } from '../support/paths';
import { tempDir } from '../machin/support';

const open = (trace: string, dir: string): Promise<Recording> => openRecording(trace, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
const fact = (rec: Recording, key: string) => rec.timeline.facts.find((f) => f.key === key)?.value;

describe('header facts', () => {
  let reorder: Recorded;
  before(() => {
    reorder = recordProgram(tempDir('header-facts-'), 'reorder', REORDER);
  });

  it('a panicking replay: no verify verdict from machin, and the header says the panic came back where it was recorded', async () => {
    const rec = await open(reorder.trace, reorder.dir);
    assert.equal(rec.verify, null, 'machin prints no verdict for a run that panics');
    const v = verdictOf(rec)!;
    assert.equal(v.label, 'replay');
    assert.equal(v.verdict, 'PANIC REPRODUCED');
    assert.equal(v.tone, 'faithful');
    assert.match(v.detail, /^machin replay --verify gives no verdict for a run that panics \(it exits before printing one\); held to the recorded schedule, the replay panicked again in goroutine 0\.2 collector right after its last recorded op \(stop after 10\/10 ops\): faithful up to the panic$/);
    // A disagreement between machin and the trace is not called reproduced.
    rec.warnings.push({ code: 'replay-mismatch', message: "machin counted 9 schedule ops; the trace has 10" } as Recording['warnings'][number]);
    const differs = verdictOf(rec)!;
    assert.deepEqual([differs.verdict, differs.tone], ['PANIC, SCHEDULE DIFFERS', 'diverged']);
    assert.match(differs.detail, /machin counted 9 schedule ops/);
  });

  it('a run that ends normally keeps machin\'s own verdict', async () => {
    const dir = tempDir('header-facts-');
    for (const f of ['pipeline.mflrr', 'pipeline.mfl']) copyFileSync(path.join(REPO_ROOT, 'examples', f), path.join(dir, f));
    const rec = await open(path.join(dir, 'pipeline.mflrr'), dir);
    const v = verdictOf(rec)!;
    assert.equal(v.label, undefined);
    assert.equal(v.verdict, 'FAITHFUL');
    assert.doesNotMatch(v.detail, /past its end/);
  });

  it('a DIVERGED that is only ops machin replayed past the recording\'s end says so (machin\'s own verdict kept)', async () => {
    const dir = tempDir('header-facts-');
    for (const f of ['pipeline.mflrr', 'pipeline.mfl']) copyFileSync(path.join(REPO_ROOT, 'examples', f), path.join(dir, f));
    const rec = await open(path.join(dir, 'pipeline.mflrr'), dir);
    const total = rec.verify!.scheduleTotal;
    // What machin 0.137.0 printed for one plain replay of a 600k-op pool trace in three (the other two: FAITHFUL)
    rec.verify = { ...rec.verify!, scheduleDone: total + 2, verdict: 'DIVERGED' };
    const v = verdictOf(rec)!;
    assert.equal(v.verdict, 'DIVERGED');
    assert.match(v.detail, new RegExp(`^${total + 2}/${total} ops replayed, no I/O underrun, boundary faithful: machin replayed the whole recorded schedule in order, then 2 op\\(s\\) past its end .*: that is all its DIVERGED says here$`));
    // inspect says it under its verify line, in the same words
    assert.match(traceInspectText(rec as MflrrRecording), new RegExp(`  verify: DIVERGED \\(schedule ${total + 2}/${total}, io-underrun no, boundary faithful\\)\n    machin replayed the whole recorded schedule in order, then 2 op\\(s\\) past its end`));
    // A schedule left short says nothing of the kind.
    rec.verify = { ...rec.verify!, scheduleDone: total - 1 };
    assert.doesNotMatch(verdictOf(rec)!.detail, /past its end/);
    assert.doesNotMatch(traceInspectText(rec as MflrrRecording), /past its end/);
  });

  it('a DIVERGED short of the end only by ops after main\'s last says so; short before it, nothing', async () => {
    const dir = tempDir('header-facts-');
    for (const f of ['pipeline.mflrr', 'pipeline.mfl']) copyFileSync(path.join(REPO_ROOT, 'examples', f), path.join(dir, f));
    const rec = await open(path.join(dir, 'pipeline.mflrr'), dir);
    const total = rec.verify!.scheduleTotal;
    // main's last op, read from the trace's own S lines
    const ops = readFileSync(path.join(dir, 'pipeline.mflrr'), 'utf8').split('\n').filter((l) => l.startsWith('S '));
    assert.equal(ops.length, total);
    assert.equal(rec.verify!.mainsLastOp, ops.map((l) => l.slice(2).trim()).lastIndexOf('0') + 1);
    // What machin 0.137.0 printed for a plain replay of a 600k-op pool trace whose last op (a
    // worker's receive of the closed channel) came after main's last: 600004/600005
    rec.verify = { ...rec.verify!, scheduleDone: total - 2, verdict: 'DIVERGED', mainsLastOp: total - 3 };
    const v = verdictOf(rec)!;
    assert.match(v.detail, new RegExp(`^${total - 2}/${total} ops replayed, no I/O underrun, boundary faithful: machin replayed the recorded schedule in order through main's last op \\(op ${total - 3} of ${total}\\), and the run ended with main 2 op\\(s\\) short of the recording: .*: that is all its DIVERGED says here$`));
    assert.match(traceInspectText(rec as MflrrRecording), new RegExp(`  verify: DIVERGED \\(schedule ${total - 2}/${total}, .*\\)\n    machin replayed the recorded schedule in order through main's last op`));
    // short of main's last op: a real divergence, said as machin says it
    rec.verify = { ...rec.verify!, mainsLastOp: total - 1 };
    assert.doesNotMatch(verdictOf(rec)!.detail, /main's last op/);
    assert.doesNotMatch(traceInspectText(rec as MflrrRecording), /main's last op/);
  });

  it('a trace recorded in CI: Program is the .mfl beside it that was used, the recorded path secondary', async () => {
    const dir = tempDir('header-facts-');
    for (const f of ['crash.mflrr', 'crash.mfl']) copyFileSync(path.join(REPO_ROOT, 'examples', f), path.join(dir, f));
    const rec = await open(path.join(dir, 'crash.mflrr'), dir);
    assert.equal(fact(rec, 'program'), path.join(dir, 'crash.mfl'));
    assert.equal(fact(rec, 'recordedProgram'), '/home/ci/app/crash.mfl');
    const facts = timelineModel(rec).facts.map((f) => `${f.label}: ${f.value}`);
    assert.deepEqual(facts.slice(0, 2), [`Program: ${path.join(dir, 'crash.mfl')}`, 'recorded as: /home/ci/app/crash.mfl']);
    assert.equal(verdictOf(rec)?.verdict, 'PANIC REPRODUCED');
    // A trace whose program line already names the file used gets no second line.
    const here = await open(reorder.trace, reorder.dir);
    assert.equal(fact(here, 'program'), reorder.program);
    assert.equal(fact(here, 'recordedProgram'), undefined);
  });
});
