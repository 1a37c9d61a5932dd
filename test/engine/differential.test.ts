// Differential test of the streaming reader against a plain line-by-line reading of the format
// document (reference-reader.ts): random traces with valid and invalid ids, hex in both cases,
// odd and bad hex, CRLF, blank lines and cut or garbage endings must give the same records, or an
// error on the same line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { RecordingError } from '../../replay-engine/model/errors';
import { referenceRead } from './reference-reader';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const validId = fc.oneof(
  fc.constantFrom('0', '0.1', '0.2', '0.10', '0.1.1'),
  fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 6 }).map((xs) => ['0', ...xs].join('.')),
);
const badId = fc.constantFrom('1', '0.0', '0..1', '0.a', '', '0.01', '00', '.1', '0.', 'x', '0\t1');
const id = fc.oneof({ weight: 30, arbitrary: validId }, { weight: 1, arbitrary: badId });
const hexByte = fc.integer({ min: 0, max: 255 }).map((b) => b.toString(16).padStart(2, '0'));
const hex = fc.oneof(
  { weight: 20, arbitrary: fc.array(hexByte, { maxLength: 12 }).map((xs) => xs.join('')) },
  { weight: 2, arbitrary: fc.array(hexByte, { maxLength: 6 }).map((xs) => xs.join('').toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom('0', 'abc', 'zz', '0g', '1 2', '-1') },
);
const line = fc.oneof(
  { weight: 12, arbitrary: id.map((g) => `S ${g}`) },
  { weight: 5, arbitrary: fc.tuple(id, hex).map(([g, h]) => `I ${g} ${h}`) },
  { weight: 1, arbitrary: id.map((g) => `I ${g}`) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('X 0', 'S', 'safe 1', 's 0', 'S  0', 'I 0  ab') },
);
const ending = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('S', 'S ', 'S 0', 'S 0.', 'S 0.1', 'I', 'I 0', 'I 0 ', 'I 0 6', 'I 0 686', 'S 0\r') },
  { weight: 1, arbitrary: fc.constantFrom('S 0x', 'Q', 'I 0 zz', '\u0000\u0001') },
);
const trace = fc.record({
  header: fc.constantFrom(
    'MFLRR 1\nboundary faithful\nprogram /p/x.mfl\nsafe 0\n',
    'MFLRR 1\nboundary best-effort\nsafe 1\n',
    'MFLRR 1\n',
    'MFLRR 1\r\nboundary faithful\r\nprogram /a b/x.mfl\r\nsafe 1\r\n',
  ),
  lines: fc.array(fc.tuple(line, fc.boolean()), { maxLength: 40 }),
  ending,
});

describe('streaming reader vs reference reader', () => {
  it('agrees on random traces', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(trace, async (t) => {
        const text = t.header + t.lines.map(([l, crlf]) => l + (crlf ? '\r\n' : '\n')).join('') + t.ending;
        const file = join(dir, `d${n++}.mflrr`);
        writeFileSync(file, text, 'latin1');
        const want = referenceRead(text);
        let got;
        try {
          got = await readMflrr(file);
        } catch (e) {
          assert.ok(e instanceof RecordingError, String(e));
          assert.ok(want.error, `reader refused line ${e.place.line} (${e.message}) but the reference read it`);
          assert.equal(e.place.line, want.error.line, `${e.message} vs reference: ${want.error.why}`);
          return;
        }
        assert.ok(!want.error, `reader accepted, reference refused line ${want.error?.line}: ${want.error?.why}`);
        const tl = got.timeline;
        assert.deepEqual(
          Array.from({ length: tl.recordCount }, (_, r) => [tl.kindName(r), tl.threads[tl.thread[r]].id, Buffer.from(tl.payload(r)).toString('hex'), tl.lineOf(r)]),
          want.records.map((r) => [r.kind, r.id, r.hex, r.line]),
        );
        assert.equal(got.cutLine, want.cutLine);
        assert.equal(got.header.program, want.program);
      }),
      { numRuns: 1500 },
    );
  });
});
