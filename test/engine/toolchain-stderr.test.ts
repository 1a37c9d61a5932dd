// A toolchain child's stderr (run-process.ts stderrPath): machin writes a probe line per
// statement, each its own unbuffered write. Through the FIFO and its reader thread (the default)
// and through the file (where no FIFO can be made) the caller gets every byte, in order, whole or
// streamed in chunks while the child runs; a slow taker loses nothing; a process the child left
// holding the pipe does not make the run wait forever.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runProcess } from '../../replay-engine/toolchain/run-process';
import { fifoReaderThreadsStarted, warmUpFifoReader } from '../../replay-engine/toolchain/fifo-stderr';

const root = mkdtempSync(join(tmpdir(), 'frozen-run-stderr-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const path = () => join(root, `stderr-${n++}`);

/** A child that writes `lines` lines to stderr, one write(2) each, as machin's probes are written. */
const writer = (lines: number, extra = '') => [
  '-e',
  `const fs = require('fs'); for (let i = 0; i < ${lines}; i++) fs.writeSync(2, 'probe 0.' + (i % 7) + ' fr_stmt0 = ' + i + ' @op' + (i >> 3) + '\\n'); ${extra}`,
];
const expected = (lines: number) => Array.from({ length: lines }, (_, i) => `probe 0.${i % 7} fr_stmt0 = ${i} @op${i >> 3}\n`).join('');

describe('a toolchain child\'s stderr', () => {
  for (const via of ['fifo', 'file'] as const) {
    it(`through the ${via}: every byte in order, whole; the path is gone or private after`, async () => {
      const p = path();
      const r = await runProcess(process.execPath, writer(100_000), { timeLimitMs: 60_000, stderrPath: p, stderrVia: via });
      assert.equal(r.exitCode, 0);
      assert.equal(r.stderr, expected(100_000));
      if (via === 'fifo') assert.equal(existsSync(p), false, 'the FIFO is unlinked once both ends are open');
    });

    it(`through the ${via}: streamed in chunks while the child runs, every byte in order, nothing kept whole`, async () => {
      const chunks: string[] = [];
      let beforeExit = 0;
      // The child writes half, waits a second, writes the rest: the first half arrives while it waits.
      const child = ['-e', `const fs = require('fs'); const w = (a, b) => { for (let i = a; i < b; i++) fs.writeSync(2, 'probe 0.' + (i % 7) + ' fr_stmt0 = ' + i + ' @op' + (i >> 3) + '\\n'); }; w(0, 50000); setTimeout(() => w(50000, 100000), 1000);`];
      const started = Date.now();
      const r = await runProcess(process.execPath, child, {
        timeLimitMs: 60_000,
        stderrPath: path(),
        stderrVia: via,
        streamStderr: (t) => {
          chunks.push(t);
          if (Date.now() - started < 900) beforeExit += t.length;
        },
      });
      assert.equal(r.stderr, '');
      assert.equal(chunks.join(''), expected(100_000));
      assert.ok(chunks.length > 1, `${chunks.length} chunk(s)`);
      assert.ok(beforeExit > 0, 'nothing came while the child was still running');
    });

    it(`through the ${via}: as whole lines of bytes, with the child's stdout shown and its stderr not`, async () => {
      const taken: Buffer[] = [];
      const shown: string[] = [];
      const child = ['-e', `process.stdout.write('done\\n'); ${writer(20_000)[1]}`];
      const r = await runProcess(process.execPath, child, {
        timeLimitMs: 60_000,
        stderrPath: path(),
        stderrVia: via,
        streamStderrBytes: (lines) => taken.push(Buffer.from(lines)),
        onOutput: (from, text) => shown.push(`${from}: ${text}`),
      });
      assert.equal(r.exitCode, 0);
      assert.equal(Buffer.concat(taken).toString('utf8'), expected(20_000));
      assert.deepEqual(shown, ['stdout: done\n']);
    });
  }

  it('the reader thread started ahead reads one FIFO after another, and two at once get two threads: every byte in order each time', async () => {
    warmUpFifoReader();
    const before = fifoReaderThreadsStarted();
    for (let k = 0; k < 3; k++) {
      const taken: Buffer[] = [];
      const r = await runProcess(process.execPath, writer(30_000 + k), { timeLimitMs: 60_000, stderrPath: path(), streamStderrBytes: (lines) => taken.push(Buffer.from(lines)) });
      assert.equal(r.exitCode, 0);
      assert.equal(Buffer.concat(taken).toString('utf8'), expected(30_000 + k), `run ${k + 1}`);
    }
    assert.equal(fifoReaderThreadsStarted(), before, 'the thread started ahead read all three');
    const [a, b] = await Promise.all([runProcess(process.execPath, writer(20_000), { timeLimitMs: 60_000, stderrPath: path() }), runProcess(process.execPath, writer(25_000), { timeLimitMs: 60_000, stderrPath: path() })]);
    assert.equal(a.stderr, expected(20_000));
    assert.equal(b.stderr, expected(25_000));
    assert.equal(fifoReaderThreadsStarted(), before + 1, 'one more thread for the second at once');
  });

  it("a stream the taker cannot keep up with does not hold up another run's answer (the first stop waits for no other replay)", async () => {
    // A: writes for 3 s, faster than its taker takes it (3 ms a chunk); B: a short run that writes one line.
    const a0 = Date.now();
    const flood = ['-e', `const fs = require('fs'); const end = Date.now() + 3000; let i = 0; while (Date.now() < end) fs.writeSync(2, ('probe 0 fr_stmt0 = ' + (i++) + ' @op1\\n').repeat(64));`];
    let taken = 0;
    const slowTaker = (text: string) => {
      taken += text.length;
      const until = performance.now() + 3;
      while (performance.now() < until);
    };
    const a = runProcess(process.execPath, flood, { timeLimitMs: 60_000, stderrPath: path(), streamStderr: slowTaker }).then(() => Date.now() - a0);
    await new Promise((r) => setTimeout(r, 300));
    const b0 = Date.now();
    const b = await runProcess(process.execPath, ['-e', 'process.stderr.write("done\\n")'], { timeLimitMs: 60_000, stderrPath: path() });
    const bMs = Date.now() - b0;
    assert.equal(b.stderr, 'done\n');
    const aMs = await a;
    assert.ok(taken > 0);
    assert.ok(aMs >= 3000);
    assert.ok(b0 - a0 + bMs < aMs - 1000, `the short run answered ${b0 - a0 + bMs} ms after the flood started, which ended after ${aMs} ms`);
  });

  it('a slow taker loses nothing: the reader waits, and the child with it', async () => {
    const chunks: string[] = [];
    const r = await runProcess(process.execPath, writer(400_000), {
      timeLimitMs: 120_000,
      stderrPath: path(),
      streamStderr: (t) => {
        chunks.push(t);
        const until = Date.now() + 5;
        while (Date.now() < until);
      },
    });
    assert.equal(r.exitCode, 0);
    assert.equal(chunks.join(''), expected(400_000));
  });

  it('a process the child started and left holding the pipe: the group is killed, the run answers', async () => {
    const started = Date.now();
    // The child starts a grandchild (same group) that sleeps with the pipe as its stderr, then exits.
    const r = await runProcess(process.execPath, writer(10, `require('child_process').spawn('sleep', ['60'], { stdio: ['ignore', 'ignore', 'inherit'], detached: false }).unref();`), {
      timeLimitMs: 60_000,
      stderrPath: path(),
    });
    assert.equal(r.stderr, expected(10));
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });
});
