// Launching stopped at a place: `startPosition` (ops done) and `startRecord`, as "Debug from
// divergence" in the compare view sends them, on the pipeline trace (trace only).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, before, describe, test } from 'node:test';
import { checkLaunchArguments } from '../../debug-adapter/launch-config';
import { buildAdapter, lastCursor, launchAndStop, MACHIN_FIXTURES, moveAndStop, startAdapter, topFrame, traceRecords, type Session } from './support';

before(buildAdapter);

const TRACE = path.join(MACHIN_FIXTURES, 'pipeline/pipeline.mflrr');
const records = traceRecords(TRACE);
/** Ops done once record i has happened (I/O records complete no op). */
const positionAfter = (i: number) => records.slice(0, i + 1).filter((r) => r.tag === 'S').length;

describe('start position', () => {
  let s: Session | undefined;
  afterEach(async () => {
    await s?.dc.stop();
    s = undefined;
  });

  test('the launch check accepts startPosition and startRecord (the compare view asks it at runtime)', () => {
    assert.notEqual(typeof checkLaunchArguments({ recording: 'x.mflrr', startPosition: 0 }), 'string');
    assert.notEqual(typeof checkLaunchArguments({ recording: 'x.mflrr', startRecord: -1 }), 'string');
    assert.match(checkLaunchArguments({ recording: 'x.mflrr', startPosition: -1 }) as string, /startPosition/);
    assert.match(checkLaunchArguments({ recording: 'x.mflrr', startPosition: 2.5 }) as string, /whole number/);
    assert.match(checkLaunchArguments({ recording: 'x.mflrr', startRecord: '3' }) as string, /startRecord/);
    assert.match(checkLaunchArguments({ recording: 'x.mflrr', startPosition: 3, replayToPanic: true }) as string, /keep one/);
  });

  test('startPosition: stopped on the last record done at that position, reason entry', async () => {
    s = await startAdapter();
    const p = 7;
    const stop = await launchAndStop(s, { recording: TRACE, stopOnEntry: true, noToolchain: true, startPosition: p });
    assert.equal(stop.body.reason, 'entry');
    assert.match(stop.body.description ?? '', new RegExp(`^Started at op ${p}, line \\d+$`));
    const c = lastCursor(s);
    assert.equal(c.position, p);
    const last = records.map((_, i) => i).filter((i) => positionAfter(i) <= p).pop()!;
    assert.equal(c.record, last);
    assert.equal((await topFrame(s, stop.body.threadId!)).line, records[last].line);
    // It is a place like any other: step back and forth from it.
    await moveAndStop(s, () => s!.dc.customRequest('frozenRun/stepBackIn', {}));
    assert.equal(lastCursor(s).record, last - 1);
    await moveAndStop(s, () => s!.dc.stepInRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).record, last);
  });

  test('startRecord wins over startPosition and names one record exactly; restart starts there again', async () => {
    s = await startAdapter();
    const r = 9;
    const stop = await launchAndStop(s, { recording: TRACE, noToolchain: true, startPosition: 2, startRecord: r });
    assert.equal(stop.body.reason, 'entry');
    assert.equal(lastCursor(s).record, r);
    assert.equal(lastCursor(s).position, positionAfter(r));
    assert.equal((await topFrame(s, stop.body.threadId!)).line, records[r].line);
    await moveAndStop(s, () => s!.dc.continueRequest({ threadId: 1 }));
    const again = await moveAndStop(s, () => s!.dc.restartRequest({}));
    assert.equal(again.body.reason, 'entry');
    assert.equal(lastCursor(s).record, r);
  });

  test('a start outside the recording ends the launch with a message saying the range', async () => {
    s = await startAdapter();
    await assert.rejects(s.dc.launchRequest({ recording: TRACE, noToolchain: true, startPosition: 10_000 } as never), /startPosition. 10000 is past the end of pipeline\.mflrr: it has \d+ ops/);
    await s.dc.stop();
    s = await startAdapter();
    await assert.rejects(s.dc.launchRequest({ recording: TRACE, noToolchain: true, startRecord: records.length } as never), new RegExp(`records 0\\.\\.${records.length - 1}`));
  });
});
