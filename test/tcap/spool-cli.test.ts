// `frozen-run spool DIR` as a user runs it (`node dist/cli.js`): groups largest first with counts,
// times and examples, unreadable capsules with their reason, JSON with exact walls, exit codes as
// for inspect, and never the key in any output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/paths';
import { buildBody, randomKeyHex, seal } from './support/seal';
import { BUGS, bugBody, spoolName, writeSpool } from './support/spool';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

function cli(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const base = { ...process.env, ...env };
  if (!('TIN_REPLAY_KEY' in env)) delete base.TIN_REPLAY_KEY;
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: base, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('frozen-run spool', () => {
  const key = randomKeyHex();
  const dir = mkdtempSync(join(tmpdir(), 'spool-cli-'));
  const counts = [4, 1, 6, 2, 1, 3];
  const specs = writeSpool(dir, key, BUGS, counts);
  const foreign = spoolName(1_764_600_000_000_000_000n, 2, 77);
  before(() => {
    if (!existsSync(CLI)) assert.equal(spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT }).status, 0);
    writeFileSync(join(dir, foreign), seal(bugBody(BUGS[0], 77, 1_764_600_000_000_000_000n, 2), randomKeyHex()));
    writeFileSync(join(dir, `${spoolName(1_764_600_000_000_000_001n, 3, 78)}.tmp`), 'TINCAP\x01\x00half');
  });

  it('--json: the groups largest first with counts, exact first and last walls, examples, and the unreadable capsule', () => {
    const r = cli(['spool', dir, '--json', '--key', key]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), 'the key was printed');
    const j = JSON.parse(r.stdout);
    assert.equal(j.capsules, specs.length + 1);
    assert.deepEqual(j.groups.map((g: { count: number }) => g.count), [...counts].sort((a, b) => b - a));
    const biggest = j.groups[0];
    const walls = specs.filter((s) => s.bug === BUGS[2].id).map((s) => s.wall).sort((a, b) => (a < b ? -1 : 1));
    assert.equal(biggest.first, walls[0].toString());
    assert.equal(biggest.last, walls[walls.length - 1].toString());
    assert.equal(biggest.signature.route, 'POST /pay');
    assert.equal(biggest.signature.faultKind, 'wire.http@1');
    assert.equal(biggest.examples.length, 3);
    assert.equal(biggest.examples[0].wall, walls[walls.length - 1].toString(), 'examples newest first');
    assert.equal(biggest.capsules.length, 6);
    assert.deepEqual(j.unreadable.map((u: { name: string; code: string }) => [u.name, u.code]), [[foreign, 'wrong-key-or-damaged']]);
    assert.match(j.unreadable[0].reason, /wrong key or damaged/);
  });

  it('text: one line per group, the examples and the unreadable capsule with its reason', () => {
    const r = cli(['spool', dir], { TIN_REPLAY_KEY: key });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(key));
    assert.match(r.stdout, new RegExp(`: ${specs.length + 1} capsules in 6 groups, 1 unreadable`));
    // The first fault with its key, templated (issue 29): ids and numbers as {id}.
    assert.match(r.stdout, /^ +6 {2}500 POST \/pay · first fault wire\.http@1 POST https:\/\/bank\.example\/charge$/m);
    assert.match(r.stdout, /^ +2 {2}500 POST \/pay · first fault redis@1 \{id\}:GET \{id\}:pay:\{id\}$/m);
    assert.match(r.stdout, /^ +4 {2}504 GET \/orders\/\{id\}\?page=&sort= · panic "index out of range \[<n>\] with length <n>" · no failing effect$/m);
    assert.match(r.stdout, /… and 3 more/);
    assert.match(r.stdout, new RegExp(`${foreign}: capsule: wrong key or damaged`));
    assert.ok(!r.stdout.includes('.tmp'));
  });

  it('text: a panic with terminal escapes is printed escaped; --json keeps it exact', () => {
    const d = mkdtempSync(join(tmpdir(), 'spool-cli-esc-'));
    const wall = 1_764_600_000_000_000_000n;
    writeFileSync(join(d, spoolName(wall, 1, 1)), seal(buildBody({ wall, status: 504, flags: 1, panic: 'boom \x1b]0;owned\x07 \u202e', effects: [] }), key));
    const text = cli(['spool', d, '--key', key]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(!text.stdout.includes('\x1b') && !text.stdout.includes('\u202e'), 'a control character reached the terminal');
    assert.match(text.stdout, /panic "boom \\x1b\]<n>;owned\\x07 \\u202e"/);
    const json = JSON.parse(cli(['spool', d, '--key', key, '--json']).stdout);
    assert.equal(json.groups[0].examples[0].panic, 'boom \x1b]0;owned\x07 \u202e');
  });

  it('exit codes as for inspect: 1 the folder cannot be read, 2 usage', () => {
    const missing = cli(['spool', join(dir, 'nope')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope: cannot read: no such file/);
    const file = cli(['spool', join(dir, foreign)]);
    assert.equal(file.code, 1);
    assert.match(file.stderr, /not a folder/);
    assert.equal(cli(['spool']).code, 2);
    assert.equal(cli(['spool', dir, '--frobnicate']).code, 2);
    assert.equal(cli(['spool', dir, '--examples', 'x']).code, 2);
    const badKey = cli(['spool', dir, '--key', 'abc']);
    assert.equal(badKey.code, 1);
    assert.match(badKey.stderr, /not 64 hex digits/);
  });
});
