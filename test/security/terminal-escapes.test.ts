// Strings from a recording never drive the terminal: the CLI's text output shows ESC, CSI, OSC
// (window title, hyperlinks), CR, C1 controls and bidi overrides as escapes; --json keeps them exact.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { printable } from '../../replay-engine/cli/printable';
import { buildCli, CLI } from '../engine/build-cli';
import { buildBody, FIXTURE_KEY, seal } from '../tcap/support/seal';

/** What a hostile recording plants: a title change, a hyperlink, a colour, a CR overwrite, a C1 CSI, a bidi override. */
const HOSTILE = '\x1b]0;owned\x07\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\\x1b[31mred\rOK\u009b2J\u202eevil\u2066';
/** Anything a terminal acts on, but the line end and tab. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-escapes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
before(buildCli);

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
}
function assertPrintable(out: string, what: string): void {
  const m = CONTROL.exec(out);
  assert.equal(m, null, `${what} carries U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(out.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 40))}`);
}

describe('terminal escapes from a recording', () => {
  it('printable() escapes every control but line end and tab, and nothing else', () => {
    assert.equal(printable('a\x1b[31mb\rc\u009bd\u202ee\tf\ng'), 'a\\x1b[31mb\\x0dc\\x9bd\\u202ee\tf\ng');
    assert.equal(printable('plain text, ünïcödé, 日本, "quoted\\n"'), 'plain text, ünïcödé, 日本, "quoted\\n"');
  });

  it('a trace: program line and I/O values are shown escaped; JSON keeps them exact', () => {
    const program = `/tmp/${HOSTILE}.mfl`;
    const io = Buffer.from(HOSTILE, 'utf8').toString('hex');
    writeFileSync(join(dir, 'evil.mflrr'), `MFLRR 1\nboundary faithful\nprogram ${program}\nsafe 1\nI 0 ${io}\nS 0\n`);
    const text = cli('inspect', 'evil.mflrr', '--no-toolchain');
    assert.equal(text.status, 0, text.stderr);
    assertPrintable(text.stdout, 'inspect text');
    assert.ok(text.stdout.includes('\\x1b]0;owned\\x07'), `the title sequence is shown as text:\n${text.stdout}`);
    assert.ok(text.stdout.includes('\\u202eevil'), 'the bidi override is shown as text');
    const json = cli('inspect', 'evil.mflrr', '--no-toolchain', '--json');
    assert.equal((JSON.parse(json.stdout) as { program: string }).program, program, 'JSON is exact');
  });

  it('a capsule: the panic message is shown escaped', () => {
    const body = buildBody({ panic: `boom ${HOSTILE}`, effects: [{ kind: 'redis@1', key: 'GET a', data: '$1\r\nx\r\n' }] });
    writeFileSync(join(dir, 'evil.tcap'), seal(body, FIXTURE_KEY));
    const text = cli('inspect', 'evil.tcap', '--key', FIXTURE_KEY);
    assert.equal(text.status, 0, text.stderr);
    assertPrintable(text.stdout, 'capsule inspect text');
    assert.ok(text.stdout.includes('boom \\x1b]0;owned'), text.stdout);
  });

  it('an error naming a hostile file name or line is one printable line', () => {
    const name = `bad\x1b[2J\r.mflrr`;
    writeFileSync(join(dir, name), 'MFLRR 1\nboundary faithful\nprogram /x.mfl\nsafe 1\nX \x1b]0;t\x07\n');
    const r = cli('inspect', name, '--no-toolchain');
    assert.equal(r.status, 1);
    assertPrintable(r.stderr.trimEnd(), 'error line');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
    assert.match(r.stderr, /bad\\x1b\[2J\\x0d\.mflrr/);
  });

  it('compare: both programs\' names are shown escaped', () => {
    const trace = (p: string) => `MFLRR 1\nboundary faithful\nprogram ${p}\nsafe 1\nS 0\n`;
    writeFileSync(join(dir, 'a.mflrr'), trace(`/x/${HOSTILE}.mfl`));
    writeFileSync(join(dir, 'b.mflrr'), trace(`/y/${HOSTILE}.mfl`));
    const r = cli('compare', 'a.mflrr', 'b.mflrr', '--no-toolchain');
    assertPrintable(r.stdout + r.stderr, 'compare output');
    assert.ok((r.stdout + r.stderr).includes('\\x1b'), `the sequence is shown as text: ${r.stdout}${r.stderr}`);
  });
});
