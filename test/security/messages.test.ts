// Messages for hostile shapes that used to surface as the engine's own words: a condition or a
// program nested thousands deep ("Maximum call stack size exceeded"), a program that is a FIFO
// ("not found"), and a trace whose `program` line names a file outside its folder (parsed for
// goroutine labels without asking). Each says what it is, where, and the limit; an outside program
// is read only where it may also be run.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_EXPRESSION_DEPTH } from '../../debug-adapter/expression';
import { MAX_PROGRAM_NESTING } from '../../replay-engine/machin/source/statement-model';
import { openRecording } from '../../replay-engine/open';
import { assertSecurityRow } from '../support/security-row';
import { ensureBuilt } from '../support/built';
import { MACHIN, recordProgram } from '../support/machin';
import { MACHIN_FIXTURES, REPO_ROOT } from '../support/paths';
import { launchAndStop, startAdapter, traceRecords, type Session } from '../dap/support';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const TRACE = path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr');

function inspectJson(args: string[], cwd: string): { warnings: Array<{ code: string; message: string }>; threads: Array<{ id: string; label?: string | null }> } {
  const r = spawnSync(process.execPath, [CLI, 'inspect', ...args, '--json'], { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('a condition nested deeper than the limit', () => {
  let s: Session;
  before(async () => {
    ensureBuilt();
    s = await startAdapter();
    await launchAndStop(s, { recording: TRACE, stopOnEntry: true, noToolchain: true });
  });
  after(() => s.dc.stop());

  const deep = [
    ['parentheses', `${'('.repeat(20_000)}op${')'.repeat(20_000)} > 3`],
    ['`!`', `${'!'.repeat(50_000)}op`],
    ['a chain of operators', Array.from({ length: 30_000 }, () => 'op').join(' + ')],
  ];

  test(`a breakpoint condition: unverified, with what is too deep and the limit (${MAX_EXPRESSION_DEPTH})`, async () => {
    const line = traceRecords(TRACE)[2].line;
    for (const [what, condition] of deep) {
      const res = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line, condition }] });
      const b = res.body.breakpoints[0];
      assert.equal(b.verified, false, what);
      assert.doesNotMatch(b.message ?? '', /call stack/i, what);
      assert.match(b.message ?? '', new RegExp(`nests too deeply at column \\d+: at most ${MAX_EXPRESSION_DEPTH} levels`), `${what}: ${b.message}`);
      if (what === 'parentheses') assertSecurityRow('adapter: a breakpoint condition in 20,000 parentheses', 'unverified', b.message ?? '');
    }
    // Just within the limit is a condition like any other.
    const ok = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line, condition: `${'('.repeat(150)}op${')'.repeat(150)} >= 0` }] });
    assert.equal(ok.body.breakpoints[0].verified, true, ok.body.breakpoints[0].message);
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
  });

  test('the Debug Console and a log point say the same', async () => {
    await assert.rejects(s.dc.evaluateRequest({ expression: deep[0][1], context: 'repl' }), /nests too deeply .* at most 200 levels/);
    const line = traceRecords(TRACE)[2].line;
    const res = await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line, logMessage: `v={${deep[1][1]}}` }] });
    assert.doesNotMatch(res.body.breakpoints[0].message ?? '', /call stack/i);
    assert.match(res.body.breakpoints[0].message ?? '', /nests too deeply/);
    await s.dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
  });
});

describe('programs: nested too deeply, a FIFO, outside the trace folder', () => {
  let dir = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-messages-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test(`a program nested ${MAX_PROGRAM_NESTING + 50} deep (machin records and replays it): source level is unavailable, saying what is too deep and the limit`, async () => {
    const n = MAX_PROGRAM_NESTING + 50;
    const src = `func main() {\n    x := 1\n${'if x == 1 {\n'.repeat(n)}println("deep")\n${'}\n'.repeat(n)}}\n`;
    const { trace } = recordProgram(path.join(dir, 'deep'), 'deep', src);
    const rec = await openRecording(trace, { machinPath: MACHIN, timeLimitMs: 60_000 });
    const w = rec.warnings.find((x) => x.code === 'source-level-unavailable');
    assert.ok(w, JSON.stringify(rec.warnings));
    assert.doesNotMatch(w.message, /call stack/i);
    assert.match(w.message, new RegExp(`deep\\.mfl:\\d+:\\d+: the program nests too deeply here: more than ${MAX_PROGRAM_NESTING} levels of blocks and expressions`));
    assertSecurityRow(`a program nested ${n} deep, at source level`, '0', w.message, path.join(dir, 'deep'));
    assert.equal(rec.warnings.some((x) => /toolchain/.test(x.code)), false, 'the plain replay still ran');
  });

  test('a program that is a FIFO is named as a named pipe, not "not found" (named with --program, or beside the trace)', () => {
    const sub = mkdtempSync(path.join(dir, 'fifo-'));
    copyFileSync(path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'), path.join(sub, 'crash.mflrr'));
    execFileSync('mkfifo', [path.join(sub, 'crash.mfl')]);
    for (const args of [['--program', 'crash.mfl'], []]) {
      const j = inspectJson(['crash.mflrr', '--machin', MACHIN, ...args], sub);
      const w = j.warnings.find((x) => x.code === 'program-missing');
      assert.ok(w, JSON.stringify(j.warnings));
      assert.doesNotMatch(w.message, /not found/);
      assert.match(w.message, new RegExp(`program ${sub.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/crash\\.mfl .*is a named pipe \\(FIFO\\), or a link to one, not a regular file`));
    }
  });

  test("a program outside the trace's folder is not read for labels unless it may be run (named, or inside the roots)", async () => {
    mkdirSync(path.join(dir, 'outside'));
    mkdirSync(path.join(dir, 'mail'));
    copyFileSync(path.join(MACHIN_FIXTURES, 'crash/crash.mfl'), path.join(dir, 'outside/crash.mfl'));
    const text = readFileSync(path.join(MACHIN_FIXTURES, 'crash/crash.mflrr'), 'latin1').replace(/^program .*$/m, 'program ../outside/crash.mfl');
    writeFileSync(path.join(dir, 'mail/crash.mflrr'), text, 'latin1');
    const labels = (j: { threads: Array<{ id: string; label?: string | null }> }) => Object.fromEntries(j.threads.map((t) => [t.id, t.label || null]));
    const unread = inspectJson(['mail/crash.mflrr', '--no-toolchain'], dir);
    assert.deepEqual(labels(unread), { '0': null, '0.1': null, '0.2': null }, 'an outside program was parsed without asking');
    assert.match(unread.warnings.find((w) => w.code === 'program-not-read')?.message ?? JSON.stringify(unread.warnings), /outside\/crash\.mfl is outside the trace's folder, so it was not read: goroutines stay unlabelled/);
    // Named by the user: it may be run, so it is read.
    assert.deepEqual(labels(inspectJson(['mail/crash.mflrr', '--no-toolchain', '--program', 'outside/crash.mfl'], dir)), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    // Inside the program roots (the workspace): read.
    const rec = await openRecording(path.join(dir, 'mail/crash.mflrr'), { noToolchain: true, programRoots: [dir] });
    assert.deepEqual(Object.fromEntries(rec.timeline.threads.map((t) => [t.id, t.label])), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    // With the toolchain and no confirmation: neither run nor read.
    const refused = inspectJson(['mail/crash.mflrr', '--machin', MACHIN], dir);
    assert.deepEqual(labels(refused), { '0': null, '0.1': null, '0.2': null });
    assert.match(refused.warnings.find((w) => w.code === 'program-not-confirmed')?.message ?? '', /so machin was not run and the program was not read/);
  });
});
