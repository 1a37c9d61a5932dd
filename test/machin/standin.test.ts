// machin-standin itself (the stand-in that replays outputs recorded from real machin 0.137.0):
// it must give exactly the recorded outputs, machin's own errors before a program runs, and say
// so when it has no recording.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { runProcess } from '../../replay-engine/toolchain/run-process';
import { fixtureTraces, stageFixture, STANDIN_BIN } from './support';

const STANDIN = path.join(STANDIN_BIN, 'machin');
const run = (args: string[], timeLimitMs = 20_000) => runProcess(STANDIN, args, { timeLimitMs });

/** A fixture staged with its trace's program line pointing at the program beside it. */
function pointed(name: string) {
  const fx = fixtureTraces().find((f) => f.name === name)!;
  const s = stageFixture(fx);
  writeFileSync(s.trace, readFileSync(s.trace, 'utf8').replace(/^program .*$/m, `program ${s.program}`));
  return { fx, ...s };
}

describe('machin-standin', () => {
  it('replays every recorded output exactly', async () => {
    for (const fx of fixtureTraces()) {
      if (statSync(fx.traceFile).size === 0) continue;
      const s = stageFixture(fx);
      writeFileSync(s.trace, readFileSync(s.trace, 'utf8').replace(/^program .*$/m, `program ${s.program}`));
      for (const r of fx.replays) {
        const got = await run(r.args.map((a) => (a === '{trace}' ? s.trace : a)));
        assert.deepEqual(got, { stdout: r.stdout, stderr: r.stderr, exitCode: r.exit }, `${fx.name} ${r.args.join(' ')}`);
      }
    }
  });

  it('--print of a subset keeps those probes (a value of several lines whole); names it lacks are named', async () => {
    const { trace } = pointed('reader/reader.mflrr');
    assert.equal((await run(['replay', trace, '--print', 'secret'])).stderr, 'probe 0 secret = payload-42\n @op0\n');
    assert.equal((await run(['replay', trace, '--print', 't'])).stderr, 'probe 0 t = 1796026248317 @op0\n');
    const more = await run(['replay', trace, '--print', 'tag,r']);
    assert.equal(more.stderr, 'probe 0 tag = ca53fba7 @op0\nmachin-standin: no recorded probes for r (the recording printed only secret,t,tag); real machin would print any of them that is a scalar or string assigned after its binding\n');
    assert.equal(more.exitCode, 0);
  });

  it("machin's errors before the program runs", async () => {
    const { fx, trace, dir } = pointed('crash/crash.mflrr');
    assert.deepEqual(await run(['replay']), { stdout: '', stderr: 'error: replay: need a trace file (from `machin run --record <trace> <file>`)\n', exitCode: 1 });
    assert.deepEqual(await run(['replay', path.join(dir, 'nope.mflrr')]), { stdout: '', stderr: `error: open ${path.join(dir, 'nope.mflrr')}: no such file or directory\n`, exitCode: 1 });
    // The fixture as mailed: its program path does not exist here.
    assert.deepEqual(await run(['replay', fx.traceFile, '--json']), { stdout: '', stderr: 'error: open /home/ci/app/crash.mfl: no such file or directory\n', exitCode: 1 });
    const noProgram = path.join(dir, 'no-program.mflrr');
    writeFileSync(noProgram, readFileSync(trace, 'utf8').replace(/^program .*\n/m, ''));
    assert.deepEqual(await run(['replay', noProgram]), { stdout: '', stderr: 'error: replay: trace has no `program` line \u2014 record it with `machin run --record`\n', exitCode: 1 });
    assert.deepEqual(await run(['--version']), { stdout: '', stderr: 'unknown command "--version"\n', exitCode: 2 });
    assert.equal(JSON.parse((await run(['guide', '--json'])).stdout).version, '0.137.0');
  });

  it('says when it has no recording: another trace, another program, other flags', async () => {
    const { trace, program, dir } = pointed('crash/crash.mflrr');
    const other = path.join(dir, 'other.mflrr');
    writeFileSync(other, `${readFileSync(trace, 'utf8')}S 0\n`);
    const unknown = await run(['replay', other]);
    assert.equal(unknown.exitCode, 97);
    assert.match(unknown.stderr, /^machin-standin: no recorded output for this trace/);
    writeFileSync(program, `${readFileSync(program, 'utf8')}\n// changed\n`);
    assert.match((await run(['replay', trace])).stderr, /^machin-standin: the program .* differs from the one recorded/);
    copyFileSync(fixtureTraces().find((f) => f.name === 'crash/crash.mflrr')!.programFile, program);
    const combined = await run(['replay', trace, '--json', '--verify']);
    assert.equal(combined.exitCode, 97);
    assert.match(combined.stderr, /no recorded output for `replay --json --verify`/);
  });

  it('waits forever on a cut last line, like machin (only a time limit ends it)', async () => {
    const { trace } = pointed('gopanic/gopanic.mflrr');
    writeFileSync(trace, `${readFileSync(trace, 'utf8')}S 0.`);
    await assert.rejects(run(['replay', trace, '--json'], 1000), (e: unknown) => e instanceof RecordingError && e.code === 'toolchain-timeout');
  });
});
