// `frozen-run hits` and `frozen-run origin` (issue 30) with the real machin, on programs recorded
// here: a line's hits with an expression's values equal to an independent per-line probe
// (test/support/truth-probes.ts), the per-line counts with the never-reached line, the origin of a
// clock value read in another goroutine down to its I/O record, and one clear error for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { buildCli, CLI } from './build-cli';
import { machinPath, recordProgram, type Recorded } from '../support/machin';
import { tempDir } from '../machin/support';
import { CLOCK_READER, WORKERS, WORKERS_LOOP_LINE, WORKERS_NEVER_LINE } from '../support/question-programs';
import { truthReplay } from '../support/truth-probes';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--machin', machinPath()], { encoding: 'utf8', env: { ...process.env, MACHIN: '' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('frozen-run hits / origin', () => {
  let workers: Recorded;
  let clock: Recorded;
  before(async () => {
    await buildCli();
    workers = recordProgram(tempDir('cli-questions-'), 'workers', WORKERS);
    clock = recordProgram(tempDir('cli-questions-'), 'clock', CLOCK_READER);
  });

  it('hits FILE:LINE --expr --json: every hit with the value the independent probe has there', () => {
    const r = run(['hits', workers.trace, `workers.mfl:${WORKERS_LOOP_LINE}`, '--expr', 'acc * 10 + i', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { hits: Array<{ goroutine: string; text: string; thisReplayOnly: boolean }> };
    const truth = truthReplay(workers.trace, workers.program, ['i', 'acc']).byGoroutine;
    for (const [g, list] of truth) {
      const want = list.filter((t) => t.line === WORKERS_LOOP_LINE).map((t) => String(Number(t.values.acc) * 10 + Number(t.values.i)));
      assert.deepEqual(doc.hits.filter((h) => h.goroutine === g).map((h) => h.text), want, g);
    }
  });

  it('hits FILE: how often each line ran, and the line not reached', () => {
    const r = run(['hits', workers.trace, 'workers.mfl']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`line +${WORKERS_LOOP_LINE} +10 +0\\.1:3 0\\.2:4 0\\.3:3`));
    assert.match(r.stdout, new RegExp(`not reached in this run: ${WORKERS_NEVER_LINE}\\n`));
  });

  it('origin VAR: from main through the channel to the reader goroutine and its I/O record', () => {
    const r = run(['origin', clock.trace, 'w', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const chain = JSON.parse(r.stdout) as { value: string; steps: Array<{ via: string; goroutine: string }>; end: { kind: string; recordLine: number } };
    assert.deepEqual(chain.steps.map((x) => `${x.via} ${x.goroutine}`), ['copy 0', 'receive 0', 'send 0.1', 'store 0.1']);
    assert.equal(chain.end.kind, 'io');
    const line = readFileSync(clock.trace, 'utf8').split('\n')[chain.end.recordLine - 1];
    assert.equal(Buffer.from(line.split(' ')[2], 'hex').toString(), chain.value);
    const text = run(['origin', clock.trace, 'w']);
    assert.match(text.stdout, /4\. store +goroutine 0\.1 reader line 2:5 before op 0\/\d+ +t := now_ms\(\)/);
    assert.match(text.stdout, /end: read from outside by now_ms\(\) on line 2/);
  });

  it('bad input: one line, the exit status says which kind', () => {
    const nope = run(['origin', clock.trace, 'nope']);
    assert.equal(nope.code, 1);
    assert.match(nope.stderr, /^frozen-run: .*nope has no value in goroutine 0/);
    assert.equal(nope.stderr.trim().split('\n').length, 1);
    const expr = run(['hits', workers.trace, 'workers.mfl:5', '--expr', 'i +']);
    assert.equal(expr.code, 1);
    assert.match(expr.stderr, /line 5: the expression ends too early/);
    const past = run(['hits', workers.trace, 'workers.mfl:99']);
    assert.equal(past.code, 2);
    assert.match(past.stderr, /line 99 is not in .*workers\.mfl \(it has 27 lines\)/);
    const text = run(['hits', workers.trace, `workers.mfl:${WORKERS_LOOP_LINE}`, '--expr', 'i']);
    assert.match(text.stdout, /\[goroutine 0\.1 work line 5:9 before op \d+\/\d+\] 0\n/);
    const other = run(['hits', workers.trace, 'other.mfl:5']);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /other\.mfl is not the recording's program/);
  });
});
