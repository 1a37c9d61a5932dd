// One test per kind of damaged input: each gives one RecordingError naming the file and line (or
// a warning, for what the format allows), never a crash or a garbled timeline.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { RecordingError, type ErrorCode } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-bad-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = 'MFLRR 1\nboundary faithful\nprogram /home/ci/app/x.mfl\nsafe 0\n';
let n = 0;
function write(content: string | Uint8Array, ext = '.mflrr'): string {
  const file = join(dir, `t${n++}${ext}`);
  writeFileSync(file, content);
  return file;
}

async function rejects(file: string, code: ErrorCode, line: number | undefined, pattern: RegExp): Promise<void> {
  const before = existsSync(file) ? readFileSync(file) : undefined;
  await assert.rejects(readRecording(file), (e: unknown) => {
    assert.ok(e instanceof RecordingError, `not a RecordingError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.includes(file), `message does not name the file: ${e.message}`);
    if (line !== undefined) {
      assert.equal(e.place.line, line, e.message);
      assert.ok(e.message.includes(`:${line}:`), `message does not name line ${line}: ${e.message}`);
    }
    assert.match(e.message, pattern);
    assert.ok(!e.message.includes('\n'), 'one line');
    return true;
  });
  if (before) assert.deepEqual(readFileSync(file), before, 'the recording was modified');
}

describe('bad .mflrr input', () => {
  it('empty file: nothing to replay, the recorder died before flushing', async () => {
    await rejects(write(''), 'empty', undefined, /empty \(0 bytes\).*died before.*deadlock/);
  });

  it('cut last line (`S 0.`) is ignored with a warning naming the line', async () => {
    const rec = await readMflrr(write(HEADER + 'S 0\nS 0.1\nS 0.'));
    assert.equal(rec.timeline.stepCount, 2);
    assert.equal(rec.cutLine, 7);
    assert.equal(rec.completeBytes, Buffer.byteLength(HEADER + 'S 0\nS 0.1\n'));
    const w = rec.warnings.find((x) => x.code === 'cut-line');
    assert.ok(w && w.line === 7 && w.message.includes('S 0.') && /line 7/.test(w.message), JSON.stringify(rec.warnings));
  });

  it('an unterminated but well-formed last line (`S 0.1`) is also ignored: it may be cut', async () => {
    const rec = await readMflrr(write(HEADER + 'S 0\nS 0.1'));
    assert.equal(rec.timeline.stepCount, 1);
    assert.equal(rec.cutLine, 6);
  });

  it('a cut I line (hex cut in the middle) is ignored with a warning', async () => {
    const rec = await readMflrr(write(HEADER + 'S 0\nI 0 68656c'));
    assert.equal(rec.ioTotal, 0);
    assert.equal(rec.cutLine, 6);
  });

  it('an unterminated last line that no valid line starts with is an error, not a warning', async () => {
    await rejects(write(HEADER + 'S 0\nS 0x'), 'malformed', 6, /goroutine id/);
  });

  it('bad hex', async () => {
    await rejects(write(HEADER + 'S 0\nI 0 68zz\n'), 'malformed', 6, /bad hex.*`z`/);
  });

  it('odd-length hex', async () => {
    await rejects(write(HEADER + 'I 0 686\nS 0\n'), 'malformed', 5, /odd number of digits/);
  });

  it('unknown version', async () => {
    await rejects(write('MFLRR 2\nboundary faithful\n'), 'unsupported-version', 1, /version 2.*only MFLRR version 1 exists/);
  });

  it('unknown record tag', async () => {
    await rejects(write(HEADER + 'S 0\nX 0 12\nS 0\n'), 'malformed', 6, /unknown record tag `X`/);
  });

  it('malformed goroutine id', async () => {
    await rejects(write(HEADER + 'S 0\nS 1.2\n'), 'malformed', 6, /malformed goroutine id `1\.2`/);
    await rejects(write(HEADER + 'S \n'), 'malformed', 5, /empty goroutine id/);
  });

  it('garbage binary', async () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) & 0xff;
    await rejects(write(bytes), 'not-a-recording', undefined, /not a recording.*MFLRR.*TINCAP/);
  });

  it('garbage after a valid magic', async () => {
    const head = new TextEncoder().encode(HEADER);
    const bytes = new Uint8Array(head.length + 6);
    bytes.set(head);
    bytes.set([0, 1, 2, 0xff, 0xfe, 10], head.length);
    await rejects(write(bytes), 'malformed', 5, /unknown record tag/);
  });

  it('a text file that is not a trace', async () => {
    await rejects(write('hello world\n'), 'not-a-recording', undefined, /not a recording/);
  });

  it('a first line that starts like the magic but is not it', async () => {
    await rejects(write('MFLRRX\nS 0\n'), 'not-a-recording', 1, /not a machin trace/);
  });

  it('CRLF line ends are read like LF', async () => {
    const rec = await readMflrr(write(HEADER.replace(/\n/g, '\r\n') + 'S 0\r\nI 0 6869\r\nI 0 \r\nS 0.1\r\n'));
    assert.equal(rec.timeline.stepCount, 2);
    assert.equal(rec.ioTotal, 2);
    assert.equal(rec.header.program, '/home/ci/app/x.mfl');
    assert.deepEqual(Array.from(rec.timeline.payload(1)), [0x68, 0x69]);
    assert.equal(rec.timeline.payload(2).length, 0);
    assert.deepEqual(rec.timeline.threads.map((t) => t.id), ['0', '0.1']);
    assert.equal(rec.warnings.length, 0);
  });

  it('missing program line: a warning that replay is impossible, reading continues', async () => {
    const rec = await readMflrr(write('MFLRR 1\nboundary faithful\nsafe 0\nS 0\n'));
    assert.equal(rec.header.program, null);
    assert.equal(rec.timeline.stepCount, 1);
    assert.equal(rec.timeline.firstRecordLine, 4);
    assert.ok(rec.warnings.some((w) => w.code === 'no-program' && /cannot replay/.test(w.message)));
  });

  it('a huge I line (4 MB of hex, spanning many read chunks) is read whole', async () => {
    const payload = Buffer.alloc(2 * 1024 * 1024);
    for (let i = 0; i < payload.length; i++) payload[i] = i & 0xff;
    const rec = await readMflrr(write(HEADER + 'S 0\nI 0.1 ' + payload.toString('hex') + '\nS 0.1\n'));
    assert.equal(rec.timeline.recordCount, 3);
    assert.deepEqual(Buffer.from(rec.timeline.payload(1)), payload);
    assert.equal(rec.timeline.lineOf(2), 7);
  });

  it('a huge garbage line is refused at once, not buffered', async () => {
    await rejects(write(HEADER + 'S 0\n' + 'x'.repeat(3 * 1024 * 1024)), 'malformed', 6, /unknown record tag/);
    await rejects(write(HEADER + 'S ' + '0'.repeat(3 * 1024 * 1024) + '\n'), 'malformed', 5, /goroutine id/);
  });

  it('a header line after the first record', async () => {
    await rejects(write(HEADER + 'S 0\nsafe 1\n'), 'malformed', 6, /after the first record/);
  });

  it('a bad boundary value', async () => {
    await rejects(write('MFLRR 1\nboundary sometimes\n'), 'malformed', 2, /unknown boundary/);
  });

  it('blank lines are skipped with one warning, and line numbers stay right', async () => {
    const rec = await readMflrr(write(HEADER + 'S 0\n\n\nS 0.1\n'));
    assert.equal(rec.timeline.stepCount, 2);
    assert.equal(rec.timeline.lineOf(1), 8);
    assert.equal(rec.timeline.recordAtLine(8), 1);
    assert.equal(rec.timeline.recordAtLine(6), -1);
    assert.equal(rec.warnings.filter((w) => w.code === 'blank-line').length, 1);
  });

  it('a missing file', async () => {
    await rejects(join(dir, 'nope.mflrr'), 'io', undefined, /no such file/);
  });

  it('an empty file with an unknown extension', async () => {
    await rejects(write('', '.bin'), 'empty', undefined, /empty/);
  });
});

describe('memory layout', () => {
  it('the arrays are allocated once from the size bound and never grow: the timeline holds views of them', async () => {
    // The densest possible trace: every record line is the shortest one, `S 0\n`.
    const file = write('MFLRR 1\n' + 'S 0\n'.repeat(300_000));
    const size = readFileSync(file).length;
    const rec = await readMflrr(file);
    const tl = rec.timeline;
    assert.equal(tl.stepCount, 300_000);
    assert.equal(tl.kind.buffer.byteLength, Math.ceil(size / 4) + 1);
    assert.equal(tl.thread.buffer.byteLength, Math.ceil(size / 4) + 1); // one byte a record: one thread
    assert.ok(tl.kind.byteLength < tl.kind.buffer.byteLength, 'a view, not a copy');
  });
});
