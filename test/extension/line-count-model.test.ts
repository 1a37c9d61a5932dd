// What the editor shows beside each program line when hit counts are on (issue 30, point 2), from
// the counts of a run recorded here with the real machin: the count after each line that ran,
// the hover per goroutine, the never-reached line dimmed; counts checked against an independent
// per-line probe (test/support/truth-probes.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { lineCounts } from '../../replay-engine/model/line-counts';
import { lineCountModel } from '../../extension/view-models/line-count-model';
import { machinPath, recordProgram } from '../support/machin';
import { tempDir } from '../machin/support';
import { WORKERS, WORKERS_LOOP_LINE, WORKERS_NEVER_LINE } from '../support/question-programs';
import { truthReplay } from '../support/truth-probes';

describe('line hit counts in the editor', () => {
  it('a count after every line that ran, a hover per goroutine, the line never reached dimmed', async () => {
    const dir = tempDir('line-count-model-');
    const { trace, program } = recordProgram(dir, 'workers', WORKERS);
    const rec = await readMflrr(trace);
    await enrichWithMachin(rec, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 60_000 });
    const model = lineCountModel(lineCounts(rec.statements!, rec.timeline));
    const truth = truthReplay(trace, program, []).byGoroutine;
    const perLine = new Map<number, number>();
    for (const list of truth.values()) for (const t of list) perLine.set(t.line, (perLine.get(t.line) ?? 0) + 1);
    assert.deepEqual(model.marks.map((m) => [m.line + 1, m.text]), [...perLine].sort((a, b) => a[0] - b[0]).map(([l, n]) => [l, ` × ${n}`]));
    const loop = model.marks.find((m) => m.line === WORKERS_LOOP_LINE - 1)!;
    for (const g of ['0.1', '0.2', '0.3']) {
      const n = truth.get(g)!.filter((t) => t.line === WORKERS_LOOP_LINE).length;
      assert.ok(loop.hover.includes(`- goroutine ${g}: ${n}`), loop.hover);
    }
    assert.deepEqual(model.notReached, [WORKERS_NEVER_LINE - 1]);
  });
});
