// The facts the extension takes from the adapter's events (debug-adapter/contract.ts), as data:
// thread labels from the threads event, and the stopped thread's watched values and program place
// from the cursor event (what the language server shows as inline values). Checked against the
// crash fixture's program and machin's recorded `--print` output, with the machin stand-in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EVENT, type CursorEventBody, type ThreadsEventBody } from '../../debug-adapter/contract';
import { buildAdapter, copyFixture, launchAndStop, machinFixtures, moveAndStop, standinEnv, startAdapter } from './support';

before(buildAdapter);

const crash = machinFixtures().find((f) => f.name === 'crash/crash.mflrr')!;

/** The last value machin printed for each name on goroutine `g` at or before op `p`. */
function printedAt(g: string, p: number): Record<string, string> {
  const outputs = JSON.parse(readFileSync(path.join(crash.dir, 'outputs.json'), 'utf8')) as { replays: Array<{ args: string[]; stderr: string }> };
  const run = outputs.replays.find((r) => r.args.includes('--print'))!;
  const values: Record<string, string> = {};
  for (const m of run.stderr.matchAll(/^probe (\S+) (\w+) = (.*) @op(\d+)$/gm)) if (m[1] === g && Number(m[4]) <= p) values[m[2]] = m[3];
  return values;
}

test('thread labels and the watched values at the cursor arrive as event data', async () => {
  const copy = copyFixture(crash);
  const s = await startAdapter(standinEnv());
  const threads: ThreadsEventBody[] = [];
  const cursors: CursorEventBody[] = [];
  s.dc.on(EVENT.threads, (e: DebugProtocol.Event) => threads.push(e.body));
  s.dc.on(EVENT.cursor, (e: DebugProtocol.Event) => cursors.push(e.body));
  try {
    await launchAndStop(s, { recording: copy.trace, replayToPanic: true, timeLimitSeconds: 30 });
    // crash.mfl: main spawns two `worker`s; the labels are the functions the goroutines run.
    assert.equal(threads.length, 1);
    assert.deepEqual(Object.fromEntries(threads[0].threads.map((t) => [t.id, t.label])), { '0': 'main', '0.1': 'worker', '0.2': 'worker' });
    assert.equal(threads[0].threadCount, 3);
    const atPanic = cursors[cursors.length - 1];
    assert.equal(atPanic.thread, '0');
    assert.equal(atPanic.threadLabel, 'main');
    assert.ok(atPanic.watched, 'no watched values at the panic');
    assert.equal(path.basename(atPanic.watched.programPath), path.basename(crash.program));
    assert.deepEqual(atPanic.watched.values, printedAt('0', atPanic.position));
    assert.equal(atPanic.watched.values.idx, '12');
    // One step back: the values as of that position, not the panic's.
    await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: atPanic.threadId }));
    const back = cursors[cursors.length - 1];
    assert.ok(back.position < atPanic.position);
    assert.deepEqual(back.watched?.values, printedAt('0', back.position));
  } finally {
    await s.dc.stop();
  }
});
