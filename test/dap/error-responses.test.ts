// How errors reach the user, on the reader trace (trace only). VS Code turns an error response
// whose `body.error.showUser` is true into a notification; without it the message shows where the
// request came from. A hover over trace text that is no name must show nothing, a watch its error
// in place, and custom requests (sent by the extension, which shows their errors itself) must not
// notify twice. Run Back to Cursor without a line says what it needs.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildAdapter, launchAndStop, MACHIN_FIXTURES, moveAndStop, rawRequest, startAdapter, topFrame, type Session } from './support';

before(buildAdapter);

const TRACE = path.join(MACHIN_FIXTURES, 'reader/reader.mflrr');

function errorOf(r: { success: boolean; message?: string; body?: { error?: { showUser?: boolean; format?: string } } }) {
  assert.equal(r.success, false);
  return { showUser: r.body?.error?.showUser === true, text: r.body?.error?.format ?? r.message ?? '' };
}

describe('error responses (reader trace)', () => {
  let s: Session;
  let frameId = 0;
  before(async () => {
    s = await startAdapter();
    await launchAndStop(s, { recording: TRACE, stopOnEntry: true, noToolchain: true });
    const stop = await moveAndStop(s, () => s.dc.stepInRequest({ threadId: 1 }));
    frameId = (await topFrame(s, stop.body.threadId!)).frames[0].id;
  });
  after(() => s.dc.stop());

  test('hover over text that is no name or field: an error VS Code does not show', async () => {
    for (const expression of ['S', 'feed', '0.1', '68656c6c6f', '(']) {
      const e = errorOf(await rawRequest(s.dc, 'evaluate', { expression, frameId, context: 'hover' }));
      assert.equal(e.showUser, false, expression);
    }
    const ok = await s.dc.evaluateRequest({ expression: 'kind', frameId, context: 'hover' });
    assert.ok(ok.body.result.length > 0);
  });

  test('watch and console: the message in place, never a notification', async () => {
    for (const context of ['watch', 'repl']) {
      const e = errorOf(await rawRequest(s.dc, 'evaluate', { expression: 'nosuchname', frameId, context }));
      assert.equal(e.showUser, false, context);
      assert.match(e.text, /nosuchname: not known in/);
    }
  });

  test('Run Back to Cursor / Run to Cursor without a place say what they need', async () => {
    const back = errorOf(await rawRequest(s.dc, 'frozenRun/runBackTo', {}));
    assert.match(back.text, /^Run Back to Cursor needs a line of the recording: put the cursor on a record line/);
    const fwd = errorOf(await rawRequest(s.dc, 'frozenRun/runTo', {}));
    assert.match(fwd.text, /^Run to Cursor needs a line of the recording/);
  });

  test('custom request errors go back without showUser; errors of DAP requests VS Code sends itself keep it', async () => {
    assert.equal(errorOf(await rawRequest(s.dc, 'frozenRun/runBackTo', {})).showUser, false);
    assert.equal(errorOf(await rawRequest(s.dc, 'frozenRun/goto', { position: -5 })).showUser, false);
    assert.equal(errorOf(await rawRequest(s.dc, 'next', { threadId: 999 })).showUser, true);
  });

  test('frozenRun/divergence is for capsules: a trace says where its divergence comes from', async () => {
    await assert.rejects(s.dc.customRequest('frozenRun/divergence', { effect: 2 }), /machin replay --verify/);
    const cleared = await s.dc.customRequest('frozenRun/divergence', { effect: null });
    assert.equal(cleared.body.divergence, null);
  });
});
