// `frozen-run spool` against what an attacker can put in a spool folder or do to its output:
// a reader that goes away (`| head`), a capsule name holding line breaks and escapes, a FIFO
// named like a capsule. Run as a user runs it (`node dist/cli.js`).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt } from '../support/built';
import { REPO_ROOT } from '../support/paths';
import { randomKeyHex, seal } from './support/seal';
import { BUGS, bugBody, spoolName, writeSpool } from './support/spool';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');

function cli(args: string[], key: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, TIN_REPLAY_KEY: key }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI with a stdout whose reader goes away before a byte is read (as `| head -0` does). */
function withClosedStdout(args: string[], key: string): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, TIN_REPLAY_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the read end is closed: every write of the child gets EPIPE
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('frozen-run spool against hostile folders and readers', () => {
  const key = randomKeyHex();
  const dir = mkdtempSync(join(tmpdir(), 'spool-hostile-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  before(() => {
    ensureBuilt();
    // Enough capsules that the text and the JSON are more than one pipe buffer (64 KB).
    writeSpool(dir, key, BUGS, BUGS.map(() => 1));
  });

  it('a reader that goes away (`spool DIR | head`) ends it quietly: no EPIPE, no stack trace (text and --json)', async () => {
    const many = mkdtempSync(join(dir, 'many-'));
    writeSpool(many, key, BUGS, BUGS.map(() => 120));
    for (const json of [[], ['--json']]) {
      const r = await withClosedStdout(['spool', many, '--examples', '1000', ...json], key);
      assert.equal(r.signal, null, `killed by ${r.signal}`);
      assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
      assert.equal(r.stderr, '', `${json.join('') || 'text'}: nothing on stderr, got: ${r.stderr}`);
    }
  });

  it('a capsule name with line breaks and escapes cannot forge a line of the text output', () => {
    const folder = mkdtempSync(join(dir, 'names-'));
    const wall = 1_764_600_000_000_000_000n;
    writeFileSync(join(folder, spoolName(wall, 1, 1)), seal(bugBody(BUGS[0], 1, wall, 1), key));
    const forged = `x\n\n     9  500 GET forged · no fault\n        y\r\x1b[2J.tcap`;
    writeFileSync(join(folder, forged), seal(bugBody(BUGS[1], 2, wall + 1n, 1), key));
    writeFileSync(join(folder, `bad\nUnreadable (0):\n.tcap`), 'TINCAP\x01\x00cut');
    const r = cli(['spool', folder], key);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /^ +9 {2}500 GET forged/m, 'a forged group line');
    assert.doesNotMatch(r.stdout, /^Unreadable \(0\):/m, 'a forged heading');
    assert.ok(r.stdout.includes('x\\n\\n     9  500 GET forged · no fault\\n        y\\x0d\\x1b[2J.tcap'), r.stdout);
    assert.ok(r.stdout.includes('  bad\\nUnreadable (0):\\n.tcap: '), r.stdout);
    // --json keeps the exact name
    const j = JSON.parse(cli(['spool', folder, '--json'], key).stdout) as { groups: Array<{ capsules: string[] }> };
    assert.ok(j.groups.some((g) => g.capsules.includes(forged)));
  });

  it('a FIFO named x.tcap is counted and listed as unreadable with the reason, not skipped (and never waited on)', () => {
    const folder = mkdtempSync(join(dir, 'fifo-'));
    const wall = 1_764_600_000_000_000_000n;
    writeFileSync(join(folder, spoolName(wall, 1, 1)), seal(bugBody(BUGS[0], 1, wall, 1), key));
    spawnSync('mkfifo', [join(folder, 'x.tcap')]);
    const r = cli(['spool', folder], key);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 2 capsules in 1 group, 1 unreadable$/m);
    assert.match(r.stdout, /^ {2}x\.tcap: not a regular file: it is a named pipe \(FIFO\), or a link to one; /m);
    const j = JSON.parse(cli(['spool', folder, '--json'], key).stdout) as { capsules: number; unreadable: Array<{ name: string; code: string; reason: string }> };
    assert.equal(j.capsules, 2);
    assert.deepEqual(j.unreadable.map((u) => u.name), ['x.tcap']);
    assert.match(j.unreadable[0].reason, /named pipe \(FIFO\)/);
  });

  it('a capsule whose name is not UTF-8 (e\\xff.tcap) is counted and listed as unreadable, its name escaped', () => {
    const folder = mkdtempSync(join(dir, 'bytes-'));
    const wall = 1_764_600_000_000_000_000n;
    writeFileSync(join(folder, spoolName(wall, 1, 1)), seal(bugBody(BUGS[0], 1, wall, 1), key));
    writeFileSync(Buffer.concat([Buffer.from(`${folder}/e`), Buffer.from([0xff]), Buffer.from('.tcap')]), seal(bugBody(BUGS[1], 2, wall + 1n, 1), key));
    const r = cli(['spool', folder], key);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 2 capsules in 1 group, 1 unreadable$/m);
    assert.match(r.stdout, /^ {2}e\\xff\.tcap: the file name is not valid UTF-8 \(shown with its bytes escaped\), so it cannot be opened by name; rename it/m);
    const j = JSON.parse(cli(['spool', folder, '--json'], key).stdout) as { capsules: number; unreadable: Array<{ name: string; code: string; reason: string }> };
    assert.equal(j.capsules, 2);
    assert.deepEqual(j.unreadable.map((u) => u.name), ['e\\xff.tcap']);
  });
});
