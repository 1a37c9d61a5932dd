// MflrrRecording.describe: S records as ops, I payloads decoded for humans (text, numbers, clock
// values as dates, select cases as an interpretation, else hex).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { clockReading, decodeIo } from '../../replay-engine/mflrr/decode-io';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { MACHIN_FIXTURES } from '../support/paths';

const ROOT = MACHIN_FIXTURES;
const dir = mkdtempSync(join(tmpdir(), 'frozen-run-describe-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const child = (v: ReturnType<typeof decodeIo>, name: string) => v.children?.find((c) => c.name === name)?.value.text;

describe('describe() of trace records', () => {
  it('S: op k/N and the goroutine', async () => {
    const rec = await readMflrr(`${ROOT}/crash/crash.mflrr`);
    const v = rec.describe(2);
    assert.equal(v.kind, 'sched');
    assert.equal(v.step, 2);
    assert.equal(v.position, 3);
    assert.equal(v.line, 7);
    assert.equal(v.value.text, 'op 2/4, goroutine 0');
  });

  it('I: printable text with escapes, numbers, and bytes as hex', async () => {
    const rec = await readMflrr(`${ROOT}/reader/reader.mflrr`);
    const text = rec.describe(0);
    assert.equal(text.value.type, 'text');
    assert.equal(text.value.text, '"payload-42\\n"');
    assert.equal(child(text.value, 'hex'), '7061796c6f61642d34320a');
    assert.equal(child(text.value, 'bytes'), '11');
    const clock = rec.describe(1);
    assert.equal(clock.value.type, 'time');
    assert.match(clock.value.text, /^1796026248317 \(2026-\d\d-\d\dT.*Z, if milliseconds\)$/);
    const random = rec.describe(2);
    assert.equal(random.value.type, 'hex');
    assert.equal(random.value.text, 'ca53fba7');
    assert.equal(random.summary, 'I 0 → ca53fba7');
  });

  it('I: a small decimal right after the goroutine\'s own op is offered as a select case', async () => {
    const rec = await readMflrr(`${ROOT}/flaky/flaky.mflrr`);
    const v = rec.describe(2); // S 0 (select), then I 0 30
    assert.equal(v.value.type, 'select');
    assert.match(v.value.text, /select case 0/);
    assert.ok(v.value.children?.some((c) => c.name === 'select case'));
    assert.equal(child(v.value, 'text'), '"0"');
  });

  it('I: http status read before any op is a plain number, an empty payload says so', async () => {
    const rec = await readMflrr(`${ROOT}/client/client.mflrr`);
    assert.equal(rec.describe(0).value.type, 'number');
    assert.equal(rec.describe(0).value.text, '200');
    assert.equal(rec.describe(1).value.text, '"PAYLOAD"');
    assert.equal(rec.describe(2).value.type, 'empty');
  });

  it('clock readings: seconds, milliseconds, nanoseconds by magnitude; implausible ones are not dates', () => {
    assert.equal(clockReading('1796026248')?.unit, 'seconds');
    assert.equal(clockReading('1796026248317')?.unit, 'milliseconds');
    assert.equal(clockReading('1796026248317000000')?.unit, 'nanoseconds');
    assert.equal(clockReading('1796026248317000000')?.iso, new Date(1796026248317).toISOString());
    assert.equal(clockReading('123456'), undefined);
    assert.equal(clockReading('99999999999999999999999'), undefined);
  });

  it('control bytes that are valid UTF-8 are shown as hex, not as garbled text', () => {
    const v = decodeIo(new Uint8Array([0x00, 0x01, 0x41]), { followsOwnStep: false });
    assert.equal(v.type, 'hex');
    assert.equal(v.text, '000141');
  });

  it('a multi-line printable payload is text with \\n escapes', async () => {
    const file = join(dir, 'nl.mflrr');
    writeFileSync(file, 'MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nI 0 ' + Buffer.from('a\tb\nc "d"').toString('hex') + '\n');
    const rec = await readMflrr(file);
    assert.equal(rec.describe(0).value.text, '"a\\tb\\nc \\"d\\""');
  });
});
