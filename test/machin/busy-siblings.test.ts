// main divides by zero while three goroutines loop printing probes, with the real machin 0.137.0:
// machin writes the panic in pieces without the probes' lock, so under load their probe lines land
// inside the panic line (`panic: integer divide by zeroprobe 0.2 i = 8 @op0`, then more whole
// probe lines, then the panic's own newline: panic-block.ts). Over many launches source level is
// never lost, the message is exact, and every value is what the program text says it must be
// (each loop counts 0, 1, 2, ... with none twice, none torn, none missing in between), so a
// reading that duplicates, drops or misattributes a line fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { machinPath, recordProgram } from '../support/machin';
import { tempDir } from './support';

const BUSY = `func spin(tag) {
    i := 0
    for i < 3000000 {
        i = i + 1
    }
}

func main() {
    go spin(1)
    go spin(2)
    go spin(3)
    k := 0
    for k < 2000 {
        k = k + 1
    }
    z := k - k
    q := 7 / z
    println(str(q))
}
`;

const LAUNCHES = 16;

describe('a panic while sibling goroutines print probes (the real machin)', () => {
  it(`${LAUNCHES} launches: source level every time, the exact message, every loop's values consecutive`, { timeout: 900_000 }, async () => {
    const MACHIN = machinPath();
    const dir = tempDir('busy-');
    const { trace } = recordProgram(dir, 'busy', BUSY);
    const started = Date.now();
    const sure: string[] = [];
    for (let launch = 0; launch < LAUNCHES && Date.now() - started < 600_000; launch++) {
      const rec = await readMflrr(trace);
      await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 120_000 });
      assert.deepEqual(rec.sourceLevel, { state: 'ready' }, `launch ${launch}: ${JSON.stringify(rec.warnings)}`);
      assert.equal(rec.panic?.message, 'integer divide by zero', `launch ${launch}`);
      const tl = rec.timeline;
      const main = rec.panic!.thread;
      assert.equal(tl.threads[main].id, '0');
      const s = rec.statements!;
      assert.deepEqual([s.location(main, s.lastEvent(main)).line, s.location(main, s.lastEvent(main)).column], [17, 5], 'on q := 7 / z');
      const h = rec.histories!;
      const k = h.entries('k').filter((e) => e.thread === main);
      assert.deepEqual(k.map((e) => e.value), Array.from({ length: 2001 }, (_, n) => String(n)), 'k counts 0 to 2000, each once');
      assert.ok(k.every((e) => !e.thisReplayOnly), 'the panicking goroutine\'s values are sure');
      assert.deepEqual(h.entries('z').map((e) => [tl.threads[e.thread].id, e.value]), [['0', '0']]);
      for (const g of ['0.1', '0.2', '0.3']) {
        const t = tl.threadIndex(g);
        if (t < 0) continue; // a sibling that did not run before main panicked
        const values = h.entries('i').filter((e) => e.thread === t).map((e) => e.value);
        assert.deepEqual(values, values.map((_, n) => String(n)), `goroutine ${g}'s i counts 0, 1, 2, ... (launch ${launch})`);
      }
      sure.push(JSON.stringify({ events: s.sureEventsOf(main), k: k.map((e) => `${e.value}@${e.position}`) }));
    }
    assert.ok(sure.length >= 8, `${sure.length} launches in the time`);
    assert.ok(sure.every((x) => x === sure[0]), 'what is sure is the same on every launch');
  });
});
