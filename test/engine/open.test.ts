// readRecording detects the format from the first bytes, never from the file name.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { MflrrRecording } from '../../replay-engine/mflrr/recording';
import { RecordingError } from '../../replay-engine/model/errors';
import { detectFormat, openRecording, readRecording } from '../../replay-engine/open';
import { MACHIN_FIXTURES, TIN_FIXTURES } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');

describe('readRecording', () => {
  it('a trace named .tcap is read as a trace', async () => {
    const file = join(dir, 'trace.tcap');
    copyFileSync(join(MACHIN_FIXTURES, 'flaky/flaky.mflrr'), file);
    assert.equal(await detectFormat(file), 'mflrr');
    const rec = await readRecording(file);
    assert.ok(rec instanceof MflrrRecording);
    assert.equal(rec.timeline.stepCount, 21);
  });

  it('a capsule named .mflrr is read as a capsule', async () => {
    const file = join(dir, 'capsule.mflrr');
    copyFileSync(join(TIN_FIXTURES, 'orders-panic.tcap'), file);
    assert.equal(await detectFormat(file), 'tcap');
    const rec = await readRecording(file, { keyHex: KEY });
    assert.equal(rec.timeline.format, 'tcap');
  });

  it('openRecording with noToolchain runs nothing and keeps the trace as read', async () => {
    const rec = await openRecording(join(MACHIN_FIXTURES, 'crash/crash.mflrr'), { noToolchain: true, env: { PATH: '/nonexistent' } });
    assert.ok(rec instanceof MflrrRecording);
    assert.equal(rec.panic, null);
    assert.equal(rec.verify, null);
    assert.equal(rec.histories, null);
  });

  it('a relative path is resolved; the timeline names the absolute file', async () => {
    const rec = await readRecording(relative(process.cwd(), join(MACHIN_FIXTURES, 'stdin/stdin.mflrr')));
    assert.equal(rec.timeline.file, join(MACHIN_FIXTURES, 'stdin/stdin.mflrr'));
  });

  it('a folder is an error, not a crash', async () => {
    await assert.rejects(readRecording(dir), (e: unknown) => e instanceof RecordingError && e.code === 'io' && /folder|EISDIR|directory/.test(e.message));
  });
});
