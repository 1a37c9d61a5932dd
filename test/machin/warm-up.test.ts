// What every source-level launch needs and the trace does not decide is made once a process
// (replay-engine/machin/warm-up.ts): the stderr buffer library is built once, in a private folder
// of the process's own, used by every launch, and gone when the process exits. With the real machin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { MACHIN, machinPath, recordProgram } from '../support/machin';
import { DIGGER } from '../support/programs';
import { REPO_ROOT } from '../support/paths';
import { tempDir } from './support';
import { prebuiltStderrBuffer, STDERR_BUFFER_C } from '../../replay-engine/machin/source/stderr-buffer';

machinPath();

async function preloads(trace: string, dir: string): Promise<string[]> {
  const rec = await readMflrr(trace);
  const started: string[] = [];
  await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 60_000, onOutput: (o) => o.startsWith('$ ') && started.push(o) });
  assert.equal(rec.sourceLevel?.state, 'ready', JSON.stringify(rec.warnings));
  return started.flatMap((l) => /^\$ LD_PRELOAD=(\S+) /.exec(l)?.[1] ?? []);
}

describe('made once a process', () => {
  it('the stderr buffer library: one build for every launch, in a private folder of this process', async () => {
    const dir = tempDir('warm-up-');
    const { trace } = recordProgram(dir, 'digger', DIGGER);
    const first = await preloads(trace, dir);
    const second = await preloads(trace, dir);
    assert.equal(first.length, 2, 'the statements and the values replays load it');
    assert.deepEqual(new Set([...first, ...second]).size, 1, 'the same library every time');
    const folder = path.dirname(first[0]);
    assert.match(path.basename(folder), new RegExp(`^frozen-run-lib-${process.pid}-`));
    assert.equal(statSync(folder).mode & 0o777, 0o700);
  });

  it('is gone when the process exits', () => {
    const dir = tempDir('warm-up-exit-');
    const { trace } = recordProgram(dir, 'digger', DIGGER);
    const script = path.join(dir, 'open.mts');
    writeFileSync(
      script,
      `import { openRecording } from ${JSON.stringify(path.join(REPO_ROOT, 'replay-engine/open.ts'))};
const rec = await openRecording(${JSON.stringify(trace)}, { machinPath: ${JSON.stringify(MACHIN)}, programRoots: [${JSON.stringify(dir)}], onOutput: (o) => { const m = /^\\$ LD_PRELOAD=(\\S+) /.exec(o); if (m) console.log(m[1]); } });
console.log(rec.sourceLevel?.state);
`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TMPDIR: os.tmpdir() } });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[lines.length - 1], 'ready', r.stdout);
    const lib = lines[0];
    assert.match(lib, /frozen-run-lib-\d+-[^/]+\/fr-stderr-buffer\.so$/);
    assert.equal(existsSync(path.dirname(lib)), false, `${path.dirname(lib)} was removed at exit`);
  });
});

describe("the library the build made (npm run build: dist/fr-stderr-buffer.so and the hash of its source)", () => {
  const hash = createHash('sha256').update(STDERR_BUFFER_C).digest('hex');
  const made = (name: string, sourceHash: string, mode = 0o755) => {
    const dir = path.join(tempDir('prebuilt-'), name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'fr-stderr-buffer.so'), 'not loaded by this check');
    chmodSync(path.join(dir, 'fr-stderr-buffer.so'), mode);
    writeFileSync(path.join(dir, 'fr-stderr-buffer.so.sha256'), `${sourceHash}\n`);
    return dir;
  };

  it('is used when it was made from this very source', async () => {
    const dir = made('ok', hash);
    assert.deepEqual(await prebuiltStderrBuffer(dir), { preload: path.join(dir, 'fr-stderr-buffer.so') });
  });

  it('is not used when made from another source, writable by others, a symlink, or missing: the launch builds its own', async () => {
    assert.equal(await prebuiltStderrBuffer(made('stale', 'f'.repeat(64))), null);
    assert.equal(await prebuiltStderrBuffer(made('writable', hash, 0o777)), null);
    const linked = made('linked', hash);
    const other = tempDir('prebuilt-target-');
    writeFileSync(path.join(other, 'lib.so'), 'x');
    const dir = path.join(tempDir('prebuilt-'), 'link');
    mkdirSync(dir);
    symlinkSync(path.join(linked, 'fr-stderr-buffer.so'), path.join(dir, 'fr-stderr-buffer.so'));
    writeFileSync(path.join(dir, 'fr-stderr-buffer.so.sha256'), hash);
    assert.equal(await prebuiltStderrBuffer(dir), null);
    assert.equal(await prebuiltStderrBuffer(tempDir('prebuilt-none-')), null);
  });

  it('npm run build made it beside the bundles, from the source the bundles carry', async () => {
    const dist = path.join(REPO_ROOT, 'dist');
    const got = await prebuiltStderrBuffer(dist);
    assert.deepEqual(got, { preload: path.join(dist, 'fr-stderr-buffer.so') }, 'a C compiler is there (machin needs one), so the build made it');
  });
});
