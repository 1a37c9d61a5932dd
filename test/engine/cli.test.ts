// `frozen-run` as a user runs it: `node dist/cli.js ...`, exit codes 0/1/2, one line on stderr for
// a recording that cannot be read, within a second.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCli, CLI } from './build-cli';
import { countTrace } from './trace-text';
import { MACHIN_FIXTURES } from '../support/paths';

const FIX = MACHIN_FIXTURES;
const dir = mkdtempSync(join(tmpdir(), 'frozen-run-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
before(async () => {
  await buildCli();
});

/** An environment where no machin can be found (CI has none; the tests must not find a real one). */
const ENV = { ...process.env, MACHIN: '', PATH: '/usr/bin:/bin' };

function run(args: string[]) {
  // A hang is killed at the time limit: `signal` then says so (speed is measured in bench/, not here).
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: ENV, timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

function write(name: string, content: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('frozen-run CLI', () => {
  it('the bundle starts with a node shebang', () => {
    assert.ok(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n'));
  });

  it('inspect --json --no-toolchain: the documented keys, counted independently', () => {
    const file = `${FIX}/flaky/flaky.mflrr`;
    const r = run(['inspect', file, '--json', '--no-toolchain']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    const want = countTrace(file);
    for (const key of ['format', 'version', 'boundary', 'program', 'safe', 'scheduleTotal', 'ioTotal', 'threads', 'panic', 'causalChain', 'verify', 'warnings']) {
      assert.ok(key in j, `missing key ${key}`);
    }
    assert.equal(j.format, 'mflrr');
    assert.equal(j.version, 1);
    assert.equal(j.boundary, want.boundary);
    assert.equal(j.program, want.program);
    assert.equal(j.safe, want.safe);
    assert.equal(j.scheduleTotal, want.scheduleTotal);
    assert.equal(j.ioTotal, want.ioTotal);
    assert.deepEqual(new Map(j.threads.map((t: { id: string; ops: number; io: number }) => [t.id, { ops: t.ops, io: t.io }])), want.perGoroutine);
    assert.equal(j.panic, null);
    assert.equal(j.verify, null);
    assert.ok(Array.isArray(j.warnings));
  });

  it('inspect without machin installed still reads the trace (exit 0, a warning)', () => {
    const r = run(['inspect', `${FIX}/crash/crash.mflrr`, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.scheduleTotal, 4);
    assert.ok(j.warnings.length > 0);
  });

  it('inspect: a short human summary (never every record)', () => {
    const r = run(['inspect', `${FIX}/flaky/flaky.mflrr`, '--no-toolchain']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /21 schedule ops, 10 I\/O records, 3 goroutines/);
    assert.ok(r.stdout.split('\n').length < 21, r.stdout);
  });

  const unreadable: Array<[string, string | Uint8Array]> = [
    ['empty.mflrr', ''],
    ['cut-header.mflrr', 'MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nS 0\nS x\n'],
    ['version.mflrr', 'MFLRR 9\n'],
    ['garbage.bin', new Uint8Array(Array.from({ length: 2000 }, (_, i) => (i * 131) & 0xff))],
    ['hex.mflrr', 'MFLRR 1\nI 0 0g\n'],
  ];
  for (const [name, content] of unreadable) {
    it(`inspect ${name}: exit 1, one line naming the file, no hang`, () => {
      const file = write(name, content);
      const r = run(['inspect', file, '--no-toolchain']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].includes(file), lines[0]);
      assert.doesNotMatch(r.stderr, /\bat .*\.(js|ts):\d+/, 'a stack trace');
      assert.equal(r.signal, null, 'the CLI hung and was killed');
    });
  }

  it('missing file: exit 1, one line', () => {
    const r = run(['inspect', join(dir, 'nope.mflrr')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no such file/);
  });

  for (const args of [[], ['inspect'], ['frobnicate', 'x'], ['inspect', 'a', 'b'], ['inspect', 'x', '--bogus'], ['history', 'x']]) {
    it(`usage error: frozen-run ${args.join(' ')} → exit 2 with usage`, () => {
      const r = run(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /usage:/);
    });
  }

  it('history without machin: exit 1 and one line saying machin is needed and how to point at it', () => {
    const r = run(['history', `${FIX}/crash/crash.mflrr`, 'idx']);
    assert.equal(r.code, 1, r.stdout);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /machin/);
    assert.match(lines[0], /--machin PATH|MACHIN/);
  });

  it('--help: exit 0', () => {
    const r = run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /frozen-run inspect FILE/);
  });
});
