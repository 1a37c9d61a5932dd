// Messages that say exactly what (issue 29, point 9), with the real machin 0.137.0: the
// values-this-replay-only warning names the variables whose values it keeps marked, and their
// goroutines; an I/O record
// after a `select`'s op, at source level, is that select's case (no question mark, with where the
// select is), and one after an op that is no select is not read as a case.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { openRecording } from '../../replay-engine/open';
import { decodeIo } from '../../replay-engine/mflrr/decode-io';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { mergeReplay } from '../../replay-engine/machin/merge-replay';
import { parseReplayOutput } from '../../replay-engine/machin/machin-output';
import { machinPath, recordProgram, runMachin, type Recorded } from '../support/machin';
import { BALANCER, REORDER } from '../support/programs';
import { tempDir } from './support';

const open = (r: Recorded, sourceLevel = true) => openRecording(r.trace, { machinPath: machinPath(), programRoots: [r.dir], timeLimitMs: 60_000, sourceLevel });

describe('messages that name what they are about', () => {
  let reorder: Recorded;
  let balancer: Recorded;
  before(() => {
    reorder = recordProgram(tempDir('messages-'), 'reorder', REORDER);
    balancer = recordProgram(tempDir('messages-'), 'balancer', BALANCER);
  });

  it('values-not-known-sure (no statements) names the variable and its goroutine, and the value is kept, marked', async () => {
    // The producer's last `k = k + 1` (after its last send) races with the collector's panic:
    // machin prints it in some replays only, and every @op races too (machin may count the
    // collector's next op before it prints). Here a replay that printed it, in machin's words:
    // the real replay's stderr with its `k` lines as a replay prints them when nothing races
    // (k = v right after the producer's v-th op, whatever schedule this recording has), and
    // k = 5 after the last op.
    const rec = await readMflrr(reorder.trace);
    rec.timeline.threads.forEach((t, i) => (t.label = ['producer', 'collector'][i] ?? t.label));
    const real = runMachin(['replay', reorder.trace, '--print', 'k'], { cwd: reorder.dir, timeoutMs: 60_000 });
    const schedule = readFileSync(reorder.trace, 'utf8').split('\n').filter((l) => l.startsWith('S '));
    const producerOps = schedule.flatMap((l, op) => (l === 'S 0.1' ? [op] : []));
    assert.equal(producerOps.length, 5, 'the producer sends 5 times');
    const k = [0, 1, 2, 3, 4].map((v) => `probe 0.1 k = ${v} @op${v === 0 ? 0 : producerOps[v - 1] + 1}\n`).join('') + `probe 0.1 k = 5 @op${schedule.length}\n`;
    const stderr = real.stderr.replace(/probe 0\.1 k = \d+ @op\d+\n/g, '') + k;
    const warnings: string[] = [];
    mergeReplay(rec, [{ flags: ['--print', 'k'], exitCode: real.exit ?? 1, stdout: real.stdout, stderr, output: parseReplayOutput(stderr) }], {
      copy: { scheduleTotal: rec.timeline.stepCount },
      warn: (code, message) => warnings.push(`${code}: ${message}`),
    });
    // Merged without the statements (as with source level off): whether it races cannot be told.
    const w = warnings.find((x) => x.startsWith('values-not-known-sure'));
    assert.equal(
      w,
      'values-not-known-sure: values not known to be printed by every replay (goroutine 0.1 producer: k (1)): the program\'s statements are not known (source level is off), and without them only the schedule ops order a value before the run\'s end: the run ends when goroutine 0.2 collector ends, so the ops up to its last (op 10/10) complete in every replay; no such op orders these values before the end, and whether they happen before it cannot be told without the statements, so they are shown as this replay printed them, marked "this replay only" (docs/value-positions.md)',
    );
    assert.ok(!warnings.some((x) => x.startsWith('values-this-replay-only')));
    assert.deepEqual(rec.histories!.entries('k').map((e) => [e.value, !!e.thisReplayOnly]), [['0', false], ['1', false], ['2', false], ['3', false], ['4', false], ['5', true]]);
  });

  it('the case a select took, where the statement is known: no guess', async () => {
    const rec = await open(balancer);
    const tl = rec.timeline;
    const io = Array.from({ length: tl.recordCount }, (_, r) => r).filter((r) => tl.stepOf(r) < 0).map((r) => rec.describe(r).summary);
    assert.deepEqual(io, [...Array(4).fill('I 0.2 → 0 (select case 0, balancer.mfl:9:9)'), ...Array(3).fill('I 0.2 → 1 (select case 1, balancer.mfl:9:9)')]);
    const r = Array.from({ length: tl.recordCount }, (_, k) => k).find((k) => tl.stepOf(k) < 0)!;
    assert.equal(rec.describe(r).value.children?.find((c) => c.name === 'select case')?.value.text, 'the `select` at balancer.mfl:9:9 took case 0 (0-based)');
    // Without the statements it stays a guess, marked as one.
    const plain = await open(balancer, false);
    assert.equal(plain.describe(r).summary, 'I 0.2 → 0 (select case 0?)');
  });

  it('after an op known to be no select, a small number is not read as a case', () => {
    const v = decodeIo(new TextEncoder().encode('3'), { followsOwnStep: true, select: false });
    assert.equal(v.text, '3');
    assert.ok(!v.children?.some((c) => c.name === 'select case'));
  });
});
