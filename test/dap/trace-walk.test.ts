// The standalone adapter over stdio on every machin fixture trace, with no machin on PATH (trace
// only): threads, a walk to the end and back record by record, and every step's inverse.
import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { buildAdapter, lastCursor, launchAndStop, machinFixtures, moveAndStop, startAdapter, topFrame, traceRecords, type Session } from './support';

before(buildAdapter);

for (const fx of machinFixtures()) {
  const records = traceRecords(fx.trace);
  if (records.length === 0) continue; // the empty (deadlock) trace: see launch-errors
  const goroutines = [...new Set(records.map((r) => r.goroutine))];
  const schedBefore = (i: number) => records.slice(0, i + 1).filter((r) => r.tag === 'S').length;
  const total = schedBefore(records.length - 1);

  describe(`trace only: ${fx.name}`, () => {
    let s: Session;
    let ids: Map<string, number>;
    // A fresh session for each test: one failure does not leave the next one somewhere else.
    beforeEach(async () => {
      s = await startAdapter();
      const stop = await launchAndStop(s, { recording: fx.trace, stopOnEntry: true, noToolchain: true });
      assert.equal(stop.body.reason, 'entry');
      const threads = await s.dc.threadsRequest();
      ids = new Map(threads.body.threads.map((t) => [t.name.split(' ')[0], t.id]));
    });
    afterEach(() => s.dc.stop());

    test('threads are the goroutines of the trace', async () => {
      assert.deepEqual([...ids.keys()].sort(), [...goroutines].sort());
    });

    test('stepIn walks every record to the end, stepBackIn walks back to the start', async () => {
      for (let i = 0; i < records.length; i++) {
        const stop = await moveAndStop(s, () => s.dc.stepInRequest({ threadId: 1 }));
        assert.equal(stop.body.threadId, ids.get(records[i].goroutine), `record ${i} thread`);
        const top = await topFrame(s, stop.body.threadId!);
        assert.equal(top.line, records[i].line, `record ${i} line`);
        assert.equal(top.source?.path, undefined, 'the recording is served by sourceReference, not by path');
        assert.ok((top.source?.sourceReference ?? 0) > 0);
        assert.equal(lastCursor(s).position, schedBefore(i), `position after record ${i}`);
      }
      const end = await moveAndStop(s, () => s.dc.stepInRequest({ threadId: 1 }));
      assert.match(end.body.description ?? '', /End of the recording/);
      assert.equal(lastCursor(s).reason, 'end');
      assert.equal(lastCursor(s).atEnd, true);
      // The last record is done at the end's own op, so the first Step Back from the end goes one
      // op earlier, to the record before it (issue 12: it must not report the same op again).
      for (let i = records.length - 2; i >= -1; i--) {
        const stop = await moveAndStop(s, () => s.dc.customRequest('frozenRun/stepBackIn', {}));
        if (i >= 0) {
          const top = await topFrame(s, ids.get(records[i].goroutine)!);
          assert.equal(top.line, records[i].line, `back to record ${i}`);
          assert.equal(lastCursor(s).position, schedBefore(i));
        } else {
          assert.equal(lastCursor(s).position, 0);
          assert.equal(lastCursor(s).reason, 'start');
          assert.match(stop.body.description ?? '', /Start of the recording/);
        }
      }
    });

    test('every step has an inverse (next/stepBack, stepIn/stepBackIn) from every record', async () => {
      for (let i = 0; i < records.length; i++) {
        const at = await moveAndStop(s, () => s.dc.stepInRequest({ threadId: 1 }));
        const t = at.body.threadId!;
        const here = { line: (await topFrame(s, t)).line, position: lastCursor(s).position, record: lastCursor(s).record };
        // On the thread's last record, `next` runs to the end of the recording; stepBack comes back,
        // except onto a record done at the end's own op: that is the end's state, so Step Back goes
        // one op earlier (and the walk is put back on record i).
        await moveAndStop(s, () => s.dc.nextRequest({ threadId: t }));
        const fromEnd = lastCursor(s).atEnd === true;
        await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: t }));
        if (fromEnd && here.position === total) {
          assert.ok(lastCursor(s).position < total, `stepBack from the end at record ${i} goes to an earlier op`);
          await moveAndStop(s, () => s.dc.customRequest('frozenRun/goto', { record: here.record }));
        }
        assert.deepEqual({ line: (await topFrame(s, t)).line, position: lastCursor(s).position, record: lastCursor(s).record }, here, `next then stepBack at record ${i}`);
        await moveAndStop(s, () => s.dc.stepBackRequest({ threadId: t }));
        await moveAndStop(s, () => s.dc.nextRequest({ threadId: t }));
        assert.deepEqual({ line: (await topFrame(s, t)).line, position: lastCursor(s).position, record: lastCursor(s).record }, here, `stepBack then next at record ${i}`);
        await moveAndStop(s, () => s.dc.customRequest('frozenRun/stepBackIn', {}));
        await moveAndStop(s, () => s.dc.stepInRequest({ threadId: t }));
        assert.equal(lastCursor(s).record, here.record);
      }
      await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: 1 }));
      assert.equal(lastCursor(s).position, 0);
    });

    test('next moves by the thread\'s own records; stepOut / stepBackOut go to its last / first record', async () => {
      const g = goroutines[goroutines.length - 1];
      const mine = records.filter((r) => r.goroutine === g);
      const t = ids.get(g)!;
      for (const r of mine) {
        await moveAndStop(s, () => s.dc.nextRequest({ threadId: t }));
        assert.equal((await topFrame(s, t)).line, r.line);
      }
      await moveAndStop(s, () => s.dc.customRequest('frozenRun/stepBackOut', { threadId: t }));
      assert.equal((await topFrame(s, t)).line, mine[0].line);
      await moveAndStop(s, () => s.dc.stepOutRequest({ threadId: t }));
      assert.equal((await topFrame(s, t)).line, mine[mine.length - 1].line);
      await moveAndStop(s, () => s.dc.reverseContinueRequest({ threadId: t }));
    });
  });
}
