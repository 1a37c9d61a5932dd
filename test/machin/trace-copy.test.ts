// The copy of a trace machin is given: program line rewritten, cut last line left out, every
// record checked, private, always removed; the user's file never touched.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { resetOrphanSweep } from '../../replay-engine/machin/private-temp';
import { retargetTraceCopy, withTraceCopy, writeTraceCopy } from '../../replay-engine/machin/trace-copy';
import { RecordingError } from '../../replay-engine/model/errors';
import { fixtureTraces, scheduleLines, tempDir } from './support';

const tmp = () => tempDir('trace-copy-test-');
const hash = (f: string) => createHash('sha256').update(readFileSync(f, 'latin1'), 'latin1').digest('hex');
function traceFile(text: string): string {
  const f = path.join(tmp(), 'run.mflrr');
  writeFileSync(f, text, 'latin1');
  return f;
}

describe('trace copy for machin', () => {
  it('every fixture: same records, program pointing here, file untouched', async () => {
    for (const fx of fixtureTraces()) {
      if (statSync(fx.traceFile).size === 0) continue;
      const before = hash(fx.traceFile);
      await withTraceCopy(fx.traceFile, '/here/prog.mfl', async (copy) => {
        const original = readFileSync(fx.traceFile, 'latin1').split('\n');
        const copied = readFileSync(copy.file, 'latin1').split('\n');
        assert.deepEqual(copied, original.map((l) => (l.startsWith('program ') ? 'program /here/prog.mfl' : l)), fx.name);
        assert.equal(copy.scheduleTotal, scheduleLines(fx.traceFile).length);
        assert.equal(copy.droppedPartialLine, null);
      });
      assert.equal(hash(fx.traceFile), before);
    }
  });

  it('a retargeted copy: the same bytes but the program line, beside the first copy, private, removed with it', async () => {
    // a header whose program line is not first, and records longer than one read
    const records = Array.from({ length: 300_000 }, (_, i) => (i % 3 === 0 ? `I 0.${(i % 7) + 1} 3${i % 10}` : `S 0.${(i % 5) + 1}`));
    const f = traceFile(`MFLRR 1\nboundary faithful\nsafe 1\nprogram /x/p.mfl\n${records.join('\n')}\n`);
    let dir = '';
    await withTraceCopy(f, '/here/prog.mfl', async (copy) => {
      dir = copy.dir;
      const other = await retargetTraceCopy(copy, '/tmp/instrumented/prog.mfl');
      assert.equal(path.dirname(other), copy.dir);
      assert.equal(statSync(other).mode & 0o777, 0o600);
      const a = readFileSync(copy.file, 'latin1');
      const b = readFileSync(other, 'latin1');
      assert.equal(b, a.replace('program /here/prog.mfl\n', 'program /tmp/instrumented/prog.mfl\n'));
      assert.match(b, /^MFLRR 1\nboundary faithful\nsafe 1\nprogram \/tmp\/instrumented\/prog\.mfl\nI 0\.1 30\n/);
      await assert.rejects(retargetTraceCopy(copy, 'bad\npath'), /line break/);
    });
    assert.equal(existsSync(dir), false);
  });

  it('the copies asked for besides, written in the same pass: as retargetTraceCopy makes them, also from CRLF lines, blank lines and a cut last line', async () => {
    const records = Array.from({ length: 200_000 }, (_, i) => (i % 3 === 0 ? `I 0.${(i % 7) + 1} 3${i % 10}` : `S 0.${(i % 5) + 1}`));
    // (lines longer than the reads' chunks would be cut anywhere: CRLF and blank lines in the middle, a cut line at the end)
    const text = `MFLRR 1\nboundary faithful\nprogram /x/p.mfl\nsafe 0\n${records.slice(0, 100_000).join('\n')}\nS 0.1\r\n\n${records.slice(100_000).join('\n')}\nS 0.`;
    const f = traceFile(text);
    await withTraceCopy(
      f,
      '/here/prog.mfl',
      async (copy) => {
        assert.equal(copy.retargeted.length, 2);
        const first = readFileSync(copy.file, 'latin1');
        assert.equal(first, `MFLRR 1\nboundary faithful\nprogram /here/prog.mfl\nsafe 0\n${records.slice(0, 100_000).join('\n')}\nS 0.1\n${records.slice(100_000).join('\n')}\n`);
        assert.equal(copy.droppedPartialLine, 200_007); // (4 header lines, 100,000 records, the CRLF and blank lines, 100,000 more)
        for (const [k, program] of ['/tmp/statements/p.mfl', '/tmp/values/p.mfl'].entries()) {
          const other = copy.retargeted[k];
          assert.equal(path.dirname(other), copy.dir);
          assert.match(path.basename(other), new RegExp(`^${k === 0 ? 'statements' : 'values'}-`));
          assert.equal(statSync(other).mode & 0o777, 0o600);
          assert.equal(readFileSync(other, 'latin1'), readFileSync(await retargetTraceCopy(copy, program, `check${k}`), 'latin1'));
          assert.equal(readFileSync(other, 'latin1'), first.replace('program /here/prog.mfl\n', `program ${program}\n`));
        }
      },
      [
        { program: '/tmp/statements/p.mfl', prefix: 'statements' },
        { program: '/tmp/values/p.mfl', prefix: 'values' },
      ],
    );
    await assert.rejects(writeTraceCopy(f, '/y/p.mfl', [{ program: '/y/q\n.mfl', prefix: 'x' }]), /line break/);
  });

  it('is private (0700 folder, 0600 file) and removed after use, after a failure and when use throws', async () => {
    const f = traceFile('MFLRR 1\nboundary faithful\nprogram /x/p.mfl\nsafe 0\nS 0\n');
    let dir = '';
    await withTraceCopy(f, '/y/p.mfl', async (copy) => {
      dir = copy.dir;
      assert.equal(statSync(copy.dir).mode & 0o777, 0o700);
      assert.equal(statSync(copy.file).mode & 0o777, 0o600);
    });
    assert.equal(existsSync(dir), false);
    await assert.rejects(
      withTraceCopy(f, '/y/p.mfl', async (copy) => {
        dir = copy.dir;
        throw new Error('machin failed');
      }),
      /machin failed/,
    );
    assert.equal(existsSync(dir), false);
  });

  it('leaves out a cut last line and names it', async () => {
    const f = traceFile('MFLRR 1\nboundary faithful\nprogram /x/p.mfl\nsafe 0\nS 0.1\nS 0.');
    const before = hash(f);
    await withTraceCopy(f, '/y/p.mfl', async (copy) => {
      assert.equal(readFileSync(copy.file, 'latin1'), 'MFLRR 1\nboundary faithful\nprogram /y/p.mfl\nsafe 0\nS 0.1\n');
      assert.equal(copy.droppedPartialLine, 6);
      assert.equal(copy.scheduleTotal, 1);
    });
    assert.equal(hash(f), before, 'the recording is not modified');
  });

  it('adds a program line to a trace without one; CRLF becomes LF; blank and unknown header lines go', async () => {
    const f = traceFile('MFLRR 1\r\nboundary faithful\r\nsafe 1\r\nnote hello\r\n\r\nS 0\r\nI 0 \r\nI 0 6869\r\n\r\nS 0.1\r\n');
    await withTraceCopy(f, '/y/p.mfl', async (copy) => {
      assert.equal(readFileSync(copy.file, 'latin1'), 'MFLRR 1\nboundary faithful\nsafe 1\nprogram /y/p.mfl\nS 0\nI 0 \nI 0 6869\nS 0.1\n');
      assert.equal(copy.ioTotal, 2);
      assert.match(copy.warnings.join(), /line 4 \(note hello\)/);
    });
  });

  it('refuses what could make machin wait forever or build another program', async () => {
    const bad: Array<[string, RegExp]> = [
      ['S 0.\nS 0\n', /:5: bad goroutine id "0\."/],
      ['S 1\n', /:5: bad goroutine id "1"/],
      ['S 0 x\n', /:5: an `S` line has text/],
      ['I 0 abc\n', /:5: odd-length hex/],
      ['I 0 zz\n', /:5: bad hex in an `I` line at column 5/],
      ['S 0\nprogram /evil.mfl\n', /:6: unexpected line "program \/evil.mfl"/],
      [`S 0.${'1'.repeat(300)}\n`, /:5: bad goroutine id/],
    ];
    for (const [records, message] of bad) {
      const f = traceFile(`MFLRR 1\nboundary faithful\nprogram /x/p.mfl\nsafe 0\n${records}`);
      const tmpBefore = new Set(readdirSync(os.tmpdir()));
      await assert.rejects(writeTraceCopy(f, '/y/p.mfl'), (e: unknown) => e instanceof RecordingError && e.code === 'malformed' && message.test(e.message) && e.message.includes(f));
      // (this process's folders only: other test files running beside it make theirs in the same TMPDIR)
      const leaked = readdirSync(os.tmpdir()).filter((d) => d.startsWith(`frozen-run-machin-${process.pid}-`) && !tmpBefore.has(d));
      assert.deepEqual(leaked, [], 'no temporary folder left behind');
    }
    await assert.rejects(writeTraceCopy(traceFile('MFLRR 1\n'), '/y/p\n.mfl'), /line break/);
    await assert.rejects(writeTraceCopy(traceFile('MFLRR 1\n'), '/y/p.mfl '), /white space/);
  });

  it('streams a trace larger than its buffer, records split across chunks', async () => {
    const ids = ['0', '0.1', '0.2.13'];
    const lines = ['MFLRR 1', 'boundary faithful', 'program /x/p.mfl', 'safe 0'];
    for (let k = 0; k < 300_000; k++) lines.push(k % 5 === 4 ? `I ${ids[k % 3]} ${'ab'.repeat(k % 7)}` : `S ${ids[k % 3]}`);
    const f = traceFile(`${lines.join('\n')}\n`);
    await withTraceCopy(f, '/y/p.mfl', async (copy) => {
      assert.ok(statSync(f).size > 2 << 20);
      assert.equal(readFileSync(copy.file, 'latin1'), readFileSync(f, 'latin1').replace('program /x/p.mfl', 'program /y/p.mfl'));
      assert.equal(copy.scheduleTotal, 240_000);
      assert.equal(copy.ioTotal, 60_000);
    });
  });
});

describe('copies left by a killed process', () => {
  it('are removed by the next process that makes a copy; live ones are kept', async () => {
    const { mkdirSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const orphan = path.join(os.tmpdir(), `frozen-run-machin-${dead}-abc123`);
    const live = path.join(os.tmpdir(), `frozen-run-machin-${process.ppid}-abc123`);
    mkdirSync(orphan);
    mkdirSync(live);
    writeFileSync(path.join(orphan, 'run.mflrr'), 'MFLRR 1\n');
    resetOrphanSweep();
    await withTraceCopy(traceFile('MFLRR 1\nS 0\n'), '/y/p.mfl', async (copy) => assert.match(path.basename(copy.dir), new RegExp(`^frozen-run-machin-${process.pid}-`)));
    assert.equal(existsSync(orphan), false);
    assert.equal(existsSync(live), true);
    rmSync(live, { recursive: true });
  });
});
