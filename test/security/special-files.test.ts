// Recordings that are not regular files: a link to /dev/zero or /dev/urandom is never read (it has
// no end), a FIFO is never waited on (its open would block forever). Each is refused by name, at
// once, by every reader that opens a recording.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readTracedProgram } from '../../replay-engine/machin/find-program';
import { RecordingError } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';
import { authenticatedKey } from '../../replay-engine/tcap/read-capsule';
import { FIXTURE_KEY } from '../tcap/support/seal';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-special-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function link(name: string, target: string): string {
  const file = join(dir, name);
  symlinkSync(target, file);
  return file;
}
function fifo(name: string): string {
  const file = join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

async function refused(read: Promise<unknown>, file: string, what: RegExp): Promise<void> {
  await assert.rejects(read, (e: unknown) => {
    assert.ok(e instanceof RecordingError, `not a RecordingError: ${String(e)}`);
    assert.ok(e.message.startsWith(`${file}: not a regular file: it is `), e.message);
    assert.match(e.message, what);
    return true;
  });
}

describe('recordings that are not regular files', () => {
  for (const [name, target, what] of [
    ['zero.tcap', '/dev/zero', /character device/],
    ['random.tcap', '/dev/urandom', /character device/],
    ['zero.mflrr', '/dev/zero', /character device/],
    ['folder.mflrr', '/tmp', /a folder/],
  ] as const) {
    it(`${name} -> ${target} is refused, not read`, async () => {
      const file = link(name, target);
      await refused(readRecording(file, { keyHex: FIXTURE_KEY }), file, what);
    });
  }

  it('a FIFO named .mflrr or .tcap is refused without waiting for a writer', async () => {
    for (const name of ['pipe.mflrr', 'pipe.tcap']) {
      const file = fifo(name);
      await refused(readRecording(file, { keyHex: FIXTURE_KEY }), file, /named pipe \(FIFO\)/);
    }
  });

  it('the program lookup and the capsule key check refuse them too', async () => {
    const trace = link('header.mflrr', '/dev/zero');
    await refused(readTracedProgram(trace), trace, /character device/);
    const pipe = fifo('key.tcap');
    await refused(authenticatedKey(pipe, { keyHex: FIXTURE_KEY }), pipe, /named pipe/);
  });
});
