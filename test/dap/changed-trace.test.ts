// A trace changed on disk while a session has it open: the session indexed one version of the
// file, so its served text must be that version or nothing. Cut to 15 lines after launch, the
// `source` request answers that the trace changed and what to do, never the new text with frames
// pointing at lines it no longer has.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildAdapter, lastCursor, launchAndStop, MACHIN_FIXTURES, startAdapter, topFrame, type Session } from './support';

before(buildAdapter);

describe('a trace changed after launch', () => {
  let s: Session;
  let dir: string;
  let trace: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-changed-'));
    trace = path.join(dir, 'reader.mflrr');
    copyFileSync(path.join(MACHIN_FIXTURES, 'reader/reader.mflrr'), trace);
    s = await startAdapter();
    await launchAndStop(s, { recording: trace, stopOnEntry: true, noToolchain: true });
  });
  after(async () => {
    await s.dc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the unchanged trace is served as it is', async () => {
    const top = await topFrame(s, lastCursor(s).threadId);
    const doc = await s.dc.sourceRequest({ source: top.source, sourceReference: top.source!.sourceReference! });
    assert.equal(doc.body.content, readFileSync(trace, 'utf8'));
  });

  test('after a truncation the source request says the trace changed, and serves no other text', async () => {
    const top = await topFrame(s, lastCursor(s).threadId);
    const before = readFileSync(trace).length;
    truncateSync(trace, 40);
    await assert.rejects(
      s.dc.sourceRequest({ source: top.source, sourceReference: top.source!.sourceReference! }),
      (e: Error) => {
        assert.equal(
          e.message,
          `${trace}: the trace changed on disk after this session read it (${before} bytes then, 40 now), so its lines no longer match the session's records; restart the debug session to read it again`,
        );
        return true;
      },
    );
  });
});
