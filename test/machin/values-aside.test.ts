// A goroutine the values' replay names and the statements' replay did not (one that raced the end
// of the run in one replay and not in the other): its values are kept aside while machin prints,
// placed once it is a thread, by its own ops, and marked "this replay only"; the other goroutines'
// values are what a launch without it gives. machin 0.137.0 cannot be made to race on demand, so a
// wrapper around the real machin prints that goroutine's probe lines before the values' replay
// (the one asked to print the program's variables) starts. (Which other goroutines' last
// statements are this replay's only varies from one replay to the next: not compared.)
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import type { Recording } from '../../replay-engine/model/recording';
import { machinPath, recordProgram } from '../support/machin';
import { WORKERS } from '../support/question-programs';
import { tempDir } from './support';

/** Every value of `name`, as goroutine, value and whether it is this replay's only. */
function valuesOf(rec: Recording, name: string): string[] {
  return rec.histories!.entries(name).map((e) => `${rec.timeline.threads[e.thread].id} ${e.value}${e.thisReplayOnly ? ' (this replay only)' : ''}`);
}

describe('values of a goroutine only the values\' replay named', () => {
  let plain: Recording;
  let raced: Recording;
  before(async () => {
    const dir = tempDir('values-aside-');
    const { trace } = recordProgram(dir, 'workers', WORKERS);
    const wrapper = path.join(dir, 'machin-racing');
    // (the statements-only replay prints fr_ names only; the values' replay names `acc` too)
    writeFileSync(wrapper, `#!/bin/sh\ncase "$*" in *--print*acc*) printf 'probe 0.9 fr_stmt0 = 1 @op0\\nprobe 0.9 acc = 41 @op0\\n' >&2;; esac\nexec '${machinPath()}' "$@"\n`, { mode: 0o755 });
    plain = await readMflrr(trace);
    await enrichWithMachin(plain, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
    raced = await readMflrr(trace);
    await enrichWithMachin(raced, { machinPath: wrapper, programRoots: [dir], timeLimitMs: 60_000 });
  });

  it('is a thread, its value kept and marked this replay only; the others\' values are unchanged', () => {
    assert.equal(raced.sourceLevel?.state, 'ready', JSON.stringify(raced.warnings));
    assert.ok(raced.timeline.threadIndex('0.9') >= 0, 'goroutine 0.9 is a thread');
    const got = valuesOf(raced, 'acc');
    assert.deepEqual(got.filter((v) => v.startsWith('0.9 ')), ['0.9 41 (this replay only)']);
    assert.deepEqual(got.filter((v) => !v.startsWith('0.9 ')), valuesOf(plain, 'acc'));
    assert.ok(valuesOf(plain, 'acc').length >= 10);
    for (const name of ['i', 'total', 'k']) assert.deepEqual(valuesOf(raced, name), valuesOf(plain, name), name);
  });

  it('changes nothing of the statements; says it has no records and its value is this replay\'s only, and falls back nowhere', () => {
    const s = raced.statements!;
    const p = plain.statements!;
    assert.equal(s.eventCount, p.eventCount);
    for (const g of ['0', '0.1', '0.2', '0.3']) assert.equal(s.eventsOf(raced.timeline.threadIndex(g)), p.eventsOf(plain.timeline.threadIndex(g)), g);
    const naming = raced.warnings.filter((w) => /goroutine 0\.9\b/.test(w.message));
    assert.deepEqual(naming.map((w) => w.code).sort(), ['goroutine-without-records', 'values-this-replay-only'], JSON.stringify(raced.warnings));
    assert.match(naming.find((w) => w.code === 'values-this-replay-only')!.message, /goroutine 0\.9: acc \(1\)/);
    const fellBack = raced.warnings.filter((w) => w.code === 'values-unplaced' || w.code === 'source-level-unavailable' || w.code === 'toolchain-failed');
    assert.deepEqual(fellBack, []);
  });
});
