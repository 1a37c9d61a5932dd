// The facts the extension takes from the adapter's events (debug-adapter/contract.ts), as data:
// thread labels from the threads event, and the stopped thread's watched values and program place
// from the cursor event (what the language server shows as inline values). Checked against the
// crash fixture's program and the real machin's `--print` values, placed by the position rule
// (test/support/machin.ts computes it apart from the engine).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { expectedHistory, pointTraceAt, probeLines, runMachin } from '../support/machin';
import { EVENT, type CursorEventBody, type ThreadsEventBody } from '../../debug-adapter/contract';
import { buildAdapter, copyFixture, launchAndStop, machinFixtures, moveAndStop, machinEnv, startAdapter } from './support';

before(buildAdapter);

const crash = machinFixtures().find((f) => f.name === 'crash/crash.mflrr')!;

const NAMES = ['ch', 'xs', 'idx', 'a', 'b'];

/** machin's values for goroutine `g` as of position `p`: the last of each name placed at or before it. */
function printedAt(trace: string, g: string, p: number): Record<string, string> {
  // The fixture names its program where it was recorded: replay a copy that names the one here.
  const here = pointTraceAt(trace, path.join(path.dirname(trace), path.basename(crash.program)), `${trace}.here.mflrr`);
  const probes = probeLines(runMachin(['replay', here, '--print', NAMES.join(',')], { timeoutMs: 30_000 }).stderr);
  assert.ok(probes.length > 0, 'machin printed no values');
  const values: Record<string, string> = {};
  for (const name of NAMES) {
    const last = expectedHistory(trace, probes, name, '0').filter((e) => e.goroutine === g && e.op <= p).at(-1);
    if (last) values[name] = last.value;
  }
  return values;
}

/** The first cursor event from `from` on that carries watched values (Replay to Panic sends them once the values replay is in). */
async function cursorWithValues(cursors: CursorEventBody[], from: number): Promise<CursorEventBody> {
  for (let waited = 0; waited < 60_000; waited += 50) {
    const c = cursors.slice(from).find((x) => x.watched);
    if (c) return c;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no cursor event with watched values');
}

test('thread labels and the watched values at the cursor arrive as event data', async () => {
  const copy = copyFixture(crash);
  const s = await startAdapter(machinEnv());
  const threads: ThreadsEventBody[] = [];
  const cursors: CursorEventBody[] = [];
  s.dc.on(EVENT.threads, (e: DebugProtocol.Event) => threads.push(e.body));
  s.dc.on(EVENT.cursor, (e: DebugProtocol.Event) => cursors.push(e.body));
  try {
    // Values as of the cursor's position (record level); as of a statement in source-level.test.ts.
    await launchAndStop(s, { recording: copy.trace, replayToPanic: true, sourceLevel: false, timeLimitSeconds: 30 });
    // crash.mfl: main spawns two `worker`s; the labels are the functions the goroutines run.
    assert.equal(threads.length, 1);
    assert.deepEqual(Object.fromEntries(threads[0].threads.map((t) => [t.id, t.label])), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    assert.equal(threads[0].threadCount, 3);
    const atPanic = await cursorWithValues(cursors, 0);
    assert.equal(atPanic.thread, '0');
    assert.equal(atPanic.threadLabel, 'main');
    assert.equal(atPanic.reason, 'exception');
    assert.equal(path.basename(atPanic.watched!.programPath), path.basename(crash.program));
    assert.deepEqual(atPanic.watched!.values, printedAt(copy.trace, '0', atPanic.position));
    assert.equal(atPanic.watched!.values.idx, '12');
    // One step back: the values as of that position, not the panic's.
    const before = cursors.length;
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: atPanic.threadId }));
    const back = await cursorWithValues(cursors, before);
    assert.ok(back.position < atPanic.position);
    assert.deepEqual(back.watched?.values, printedAt(copy.trace, '0', back.position));
  } finally {
    await s.dc.stop();
  }
});
