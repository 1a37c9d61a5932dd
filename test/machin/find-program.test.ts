// Finding the program a trace names: explicit, the named path, beside the trace, in the roots
// (bounded, skipping dependency folders); outside the roots it is not trusted.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { findProgram, readTracedProgram } from '../../replay-engine/machin/find-program';
import { tempDir } from './support';

function layout(files: string[]): string {
  const root = tempDir('find-program-test-');
  for (const f of files) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), 'func main(){}\n');
  }
  return root;
}

describe('finding the program of a trace', () => {
  it('the explicit program wins; a missing explicit program says so', async () => {
    const ws = layout(['traces/run.mflrr', 'traces/crash.mfl', 'other/mine.mfl']);
    const trace = path.join(ws, 'traces/run.mflrr');
    const got = await findProgram(trace, '/home/ci/app/crash.mfl', { program: path.join(ws, 'other/mine.mfl'), programRoots: [path.join(ws, 'traces')] });
    assert.deepEqual(got, { path: path.join(ws, 'other/mine.mfl'), how: 'explicit', trusted: true });
    const missing = await findProgram(trace, '/home/ci/app/crash.mfl', { program: path.join(ws, 'nope.mfl') });
    assert.equal(missing.path, null);
    assert.match((missing as { message: string }).message, /nope\.mfl .*not found/);
  });

  it('the path the trace names, when it exists here (untrusted outside the roots)', async () => {
    const ws = layout(['a/run.mflrr', 'elsewhere/crash.mfl']);
    const named = path.join(ws, 'elsewhere/crash.mfl');
    assert.deepEqual(await findProgram(path.join(ws, 'a/run.mflrr'), named, { programRoots: [path.join(ws, 'a')] }), { path: named, how: 'trace', trusted: false });
    assert.deepEqual(await findProgram(path.join(ws, 'a/run.mflrr'), named, { programRoots: [ws] }), { path: named, how: 'trace', trusted: true });
    assert.deepEqual(await findProgram(path.join(ws, 'a/run.mflrr'), named, {}), { path: named, how: 'trace', trusted: false }, 'no roots: outside the trace\'s folder');
  });

  it('the same file name beside the trace', async () => {
    const ws = layout(['t/run.mflrr', 't/crash.mfl']);
    assert.deepEqual(await findProgram(path.join(ws, 't/run.mflrr'), '/home/ci/app/crash.mfl', { programRoots: [ws] }), { path: path.join(ws, 't/crash.mfl'), how: 'beside-trace', trusted: true });
    assert.equal((await findProgram(path.join(ws, 't/run.mflrr'), 'C:\\ci\\app\\crash.mfl', { programRoots: [ws] })).path, path.join(ws, 't/crash.mfl'), 'a Windows path from the recording machine');
    const outside = await findProgram(path.join(ws, 't/run.mflrr'), '/home/ci/app/crash.mfl', { programRoots: [path.join(ws, 'elsewhere')] });
    assert.equal((outside as { trusted: boolean }).trusted, false);
  });

  it('in the roots: nested, skipping node_modules and .git, preferring the copy whose folders match the recorded path', async () => {
    const ws = layout(['downloads/run.mflrr', 'proj/node_modules/x/crash.mfl', 'proj/.git/crash.mfl', 'proj/src/app/crash.mfl', 'proj/tools/old/crash.mfl']);
    const got = await findProgram(path.join(ws, 'downloads/run.mflrr'), '/home/ci/src/app/crash.mfl', { programRoots: [path.join(ws, 'proj')] });
    assert.equal(got.path, path.join(ws, 'proj/src/app/crash.mfl'));
    assert.equal((got as { how: string }).how, 'roots');
    assert.match((got as { note?: string }).note ?? '', /2 files named crash\.mfl/);
    const only = layout(['d/run.mflrr', 'p/node_modules/crash.mfl']);
    assert.equal((await findProgram(path.join(only, 'd/run.mflrr'), '/ci/crash.mfl', { programRoots: [path.join(only, 'p')] })).path, null);
  });

  it('not found, or no program line: one sentence saying what to do', async () => {
    const ws = layout(['run.mflrr']);
    const got = await findProgram(path.join(ws, 'run.mflrr'), '/home/ci/app/crash.mfl', { programRoots: [ws] });
    assert.equal(got.path, null);
    assert.match((got as { message: string }).message, /^program \/home\/ci\/app\/crash\.mfl not found .*; open it in the workspace or set program$/);
    const none = await findProgram(path.join(ws, 'run.mflrr'), null, {});
    assert.match((none as { message: string }).message, /no `program` line.*set program/);
  });

  it('reads the program line of the header only', async () => {
    const ws = layout([]);
    const f = path.join(ws, 't.mflrr');
    writeFileSync(f, 'MFLRR 1\r\nboundary faithful\r\nprogram  /a b/c.mfl  \r\nsafe 0\r\nS 0\r\n');
    assert.equal(await readTracedProgram(f), '/a b/c.mfl');
    writeFileSync(f, 'MFLRR 1\nS 0\nprogram /late.mfl\n');
    assert.equal(await readTracedProgram(f), null);
  });
});

describe('without roots (CLI, standalone adapter): only the trace\'s folder is inside', () => {
  it('../outside/evil.mfl and /etc/passwd are found but not trusted; the folder and its subfolders are', async () => {
    const ws = layout(['traces/run.mflrr', 'outside/evil.mfl', 'traces/src/app.mfl', 'traces/crash.mfl']);
    const trace = path.join(ws, 'traces/run.mflrr');
    assert.deepEqual(await findProgram(trace, '../outside/evil.mfl', {}), { path: path.join(ws, 'outside/evil.mfl'), how: 'trace', trusted: false });
    assert.deepEqual(await findProgram(trace, '/etc/passwd', {}), { path: '/etc/passwd', how: 'trace', trusted: false });
    assert.deepEqual(await findProgram(trace, 'src/app.mfl', {}), { path: path.join(ws, 'traces/src/app.mfl'), how: 'trace', trusted: true });
    assert.deepEqual(await findProgram(trace, '/home/ci/crash.mfl', {}), { path: path.join(ws, 'traces/crash.mfl'), how: 'beside-trace', trusted: true });
    assert.deepEqual(await findProgram(trace, '/home/ci/crash.mfl', { programRoots: [] }), { path: path.join(ws, 'traces/crash.mfl'), how: 'beside-trace', trusted: true }, 'no folder open: the same rule');
    assert.deepEqual(await findProgram(trace, '../outside/evil.mfl', { program: path.join(ws, 'outside/evil.mfl') }), { path: path.join(ws, 'outside/evil.mfl'), how: 'explicit', trusted: true }, 'named explicitly');
  });

  it('a link beside the trace to a program elsewhere is outside', async () => {
    const { symlinkSync } = await import('node:fs');
    const ws = layout(['t/run.mflrr', 'elsewhere/crash.mfl']);
    symlinkSync(path.join(ws, 'elsewhere/crash.mfl'), path.join(ws, 't/crash.mfl'));
    const got = await findProgram(path.join(ws, 't/run.mflrr'), '/ci/crash.mfl', {});
    assert.deepEqual(got, { path: path.join(ws, 't/crash.mfl'), how: 'beside-trace', trusted: false });
  });
});

describe('trust follows symlinks', () => {
  it('a link inside the workspace to a program outside it is outside', async () => {
    const { symlinkSync } = await import('node:fs');
    const ws = layout(['ws/t/run.mflrr', 'outside/crash.mfl']);
    symlinkSync(path.join(ws, 'outside/crash.mfl'), path.join(ws, 'ws/t/crash.mfl'));
    const got = await findProgram(path.join(ws, 'ws/t/run.mflrr'), '/ci/crash.mfl', { programRoots: [path.join(ws, 'ws')] });
    assert.equal(got.path, path.join(ws, 'ws/t/crash.mfl'));
    assert.equal((got as { trusted: boolean }).trusted, false);
  });
});
