// Per-value marks in frame locals (issue 25): `frozen-run where` (JSON and text) and the MCP
// server's frames say which of a frame's values machin printed in this replay but may not in
// another, beside the value (the value text stays the value). With the real machin 0.137.0 on a
// program of our own: the producer stores `after` once it has sent both values; nothing orders
// that before the consumer's panic (it races with the exit), while `u` and `w` come before the
// sends the consumer received and are printed in every replay. That is the truth, read off the
// program's text; the consumer first counts to 3000 so the producer almost always gets there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { recordProgram, type Recorded } from '../support/machin';
import { tempDir } from '../machin/support';
import { CLI, MACHIN, McpSession } from './support';

const RECV = `func producer(ch) {
    u := 12
    w := u - 12
    ch <- u
    ch <- w
    after := w + 9
    after = after * 2
}

func consumer(ch, done) {
    first := <-ch
    second := <-ch
    c := 0
    for c < 3000 {
        c = c + 1
    }
    ratio := first / second
    done <- ratio
}

func main() {
    ch := make(chan int)
    done := make(chan int)
    go producer(ch)
    go consumer(ch, done)
    out := <-done
    println(str(out))
}
`;

type Frame = { function: string; line: number; locals: Record<string, string>; localsThisReplayOnly?: string[] };

/** The producer's frame at the panic says u = 12 and w = 0 unmarked; `after`, when printed, is 18 and marked. */
function checkProducer(frame: Frame, where: string): boolean {
  assert.equal(frame.function, 'producer', where);
  assert.equal(frame.locals.u, '12', where);
  assert.equal(frame.locals.w, '0', where);
  const marked = frame.localsThisReplayOnly ?? [];
  assert.ok(!marked.includes('u') && !marked.includes('w'), `${where}: u and w are printed by every replay (${JSON.stringify(frame)})`);
  if (frame.locals.after === undefined) return false;
  assert.equal(frame.locals.after, '18', where);
  assert.deepEqual(marked, ['after'], `${where}: after is marked this replay only`);
  return true;
}

let recv: Recorded;
let mcp: McpSession;
before(async () => {
  recv = recordProgram(tempDir('frame-marks-'), 'recv', RECV);
  mcp = await McpSession.start(['--toolchain', '--machin', MACHIN]);
});
after(() => mcp?.close());

describe('which values of a frame are this replay only', () => {
  it('frozen-run where --json and text: per frame localsThisReplayOnly, and the text says it beside the value', () => {
    let seen = 0;
    for (let launch = 0; launch < 3; launch++) {
      const json = spawnSync(process.execPath, [CLI, 'where', recv.trace, '--json', '--machin', MACHIN], { encoding: 'utf8', timeout: 120_000 });
      assert.equal(json.status, 0, json.stderr);
      const doc = JSON.parse(json.stdout);
      const consumer = doc.goroutines.find((g: { id: string }) => g.id === '0.2');
      assert.deepEqual([consumer.frames[0].locals.first, consumer.frames[0].locals.second], ['12', '0']);
      assert.equal(consumer.frames[0].localsThisReplayOnly, undefined, 'the goroutine that panicked printed all of its values');
      const producer = doc.goroutines.find((g: { id: string }) => g.id === '0.1');
      const marked = checkProducer(producer.frames[0], `where --json, launch ${launch}`);
      const text = spawnSync(process.execPath, [CLI, 'where', recv.trace, '--machin', MACHIN], { encoding: 'utf8', timeout: 120_000 }).stdout;
      assert.match(text, /^ {8}u = 12$/m);
      assert.match(text, /^ {8}second = 0$/m);
      if (marked && /after = /.test(text)) assert.match(text, /^ {8}after = 18 {2}\(this replay only\)$/m);
      if (marked) seen++;
    }
    assert.ok(seen > 0, 'the producer stored after its last send in at least one of 3 launches');
  });

  it('MCP get_state: each frame\'s localsThisReplayOnly, and the thread\'s values marked the same way (checked against the output schema)', async () => {
    let seen = 0;
    for (let launch = 0; launch < 3; launch++) {
      const opened = await mcp.ok('open_recording', { path: recv.trace });
      await mcp.ok('move', { recording: opened.recording, action: 'to_panic' });
      const state = await mcp.ok('get_state', { recording: opened.recording, thread: '0.1' });
      const thread = state.threads.items[0];
      const marked = checkProducer(thread.frames[0], `get_state, launch ${launch}`);
      if (marked) {
        seen++;
        assert.ok(thread.thisReplayOnly.includes('after'), JSON.stringify(thread));
      }
      assert.ok(!(thread.thisReplayOnly ?? []).includes('u'));
      await mcp.ok('close_recording', { recording: opened.recording });
    }
    assert.ok(seen > 0, 'the producer stored after its last send in at least one of 3 launches');
  });
});
