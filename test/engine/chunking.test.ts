// Traces large enough to span many 1 MB read chunks, with every line shape the reader has a
// separate path for (short and long goroutine ids, empty and long payloads, CRLF), must read
// exactly like the independent line-split count, whatever falls on a chunk boundary.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { countTrace } from './trace-text';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-chunks-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const IDS = ['0', '0.1', '0.2', '0.10', '0.1.1', '0.12.345', '0.1.2.3.4', '0.123.456.789', '0.1.1.1.1.1.1.1.1.1'];

/** A seeded trace of `lines` records; payloads are kept to check them byte for byte. */
function makeTrace(seed: number, lines: number, crlf: boolean): { text: string; payloads: string[] } {
  // xorshift32: fast and reproducible.
  let x = seed * 2654435761 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 2;
  };
  const rand = Array.from({ length: lines * 3 }, next);
  const nl = crlf ? '\r\n' : '\n';
  const out = ['MFLRR 1', 'boundary faithful', 'program /x/big.mfl', 'safe 1'].map((l) => l + nl);
  const payloads: string[] = [];
  for (let i = 0; i < lines; i++) {
    const id = IDS[rand[3 * i] % IDS.length];
    if (rand[3 * i + 1] % 5 === 0) {
      const len = rand[3 * i + 2] % 97 === 0 ? 3000 + (rand[3 * i + 2] % 5000) : rand[3 * i + 2] % 24;
      let hex = '';
      for (let j = 0; j < len; j++) hex += ((rand[3 * i + 2] + j * 31) & 0xff).toString(16).padStart(2, '0');
      payloads.push(hex);
      out.push(`I ${id} ${hex}${nl}`);
    } else {
      out.push(`S ${id}${nl}`);
    }
  }
  return { text: out.join(''), payloads };
}

describe('lines longer than a read chunk', () => {
  it('I lines of 80 KB and 3 MB of hex, among short ones, and a cut long last line', async () => {
    const hexOf = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff)).toString('hex');
    const payloads = [hexOf(40_000, 1), hexOf(1_500_000, 2), hexOf(3, 3), hexOf(40_000, 4)];
    const lines = ['MFLRR 1', 'boundary faithful', 'program /x/long.mfl', 'safe 1', 'S 0'];
    for (let i = 0; i < 30_000; i++) lines.push(i % 2 ? 'S 0.1' : 'S 0');
    lines.push(`I 0.1 ${payloads[0]}`, 'S 0.1', `I 0 ${payloads[1]}`);
    for (let i = 0; i < 30_000; i++) lines.push(i % 3 ? 'S 0.1.1' : 'S 0');
    lines.push(`I 0.1.1 ${payloads[2]}`, `I 0.1.1 ${payloads[3]}`, 'S 0.1.1');
    const text = lines.join('\n') + '\n' + `I 0 ${hexOf(100_000, 5)}`; // the last line has no end
    const file = join(dir, 'long-lines.mflrr');
    writeFileSync(file, text);
    const want = countTrace(file);
    const rec = await readMflrr(file);
    const tl = rec.timeline;
    assert.equal(tl.stepCount, want.scheduleTotal);
    assert.equal(rec.ioTotal, 4);
    assert.equal(Array.from(tl.stepThreads(), (t) => tl.threads[t].id).join(' '), want.schedule.join(' '));
    const io: string[] = [];
    for (let r = 0; r < tl.recordCount; r++) if (!tl.isStep(r)) io.push(Buffer.from(tl.payload(r)).toString('hex'));
    assert.deepEqual(io, payloads);
    assert.deepEqual(rec.warnings.map((w) => w.code), ['cut-line']);
    assert.equal(rec.warnings[0].line, lines.length + 1);
  });
});

describe('reading across chunk boundaries', () => {
  for (const [seed, crlf] of [[1, false], [2, true]] as const) {
    it(`seed ${seed}${crlf ? ', CRLF' : ''}: counts, schedule and payloads equal the line-split count`, async () => {
      const { text, payloads } = makeTrace(seed, 120_000, crlf);
      const file = join(dir, `big-${seed}.mflrr`);
      writeFileSync(file, text);
      assert.ok(text.length > 3 * (1 << 20), 'spans several chunks');
      const want = countTrace(file);
      const rec = await readMflrr(file);
      const tl = rec.timeline;
      assert.equal(tl.stepCount, want.scheduleTotal);
      assert.equal(rec.ioTotal, want.ioTotal);
      const { steps, io } = rec.threadCounts();
      assert.deepEqual(new Map(tl.threads.map((t, i) => [t.id, { ops: steps[i], io: io[i] }])), want.perGoroutine);
      // Joined, so a difference is reported without comparing 100k-element arrays item by item.
      assert.equal(Array.from(tl.stepThreads(), (t) => tl.threads[t].id).join(' '), want.schedule.join(' '));
      const io2: string[] = [];
      for (let r = 0; r < tl.recordCount; r++) if (tl.kindName(r) === 'io') io2.push(Buffer.from(tl.payload(r)).toString('hex'));
      assert.equal(io2.join(' '), payloads.join(' '));
      assert.equal(tl.lineOf(tl.recordCount - 1), want.recordLines[want.recordLines.length - 1]);
      assert.equal(rec.warnings.length, 0);
    });
  }
});
