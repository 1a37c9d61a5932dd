// Comparing machin traces: the three real flaky runs of one program, and small traces with
// insertions, deletions and changed I/O values. Expected answers are computed from the files'
// text here, independently of the engine's reader and alignment.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { compareRecordings } from '../../replay-engine/compare/compare-recordings';
import { RecordingError } from '../../replay-engine/model/errors';
import { readRecording } from '../../replay-engine/open';
import { FLAKY_RUNS, TempTraces, lcsLength, scheduleOf, textRecords } from './support/traces';

const RUNS = ['r1.mflrr', 'r3.mflrr', 'r14.mflrr'];
const temp = new TempTraces();
after(() => temp.dispose());

for (const nameA of RUNS) {
  for (const nameB of RUNS) {
    test(`flaky runs ${nameA} vs ${nameB}: the first divergence is the first op where the schedules differ`, async () => {
      const fileA = join(FLAKY_RUNS, nameA);
      const fileB = join(FLAKY_RUNS, nameB);
      const { comparison: c } = compareRecordings(await readRecording(fileA), await readRecording(fileB));
      const sa = scheduleOf(fileA);
      const sb = scheduleOf(fileB);
      let k = 0;
      while (k < sa.length && k < sb.length && sa[k].goroutine === sb[k].goroutine) k++;
      if (nameA === nameB) {
        assert.equal(c.firstDivergence, null);
        assert.equal(c.identical, true);
        return;
      }
      assert.ok(k < sa.length, 'the fixture runs do differ');
      const d = c.firstDivergence;
      assert.ok(d, 'a divergence is reported');
      assert.equal(d.cause, 'schedule');
      assert.equal(d.a.op, k);
      assert.equal(d.b.op, k);
      assert.equal(d.a.thread, sa[k].goroutine);
      assert.equal(d.b.thread, sb[k].goroutine);
      assert.notEqual(d.a.thread, d.b.thread);
      assert.equal(d.a.line, sa[k].line);
      assert.equal(d.b.line, sb[k].line);
      assert.equal(c.commonPrefix.ops <= k, true);

      // Per goroutine op counts, counted from the text.
      for (const t of c.threads) {
        assert.equal(t.a, sa.filter((s) => s.goroutine === t.id).length, `ops of ${t.id} in A`);
        assert.equal(t.b, sb.filter((s) => s.goroutine === t.id).length, `ops of ${t.id} in B`);
      }
      // The common prefix in records is where the record lines first differ.
      const ra = textRecords(fileA).map((r) => r.text);
      const rb = textRecords(fileB).map((r) => r.text);
      let p = 0;
      while (p < ra.length && p < rb.length && ra[p] === rb[p]) p++;
      assert.equal(c.commonPrefix.records, p);
      // I/O queues: per goroutine, the first k-th read whose value differs, from the text.
      const reads = (file: string) => {
        const m = new Map<string, Array<{ line: number; hex: string }>>();
        for (const r of textRecords(file).filter((x) => x.tag === 'I')) {
          if (!m.has(r.goroutine)) m.set(r.goroutine, []);
          m.get(r.goroutine)!.push({ line: r.line, hex: r.text.split(' ')[2] ?? '' });
        }
        return m;
      };
      const qa = reads(fileA);
      const qb = reads(fileB);
      const expected = [...new Set([...qa.keys(), ...qb.keys()])].flatMap((g) => {
        const x = qa.get(g) ?? [];
        const y = qb.get(g) ?? [];
        let i = 0;
        while (i < x.length && i < y.length && x[i].hex === y[i].hex) i++;
        return i === Math.max(x.length, y.length) ? [] : [{ g, i, lineA: x[i]?.line ?? null, lineB: y[i]?.line ?? null }];
      });
      assert.deepEqual(
        c.ioQueues.map((q) => ({ g: q.thread, i: q.read, lineA: q.a?.line ?? null, lineB: q.b?.line ?? null })).sort((p, q) => p.g.localeCompare(q.g)),
        expected.sort((p, q) => p.g.localeCompare(q.g)),
      );
      // The alignment is a longest common subsequence of the record lines.
      assert.equal(c.alignment.minimal, true);
      assert.equal(ra.length - c.alignment.unmatched.a, lcsLength(ra, rb));
      assert.equal(rb.length - c.alignment.unmatched.b, lcsLength(ra, rb));
    });
  }
}

test('matched records are the same lines, in order, and every record maps to a counterpart', async () => {
  const fileA = join(FLAKY_RUNS, 'r1.mflrr');
  const fileB = join(FLAKY_RUNS, 'r14.mflrr');
  const { alignment } = compareRecordings(await readRecording(fileA), await readRecording(fileB));
  const ra = textRecords(fileA).map((r) => r.text);
  const rb = textRecords(fileB).map((r) => r.text);
  let matched = 0;
  for (let x = 0; x < ra.length; x++) {
    if (alignment.hunkOf('a', x) >= 0) continue;
    const c = alignment.counterpart('a', x);
    assert.equal(c.exact, true);
    assert.equal(ra[x], rb[c.record], `A record ${x} matches B record ${c.record}`);
    assert.equal(alignment.counterpart('b', c.record).record, x);
    matched++;
  }
  assert.equal(matched, lcsLength(ra, rb));
});

test('insertions, deletions and changed I/O values are found and paired', async () => {
  const ids = ['0', '0.1', '0.2'];
  const base = Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? `I ${ids[i % 3]} ${Buffer.from(`v${i}`).toString('hex')}` : `S ${ids[i % 3]}`));
  const a = temp.write('a.mflrr', base);
  // B: line 50 deleted, two ops inserted after 200, an I/O value changed at 301.
  const b0 = base.slice();
  const ioAt = b0.findIndex((l, i) => i > 300 && l.startsWith('I '));
  const ioThread = b0[ioAt].split(' ')[1];
  b0[ioAt] = `I ${ioThread} ${Buffer.from('other value').toString('hex')}`;
  b0.splice(200, 0, 'S 0.7', 'S 0.7');
  b0.splice(50, 1);
  const b = temp.write('b.mflrr', b0);
  const { comparison: c, alignment } = compareRecordings(await readRecording(a), await readRecording(b));
  assert.equal(c.commonPrefix.records, 50);
  assert.equal(c.alignment.hunks, 3);
  assert.equal(c.alignment.unmatched.a, 2); // the deleted line and the old value
  assert.equal(c.alignment.unmatched.b, 3); // two inserted ops and the new value
  assert.equal(c.valueDifferences.total, 1);
  const v = c.valueDifferences.shown[0];
  assert.equal(v.thread, ioThread);
  assert.equal(v.a.record, ioAt);
  assert.equal(v.b.record, ioAt + 1); // one line fewer before it, two more
  assert.match(v.b.value, /other value/);
  assert.equal(c.firstValueDifference?.a.record, ioAt);
  // The deleted record was the first schedule difference: B's op there is the next one.
  assert.equal(c.firstDivergence?.cause, 'schedule');
  assert.equal(c.firstDivergence?.a.line, 5 + 50);
  assert.equal(c.threads.find((t) => t.id === '0.7')?.b, 2);
  assert.equal(c.threads.find((t) => t.id === '0.7')?.a, 0);
  // The two inserted ops have no counterpart; the changed value is paired.
  assert.equal(alignment.counterpart('b', 200 - 1).exact, false);
  assert.deepEqual(alignment.counterpart('a', ioAt), { record: ioAt + 1, exact: true });
});

test('one run that stops early: the divergence says the shorter one has ended', async () => {
  const lines = ['S 0', 'S 0.1', 'I 0.1 3130', 'S 0', 'S 0.1', 'S 0'];
  const a = temp.write('long.mflrr', lines);
  const b = temp.write('short.mflrr', lines.slice(0, 4));
  const { comparison: c } = compareRecordings(await readRecording(a), await readRecording(b));
  assert.equal(c.firstDivergence?.a.op, 3);
  assert.equal(c.firstDivergence?.a.thread, '0.1');
  assert.equal(c.firstDivergence?.b.op, 3);
  assert.equal(c.firstDivergence?.b.record, null);
  assert.equal(c.firstDivergence?.b.thread, null);
  assert.equal(c.commonPrefix.ops, 3);
  assert.equal(c.commonSuffix.records, 0);
});

test('same schedule, different I/O values: no divergence, the values are listed', async () => {
  const a = temp.write('clock1.mflrr', ['S 0', `I 0 ${Buffer.from('1700000000').toString('hex')}`, 'S 0.1', 'S 0']);
  const b = temp.write('clock2.mflrr', ['S 0', `I 0 ${Buffer.from('1700000042').toString('hex')}`, 'S 0.1', 'S 0']);
  const { comparison: c } = compareRecordings(await readRecording(a), await readRecording(b));
  assert.equal(c.firstDivergence, null);
  assert.equal(c.identical, false);
  assert.equal(c.valueDifferences.total, 1);
  // Values are shown decoded as the engine decodes them (here: digits, also read as a clock).
  assert.match(c.firstValueDifference?.a.value ?? '', /^1700000000\b/);
  assert.match(c.firstValueDifference?.b.value ?? '', /^1700000042\b/);
  assert.equal(c.firstValueDifference?.a.op, 1);
});

test('the same program recorded in different folders compares; different programs are refused', async () => {
  const a = temp.write('here.mflrr', ['S 0'], '/home/ci/app/flaky.mfl');
  const b = temp.write('there.mflrr', ['S 0', 'S 0'], 'C:\\Users\\dev\\src\\flaky.mfl');
  const other = temp.write('other.mflrr', ['S 0'], '/home/ci/app/crash.mfl');
  const { comparison: c } = compareRecordings(await readRecording(a), await readRecording(b));
  assert.equal(c.firstDivergence?.a.record, null);
  assert.equal(c.firstDivergence?.b.op, 1);
  await assert.rejects(
    async () => compareRecordings(await readRecording(a), await readRecording(other)),
    (err: unknown) =>
      err instanceof RecordingError &&
      err.code === 'not-comparable' &&
      /flaky\.mfl/.test(err.message) &&
      /crash\.mfl/.test(err.message) &&
      /file names were compared/.test(err.message),
  );
});

test('a trace without a program line compares with a warning', async () => {
  const a = temp.write('noprog.mflrr', ['S 0']);
  const file = join(temp.dir, 'bare.mflrr');
  require('node:fs').writeFileSync(file, 'MFLRR 1\nboundary faithful\nsafe 0\nS 0\n');
  const { comparison: c } = compareRecordings(await readRecording(a), await readRecording(file));
  assert.equal(c.identical, true);
  assert.match(c.warnings.join('\n'), /bare\.mflrr names no program/);
});
