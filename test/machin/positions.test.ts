// Value positions that do not depend on luck (docs/value-positions.md): machin's `@op` changes
// from replay to replay when goroutines run side by side, the history Frozen Run shows must not.
// A program of three talkers is recorded here with the real machin and replayed five times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import type { Recording } from '../../replay-engine/model/recording';
import { expectedHistory, machinPath, probeLines, recordProgram, runMachin } from '../support/machin';
import { tempDir } from './support';

const TALKERS = `func talker(ch, id, n) { i := 0  for i < n { msg := id * 100 + i  ch <- msg  i = i + 1 } }
func main() {
    ch := make(chan int)
    go talker(ch, 1, 6)
    go talker(ch, 2, 6)
    go talker(ch, 3, 6)
    got := 0  sum := 0
    for got < 18 { v := <-ch  sum = sum + v  got = got + 1 }
    println("sum " + str(sum))
}
`;
const NAMES = ['i', 'msg', 'got', 'sum', 'v'];

/** The values that surely ran (the same in every replay); those of this replay only are marked and left out here. */
function history(rec: Recording, name: string) {
  return rec.histories!.entries(name).filter((e) => !e.thisReplayOnly).map((e) => ({ op: e.position, goroutine: rec.timeline.threads[e.thread].id, value: e.value }));
}

describe('value positions', () => {
  it('five replays of one trace give the same history, op for op, placed by each goroutine\'s own ops', async () => {
    const dir = tempDir('positions-test-');
    const { trace } = recordProgram(dir, 'talkers', TALKERS);
    const runs: Array<Record<string, ReturnType<typeof history>>> = [];
    for (let n = 0; n < 5; n++) {
      const rec = await readMflrr(trace);
      await enrichWithMachin(rec, { machinPath: machinPath(), programRoots: [dir], timeLimitMs: 30_000 });
      assert.equal(rec.verify?.verdict, 'FAITHFUL', JSON.stringify(rec.warnings));
      runs.push(Object.fromEntries(NAMES.map((name) => [name, history(rec, name)])));
    }
    for (let n = 1; n < runs.length; n++) assert.deepEqual(runs[n], runs[0], `replay ${n + 1} differs from the first`);

    // The same as the rule gives from machin's own probe lines of an independent replay, whatever
    // @op numbers that replay printed.
    const raw = runMachin(['replay', trace, '--print', NAMES.join(',')], { timeoutMs: 30_000 });
    const probes = probeLines(raw.stderr);
    for (const name of NAMES) {
      assert.ok(runs[0][name].length > 0, name);
      assert.deepEqual(runs[0][name], expectedHistory(trace, probes, name), name);
    }
    // A talker's msg is stored before its send: placed after its previous send, so the value
    // is there when the send that carries it happens.
    const first = runs[0].msg.find((e) => e.goroutine === '0.1')!;
    assert.deepEqual(first, { op: 0, goroutine: '0.1', value: '100' });
  });
});
