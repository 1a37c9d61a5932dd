// Records after blank lines: every record's line, and the record on every line, agree with the
// file's own line numbers, for traces whose gaps are everywhere (a blank line after each record)
// or scattered; lookups bisect the gap table (a linear walk made the adapter's timeline quadratic).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { timelineChunk } from '../../debug-adapter/timeline-data';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { LineGaps } from '../../replay-engine/model/line-gaps';
import { unpack } from 'msgpackr';

const dir = mkdtempSync(join(tmpdir(), 'frozen-run-gaps-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HEADER = 'MFLRR 1\nboundary faithful\nprogram /x.mfl\nsafe 1\n';

/** A trace and, read from its text alone, the 1-based line of each record. */
function traceWithBlanks(records: number, blanksAfter: (i: number) => number): { file: string; lines: number[]; text: string } {
  let text = HEADER;
  for (let i = 0; i < records; i++) text += (i % 3 === 2 ? 'I 0 41\n' : 'S 0\n') + '\n'.repeat(blanksAfter(i));
  const lines: number[] = [];
  text.split('\n').forEach((l, i) => {
    if (l.startsWith('S ') || l.startsWith('I ')) lines.push(i + 1);
  });
  const file = join(dir, `t${records}-${lines[lines.length - 1]}.mflrr`);
  writeFileSync(file, text);
  return { file, lines, text };
}

describe('line gaps', () => {
  for (const [what, blanks] of [
    ['a blank line after every record', () => 1],
    ['scattered runs of blank lines', (i: number) => (i * 7919) % 13 === 0 ? 1 + (i % 5) : 0],
  ] as const) {
    it(`${what}: lineOf and recordAtLine agree with the file`, async () => {
      const t = traceWithBlanks(3000, blanks);
      const tl = (await readMflrr(t.file)).timeline;
      assert.equal(tl.recordCount, t.lines.length);
      for (let r = 0; r < tl.recordCount; r++) assert.equal(tl.lineOf(r), t.lines[r], `record ${r}`);
      const fileLines = t.text.split('\n');
      for (let line = 1; line <= fileLines.length; line++) {
        const r = tl.recordAtLine(line);
        const isRecord = /^[SI] /.test(fileLines[line - 1]);
        assert.equal(r >= 0, isRecord, `line ${line}`);
        if (isRecord) assert.equal(t.lines[r], line);
      }
    });
  }

  it('the adapter\'s timeline chunk carries each step\'s true line', async () => {
    const t = traceWithBlanks(2000, () => 1);
    const rec = await readMflrr(t.file);
    const body = timelineChunk(rec, {});
    assert.equal(body.lineGaps, true);
    const packed = unpack(Buffer.from(body.data, 'base64')) as { record: Uint32Array; line: Uint32Array };
    for (let i = 0; i < body.count; i++) assert.equal(packed.line[i], t.lines[packed.record[i]]);
  });

  it('the gap table: last gap at or before a record, gaps at one record merged', () => {
    const g = new LineGaps();
    g.add(0, 2);
    g.add(5, 3);
    g.add(5, 4); // more blank lines before the same record
    g.add(9, 10);
    assert.equal(g.length, 3);
    assert.deepEqual([0, 1, 4, 5, 8, 9, 1e6].map((r) => g.extraBefore(r)), [2, 2, 2, 4, 4, 10, 10]);
    assert.equal(LineGaps.EMPTY.extraBefore(7), 0);
    assert.deepEqual([0, 5, 9].map((r) => g.trimmed().extraBefore(r)), [2, 4, 10]);
  });
});
