// Every machin fixture trace read trace-only: the facts must equal an independent count of the
// file's text, and N must equal the schedule total machin's own `--verify` line reports.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { RecordingError } from '../../replay-engine/model/errors';
import { countTrace } from './trace-text';
import { MACHIN_FIXTURES } from '../support/paths';

const ROOT = MACHIN_FIXTURES;

const traces = readdirSync(ROOT).flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.mflrr'))
    .map((f) => join(ROOT, dir, f)),
);

/** N from machin's recorded outputs: `replay-verify: schedule P/N` or `(replay: ..., schedule op P/N)`. */
function machinScheduleTotal(trace: string): number | undefined {
  const dir = join(trace, '..');
  const outputs = JSON.parse(readFileSync(join(dir, 'outputs.json'), 'utf8')) as Record<string, unknown>;
  const name = trace.slice(dir.length + 1);
  const all = JSON.stringify(name in outputs ? outputs[name] : outputs.replays);
  const m = /replay-verify: schedule \d+\/(\d+)/.exec(all) ?? /\(replay: goroutine [^,]+, schedule op \d+\/(\d+)\)/.exec(all);
  return m ? Number(m[1]) : undefined;
}

describe('machin fixture traces, trace-only', () => {
  it('finds the fixtures', () => assert.ok(traces.length >= 10, `only ${traces.length} traces`));

  for (const file of traces) {
    it(file.slice(ROOT.length + 1), async () => {
      if (statSync(file).size === 0) {
        await assert.rejects(readMflrr(file), (e: unknown) => e instanceof RecordingError && e.code === 'empty' && e.message.includes(file) && /deadlock/.test(e.message));
        return;
      }
      const want = countTrace(file);
      const rec = await readMflrr(file);
      const tl = rec.timeline;
      assert.equal(String(rec.header.version), want.version);
      assert.equal(rec.header.boundary, want.boundary);
      assert.equal(rec.header.program, want.program);
      assert.equal(rec.header.safe, want.safe);
      assert.equal(tl.stepCount, want.scheduleTotal);
      assert.equal(rec.ioTotal, want.ioTotal);
      const { steps, io } = rec.threadCounts();
      const got = new Map(tl.threads.map((t, i) => [t.id, { ops: steps[i], io: io[i] }]));
      assert.deepEqual(got, want.perGoroutine);
      assert.deepEqual(Array.from(tl.stepThreads(), (t) => tl.threads[t].id), want.schedule);
      assert.deepEqual(Array.from({ length: tl.recordCount }, (_, r) => tl.lineOf(r)), want.recordLines);
      for (const [i, line] of want.recordLines.entries()) assert.equal(tl.recordAtLine(line), i);
      const n = machinScheduleTotal(file);
      if (n !== undefined) assert.equal(tl.stepCount, n, 'schedule total differs from machin replay');
      assert.equal(rec.bestEffort, want.boundary === 'best-effort');
      const facts = Object.fromEntries(tl.facts.map((f) => [f.key, f.value]));
      assert.equal(facts.scheduleTotal, String(want.scheduleTotal));
      assert.equal(facts.ioTotal, String(want.ioTotal));
    });
  }

  it('has machin\'s schedule total for most fixtures (the oracle is not vacuous)', () => {
    const known = traces.filter((f) => machinScheduleTotal(f) !== undefined);
    assert.ok(known.length >= 6, `only ${known.length}`);
  });
});
