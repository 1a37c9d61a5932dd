// frozenRun/divergence over DAP on the orders-panic capsule (12 effects): the extension reports
// where `tin replay --against` diverged ("divergence at effect N"); the `divergence` exception
// filter then stops on that effect in both directions, with the reported message, and the
// timeline data carries it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildAdapter, FIXTURE_KEY, lastCursor, launchAndStop, moveAndStop, noMachinEnv, startAdapter, TIN_FIXTURES, type Session } from './support';

before(buildAdapter);

const ORDERS = path.join(TIN_FIXTURES, 'orders-panic.tcap');
const MESSAGE = 'diverged at effect 5: got redis@1 "3:GET 6:cart:8", recorded redis@1 "3:GET 6:cart:7"';

describe('capsule divergence reported by a replay against a build', () => {
  let s: Session;
  let recordCount = 0;
  before(async () => {
    s = await startAdapter(noMachinEnv({ TIN_REPLAY_KEY: FIXTURE_KEY }));
    // Only the divergence filter, so the panic does not stop the runs below.
    await launchAndStop(s, { recording: ORDERS, stopOnEntry: true, noToolchain: true }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['divergence'] }));
    recordCount = (await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body.recordCount;
  });
  after(() => s.dc.stop());

  test('no divergence is known before one is reported', async () => {
    const tl = await s.dc.customRequest('frozenRun/timeline', { count: 0 });
    assert.equal(tl.body.divergence, null);
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atEnd, true);
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atStart, true);
  });

  test('effect N marks record N: the response, the event and the timeline say where', async () => {
    const event = s.dc.waitForEvent('frozenRun/divergence');
    const res = await s.dc.customRequest('frozenRun/divergence', { effect: 5, message: MESSAGE });
    const d = res.body.divergence;
    assert.equal(d.record, 5);
    assert.equal(d.position, 6, 'six effects done once effect 5 has happened');
    assert.equal(d.source, 'replay');
    assert.equal(d.message, MESSAGE);
    assert.deepEqual((await event).body, res.body);
    const tl = await s.dc.customRequest('frozenRun/timeline', { count: 0 });
    assert.deepEqual(tl.body.divergence, d);
  });

  test('the divergence filter stops there going forward and going back, with the message', async () => {
    const line = (await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body.divergence.line;
    let stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'exception');
    assert.match(stop.body.description ?? '', /^Divergence at effect 5: /);
    assert.equal(lastCursor(s).record, 5);
    assert.equal(lastCursor(s).line, line);
    assert.equal((lastCursor(s) as unknown as { exception: string }).exception, 'divergence');
    const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId! });
    assert.equal(info.body.exceptionId, 'divergence');
    assert.equal(info.body.description, MESSAGE);
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atEnd, true);
    stop = await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'exception');
    assert.equal(lastCursor(s).record, 5);
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atStart, true);
  });

  test('turning the divergence filter off passes over it', async () => {
    await s.dc.setExceptionBreakpointsRequest({ filters: [] });
    await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atEnd, true);
    await s.dc.setExceptionBreakpointsRequest({ filters: ['divergence'] });
    await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { record: -1 }));
  });

  test('a call after the last effect is marked on the last record; null clears it', async () => {
    const res = await s.dc.customRequest('frozenRun/divergence', { effect: recordCount, message: 'got redis@1 "x", recorded nothing more' });
    assert.equal(res.body.divergence.record, recordCount - 1);
    assert.match(res.body.divergence.description, /after the last effect/);
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'exception');
    assert.equal(lastCursor(s).record, recordCount - 1);
    const cleared = await s.dc.customRequest('frozenRun/divergence', { effect: null });
    assert.equal(cleared.body.divergence, null);
    await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(lastCursor(s).atStart, true);
    assert.equal((await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body.divergence, null);
  });

  test('the reported divergence holds across a restart that reads the capsule again', async () => {
    await s.dc.customRequest('frozenRun/divergence', { effect: 3 });
    await moveAndStop(s, () => s.dc.restartRequest({ arguments: { recording: ORDERS, stopOnEntry: true, noToolchain: false } } as never));
    const stop = await moveAndStop(s, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(stop.body.reason, 'exception');
    assert.equal(lastCursor(s).record, 3);
    const info = await s.dc.exceptionInfoRequest({ threadId: stop.body.threadId! });
    assert.equal(info.body.description, 'tin replay --against: divergence at effect 3');
  });

  test('a restart on another capsule does not carry the divergence over', async () => {
    const other = path.join(TIN_FIXTURES, 'checkout-declined.tcap');
    await moveAndStop(s, () => s.dc.restartRequest({ arguments: { recording: other, stopOnEntry: true, noToolchain: true } } as never));
    assert.equal((await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body.divergence, null);
    await moveAndStop(s, () => s.dc.restartRequest({ arguments: { recording: ORDERS, stopOnEntry: true, noToolchain: true } } as never));
    assert.equal((await s.dc.customRequest('frozenRun/timeline', { count: 0 })).body.divergence, null);
  });

  test('bad arguments get a clear error', async () => {
    await assert.rejects(s.dc.customRequest('frozenRun/divergence', {}), /needs \{ effect \}/);
    await assert.rejects(s.dc.customRequest('frozenRun/divergence', { effect: recordCount + 1 }), /past the end of the capsule/);
    await assert.rejects(s.dc.customRequest('frozenRun/divergence', { effect: 'five' }), /effect number/);
  });
});
