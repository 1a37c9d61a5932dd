// The reader's WebAssembly kernel (replay-engine/mflrr/scan-kernel.wat): its committed bytes are
// the assembled .wat, and traces with more goroutines than its id table holds (16,384) or than its
// u16 thread column can name (65,535) read the same as the line-split count: the lines it cannot
// take go to the JavaScript reader. (Every other line shape is in chunking and differential tests.)
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { REPO_ROOT } from '../support/paths';
import { countTrace } from './trace-text';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-kernel-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('scan kernel', () => {
  it('the committed scan-kernel.wasm.ts is what `npm run wasm` makes of scan-kernel.wat', async () => {
    const wat = join(REPO_ROOT, 'replay-engine/mflrr/scan-kernel.wat');
    const { generatedSource } = (await import(join(REPO_ROOT, 'scripts/assemble-wasm.mjs'))) as {
      generatedSource: (file: string) => Promise<string>;
    };
    const committed = readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8');
    assert.equal(committed, await generatedSource(wat), 'run `npm run wasm` after editing scan-kernel.wat');
  });

  // Short ids overflow the kernel's table; ids over 16 bytes (never taught) push the short ones
  // after them past thread 65,535.
  const shapes = [
    { goroutines: 20_000, idOf: (g: number) => (g === 0 ? '0' : `0.${g}`) },
    { goroutines: 65_600, idOf: (g: number) => (g === 0 ? '0' : g < 65_550 ? `0.1.1.1.1.1.1.1.1.${g}` : `0.${g}`) },
  ];
  for (const { goroutines, idOf } of shapes) {
    it(`a trace of ${goroutines} goroutines reads like the line-split count`, async () => {
      // Two rounds: the first introduces every id (read by JavaScript), the second is read by the
      // kernel for the ids it could learn and by JavaScript for the rest.
      const lines = ['MFLRR 1', 'boundary faithful', 'program /x/many.mfl', 'safe 1'];
      for (let round = 0; round < 2; round++) {
        for (let g = 0; g < goroutines; g++) {
          const id = idOf(g);
          lines.push(`S ${id}`);
          if (g % 3 === round) lines.push(`I ${id} ${(g & 0xffff).toString(16).padStart(4, '0')}`);
        }
      }
      const file = join(dir, `many-${goroutines}.mflrr`);
      writeFileSync(file, lines.join('\n') + '\n');
      const want = countTrace(file);
      const rec = await readMflrr(file);
      const tl = rec.timeline;
      assert.equal(tl.threads.length, goroutines);
      assert.equal(tl.thread.BYTES_PER_ELEMENT, goroutines > 0xffff ? 4 : 2, 'the thread column widened');
      assert.equal(tl.stepCount, want.scheduleTotal);
      assert.equal(rec.ioTotal, want.ioTotal);
      assert.equal(Array.from(tl.stepThreads(), (t) => tl.threads[t].id).join(' '), want.schedule.join(' '));
      const { steps, io } = rec.threadCounts();
      assert.deepEqual(new Map(tl.threads.map((t, i) => [t.id, { ops: steps[i], io: io[i] }])), want.perGoroutine);
      // The last goroutine's payloads, which only JavaScript can read past 65,535 threads.
      const last = tl.threadIndex(idOf(goroutines - 1));
      const payloads: string[] = [];
      for (let r = 0; r < tl.recordCount; r++) {
        if (tl.thread[r] === last && tl.kindName(r) === 'io') payloads.push(Buffer.from(tl.payload(r)).toString('hex'));
      }
      assert.deepEqual(payloads, [((goroutines - 1) & 0xffff).toString(16).padStart(4, '0')]);
    });
  }
});
