// Files far larger than any capsule, that start with the capsule magic (sparse files: no disk
// space, gigabytes of size). A capsule is read whole into memory (its tag is over all of it), so
// the size is checked against the capsule size limit before a byte is read: one line naming the
// file, its size, the limit and how to raise it; never Node's abort (`args[3]->IsInt32()`) on 2 GiB
// or more, never gigabytes resident. In the CLI, the standalone adapter, the spool and the engine
// reader that the inline adapter and the MCP server use.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RecordingError } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';
import { authenticatedKey } from '../../replay-engine/tcap/read-capsule';
import { readSpool } from '../../replay-engine/tcap/spool/spool-index';
import { DEFAULT_CAPSULE_LIMIT_MB } from '../../replay-engine/tcap/size-limit';
import { STREAMED_TAG_ABOVE } from '../../replay-engine/tcap/streamed-tag';
import { ensureBuilt } from '../support/built';
import { REPO_ROOT, TIN_FIXTURES } from '../support/paths';
import { startAdapter } from '../dap/support';
import { FIXTURE_KEY, buildBody, seal } from '../tcap/support/seal';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('capsules larger than the capsule size limit', () => {
  let dir = '';
  /** Sparse files, removed in `after`. */
  const sparse = (name: string, size: number): string => {
    const file = path.join(dir, name);
    writeFileSync(file, Buffer.from([0x54, 0x49, 0x4e, 0x43, 0x41, 0x50, 0x01, 0x00]));
    truncateSync(file, size);
    return file;
  };
  let twoGiB = '';
  let overDefault = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-huge-'));
    twoGiB = sparse('huge.tcap', 2 * GiB);
    overDefault = sparse('big.tcap', DEFAULT_CAPSULE_LIMIT_MB * MiB + 1);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const message = (file: string, size: string, limit: string) =>
    new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: the file is ${size}, more than the capsule size limit of ${limit}: `);

  test('the CLI refuses 2 GiB and (just over) the default limit in one line, at once, without reading them', () => {
    for (const [file, size] of [[twoGiB, '2,048 MiB \\(2,147,483,648 bytes\\)'], [overDefault, `1,024 MiB \\(1,073,741,825 bytes\\)`]] as const) {
      const r = spawnSync('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, CLI, 'inspect', file, '--key', FIXTURE_KEY], { encoding: 'utf8', timeout: 60_000 });
      const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('Command exited with')); // time's own line
      const rssKb = Number(/maxrss (\d+)/.exec(lines.pop() ?? '')?.[1]);
      assert.equal(r.status, 1, r.stderr);
      assert.equal(lines.length, 1, `one line: ${r.stderr}`);
      assert.match(lines[0], new RegExp(`^frozen-run: ${message(file, size, '1,024 MiB').source.slice(1)}`));
      assert.match(lines[0], /frozenRun\.capsuleSizeLimitMB.*--capsule-limit-mb/);
      assert.ok(rssKb < 200 * 1024, `${rssKb} KB resident: the file was read`);
    }
  });

  test('a lower limit (--capsule-limit-mb, FROZEN_RUN_CAPSULE_LIMIT_MB) refuses a real capsule above it; a higher one reads it', () => {
    const file = path.join(dir, 'orders.tcap');
    copyFileSync(path.join(TIN_FIXTURES, 'orders-panic.tcap'), file);
    const small = sparse('small.tcap', 3 * MiB);
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [CLI, 'inspect', ...args, '--key', FIXTURE_KEY], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
    let r = run([small, '--capsule-limit-mb', '2']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /the file is 3 MiB \(3,145,728 bytes\), more than the capsule size limit of 2 MiB/);
    r = run([small], { FROZEN_RUN_CAPSULE_LIMIT_MB: '2' });
    assert.match(r.stderr, /more than the capsule size limit of 2 MiB/);
    r = run([file, '--capsule-limit-mb', '1']);
    assert.equal(r.status, 0, `a capsule under the limit opens: ${r.stderr}`);
    r = run([file, '--capsule-limit-mb', '4096']);
    assert.equal(r.status, 2, 'above the largest limit is a usage error');
    assert.match(r.stderr, /--capsule-limit-mb wants a size in MiB from 1 to 2047/);
    r = run([file], { FROZEN_RUN_CAPSULE_LIMIT_MB: 'lots' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /FROZEN_RUN_CAPSULE_LIMIT_MB wants a size in MiB from 1 to 2047, got `lots`/);
  });

  test('the engine reader (inline adapter, MCP server) and the key check refuse it with a RecordingError', async () => {
    for (const read of [() => readRecording(twoGiB, { keyHex: FIXTURE_KEY }), () => authenticatedKey(twoGiB, { keyHex: FIXTURE_KEY })]) {
      const started = Date.now();
      await assert.rejects(read(), (e: unknown) => e instanceof RecordingError && e.code === 'too-large' && message(twoGiB, '2,048 MiB \\(2,147,483,648 bytes\\)', '1,024 MiB').test(e.message));
      assert.ok(Date.now() - started < 2_000, 'refused before reading');
    }
    await assert.rejects(readRecording(twoGiB, { keyHex: FIXTURE_KEY, capsuleSizeLimitMB: 4096 }), /capsule size limit .*from 1 to 2047/);
  });

  test('the standalone adapter ends the launch with the message and stays up', async () => {
    const s = await startAdapter();
    try {
      await assert.rejects(s.dc.launchRequest({ recording: twoGiB } as never), (e: Error) => message(twoGiB, '2,048 MiB \\(2,147,483,648 bytes\\)', '1,024 MiB').test(e.message));
      assert.deepEqual((await s.dc.threadsRequest()).body.threads, []);
      // The launch attribute the extension fills from frozenRun.capsuleSizeLimitMB.
      const small = sparse('launch-small.tcap', 3 * MiB);
      await assert.rejects(s.dc.launchRequest({ recording: small, capsuleSizeLimitMB: 2 } as never), /the file is 3 MiB \(3,145,728 bytes\), more than the capsule size limit of 2 MiB/);
      await assert.rejects(s.dc.launchRequest({ recording: small, capsuleSizeLimitMB: 4096 } as never), /`capsuleSizeLimitMB` must be a whole number of MiB from 1 to 2047/);
    } finally {
      await s.dc.stop();
    }
  });

  test('the spool lists it as unreadable with the reason and reads the rest', async () => {
    const spool = mkdtempSync(path.join(dir, 'spool-'));
    copyFileSync(path.join(TIN_FIXTURES, 'orders-panic.tcap'), path.join(spool, 'orders.tcap'));
    sparse(path.join(path.basename(spool), 'huge.tcap'), 2 * GiB);
    const seen = [];
    for await (const c of readSpool(spool, { keyHex: FIXTURE_KEY, threads: 1 })) seen.push(c);
    const huge = seen.find((c) => c.name === 'huge.tcap');
    assert.ok(huge && !huge.readable && huge.code === 'too-large', JSON.stringify(huge));
    assert.equal(huge.size, 2 * GiB);
    assert.ok(seen.some((c) => c.name === 'orders.tcap' && c.readable));
    const r = spawnSync(process.execPath, [CLI, 'spool', spool, '--key', FIXTURE_KEY], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ {2}huge\.tcap: the file is 2,048 MiB \(2,147,483,648 bytes\), more than the capsule size limit of 1,024 MiB/m);
  });
});

// Under the limit, a large file's tag is checked while it streams through a small buffer, before it
// is read whole (streamed-tag.ts): a damaged or wrong-key file of 1,000 MiB is refused in about a
// second with tens of MB resident (it took 1.09 GB and 17 s read whole); a real capsule above the
// streaming threshold still opens, and only with its key.
describe('large capsules under the limit: the tag checked while streaming', () => {
  let dir = '';
  let damaged = '';
  let real = '';
  const OTHER_KEY = 'ff'.repeat(32);
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-streamed-tag-'));
    damaged = path.join(dir, 'damaged.tcap');
    writeFileSync(damaged, Buffer.concat([Buffer.from('TINCAP\x01\x00', 'latin1'), Buffer.alloc(16, 7)]));
    truncateSync(damaged, 1000 * MiB);
    real = path.join(dir, 'real.tcap');
    const big = 'x'.repeat(3 * MiB);
    const effects = Array.from({ length: Math.ceil(STREAMED_TAG_ABOVE / big.length) + 1 }, (_, i) => ({ kind: 'quarry.read@1', key: `/srv/data/${i}.bin`, data: big }));
    writeFileSync(real, seal(buildBody({ effects }), FIXTURE_KEY));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const maxrss = (args: string[]) => {
    const r = spawnSync('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('Command exited with'));
    return { status: r.status, stdout: r.stdout, lines, rssKb: Number(/maxrss (\d+)/.exec(lines.pop() ?? '')?.[1]) };
  };

  test('the CLI refuses a damaged 1,000 MiB file in one line with tens of MB resident; the spool lists it so', () => {
    let r = maxrss(['inspect', damaged, '--key', FIXTURE_KEY]);
    assert.equal(r.status, 1, r.lines.join('\n'));
    assert.deepEqual(r.lines.length, 1, r.lines.join('\n'));
    assert.match(r.lines[0], /damaged\.tcap: capsule: wrong key or damaged \(the tag does not match/);
    assert.ok(r.rssKb < 200 * 1024, `${r.rssKb} KB resident: the file was read whole`);
    const spool = mkdtempSync(path.join(dir, 'spool-'));
    copyFileSync(path.join(TIN_FIXTURES, 'orders-panic.tcap'), path.join(spool, 'orders.tcap'));
    symlinkSync(damaged, path.join(spool, 'damaged.tcap'));
    r = maxrss(['spool', spool, '--key', FIXTURE_KEY]);
    assert.equal(r.status, 0, r.lines.join('\n'));
    assert.match(r.stdout, /^ {2}damaged\.tcap: capsule: wrong key or damaged/m);
    assert.match(r.stdout, /orders\.tcap/);
    assert.ok(r.rssKb < 200 * 1024, `${r.rssKb} KB resident: the spool read it whole`);
  });

  test('the engine reader and the key check refuse it with the wrong-key-or-damaged error, not a thing else', async () => {
    for (const read of [() => readRecording(damaged, { keyHex: FIXTURE_KEY }), () => authenticatedKey(damaged, { keyHex: FIXTURE_KEY })]) {
      await assert.rejects(read(), (e: unknown) => e instanceof RecordingError && e.code === 'wrong-key-or-damaged');
    }
    // The envelope is still checked first, and before any key is asked for.
    const notCapsule = path.join(dir, 'not.tcap');
    writeFileSync(notCapsule, 'PK\x03\x04');
    truncateSync(notCapsule, 100 * MiB);
    await assert.rejects(readRecording(notCapsule, {}), (e: unknown) => e instanceof RecordingError && e.code === 'not-a-recording');
    await assert.rejects(readRecording(damaged, { env: {} }), (e: unknown) => e instanceof RecordingError && e.code === 'no-key');
  });

  test('a real capsule above the streaming threshold opens with its key and is refused under another', async () => {
    const r = maxrss(['inspect', real, '--key', FIXTURE_KEY]);
    assert.equal(r.status, 0, r.lines.join('\n'));
    assert.match(r.stdout, /quarry\.read@1/);
    const rec = await readRecording(real, { keyHex: FIXTURE_KEY });
    assert.equal(rec.timeline.recordCount, Math.ceil(STREAMED_TAG_ABOVE / (3 * MiB)) + 1);
    assert.equal((await authenticatedKey(real, { keyHex: FIXTURE_KEY })).source, 'the given key');
    await assert.rejects(readRecording(real, { keyHex: OTHER_KEY }), (e: unknown) => e instanceof RecordingError && e.code === 'wrong-key-or-damaged');
    await assert.rejects(authenticatedKey(real, { keyHex: OTHER_KEY }), (e: unknown) => e instanceof RecordingError && e.code === 'wrong-key-or-damaged');
  });
});
