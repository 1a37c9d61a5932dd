// Incremental edits: the index follows every edit by rescanning only the edited lines, and ends
// up exactly where a fresh index of the final text is (a property over random edits); over
// stdio, hovers and diagnostics follow the edits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DocumentStore } from '../../language-server/document-store';
import { TraceIndex } from '../../language-server/trace-index';
import { LspClient, hoverText } from './support/lsp-client';

const HEADER = 'MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\n';

function snapshot(index: TraceIndex) {
  const d = index.derived;
  const lines = [];
  for (let l = 0; l < d.lines; l++) {
    const t = index.table.thread(l);
    lines.push([index.table.kind(l), t < 0 ? '' : index.threadIds[t], d.ordinal[l], d.opsBefore[l], d.threadOrdinal[l], d.followsOwnStep[l]]);
  }
  return { lines, ops: d.opTotal, io: d.ioTotal, cut: d.cutLine, problems: index.allProblems() };
}

describe('the index under edits', () => {
  const lineArb = fc.constantFrom('S 0', 'S 0.1', 'S 0.2.1', 'I 0 3031', 'I 0.1 ', 'I 0 zz', 'S 0.', 'X 1', '', 'safe 1', 'program /q.mfl', 'S 0\r');
  const textArb = fc.array(lineArb, { maxLength: 30 }).map((ls) => HEADER + ls.join('\n'));
  const editArb = fc.record({
    at: fc.nat(),
    span: fc.nat({ max: 40 }),
    insert: fc.array(fc.oneof(lineArb, fc.constantFrom('\n', '0', ' ', '.1', 'S ')), { maxLength: 6 }).map((p) => p.join('')),
  });

  test('after any edits, the incremental index equals a fresh one, with one full scan', () => {
    fc.assert(
      fc.property(textArb, fc.array(editArb, { minLength: 1, maxLength: 8 }), (text, edits) => {
        const store = new DocumentStore();
        const uri = 'file:///prop.mflrr';
        store.open({ textDocument: { uri, languageId: 'mflrr', version: 1, text } });
        let version = 1;
        for (const e of edits) {
          const doc = store.get(uri)!.doc;
          const length = doc.getText().length;
          const start = Math.min(e.at, length);
          const end = Math.min(start + e.span, length);
          store.change({
            textDocument: { uri, version: ++version },
            contentChanges: [{ range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: e.insert }],
          });
        }
        const entry = store.get(uri)!;
        assert.equal(entry.index.kind, 'trace');
        assert.ok(entry.index.kind === "trace");
        const incremental = entry.index.index;
        const fresh = new TraceIndex(entry.doc.getText());
        assert.deepEqual(snapshot(incremental), snapshot(fresh));
        assert.equal(incremental.table.length, entry.doc.lineCount, 'lines as the editor counts them');
        // Only a line break formed across an edit's edge (`\r` + `\n`) falls back to a full scan.
        if (!entry.doc.getText().includes('\r')) assert.equal(incremental.fullScans, 1);
      }),
      { numRuns: 300 },
    );
  });

  test('appending a line to a large trace rescans the lines around it, not the trace', () => {
    const records = Array.from({ length: 200000 }, (_, i) => (i % 9 === 0 ? `I 0.${1 + (i % 5)} 3${i % 10}` : `S 0.${1 + (i % 5)}`)).join('\n');
    const text = `${HEADER}${records}\n`;
    const store = new DocumentStore();
    const uri = 'file:///big.mflrr';
    const entry = store.open({ textDocument: { uri, languageId: 'mflrr', version: 1, text } });
    assert.ok(entry.index.kind === "trace");
    const index = entry.index.index;
    const opsBefore = index.derived.opTotal;
    const scanned = index.linesScanned;
    const end = entry.doc.positionAt(text.length);
    store.change({ textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: end, end }, text: 'S 0.3\n' }] });
    assert.ok(index.linesScanned - scanned <= 4, `rescanned ${index.linesScanned - scanned} lines`);
    assert.equal(index.fullScans, 1);
    assert.equal(index.derived.opTotal, opsBefore + 1);
  });
});

describe('edits over stdio', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('inserting a schedule record renumbers the ops after it', async () => {
    const uri = 'file:///tmp/lsp-edits/renumber.mflrr';
    await client.open(uri, `${HEADER}S 0\nS 0.1\nI 0.1 30\nS 0\n`);
    assert.match(hoverText(await client.hover(uri, 7)), /^\*\*Schedule op 2\*\* of 3/);
    const diags = await client.change(uri, [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: 'S 0.2\n' }]);
    assert.deepEqual(diags, []);
    assert.match(hoverText(await client.hover(uri, 8)), /^\*\*Schedule op 3\*\* of 4/);
    assert.match(hoverText(await client.hover(uri, 5)), /^\*\*Schedule op 1\*\* of 4 · goroutine `0\.2`/);
    assert.match(hoverText(await client.hover(uri, 7)), /before op 3/);
  });

  test('breaking and fixing a line updates its diagnostics', async () => {
    const uri = 'file:///tmp/lsp-edits/fix.mflrr';
    await client.open(uri, `${HEADER}S 0\nI 0 3031\nS 0\n`);
    const broken = await client.change(uri, [{ range: { start: { line: 5, character: 6 }, end: { line: 5, character: 7 } }, text: 'q' }]);
    assert.deepEqual(broken.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['bad-hex', 5, 6]]);
    const twoEdits = await client.change(uri, [
      { range: { start: { line: 5, character: 6 }, end: { line: 5, character: 7 } }, text: '3' },
      { range: { start: { line: 6, character: 2 }, end: { line: 6, character: 3 } }, text: '0.' },
    ]);
    assert.deepEqual(twoEdits.map((d) => [d.code, d.range.start.line]), [['bad-goroutine', 6]]);
    const fixed = await client.change(uri, [{ range: { start: { line: 6, character: 0 }, end: { line: 7, character: 0 } }, text: 'S 0.1\n' }]);
    assert.deepEqual(fixed, []);
  });

  test('a whole-document change re-indexes', async () => {
    const uri = 'file:///tmp/lsp-edits/full.mflrr';
    await client.open(uri, `${HEADER}S 0\n`);
    const diags = await client.change(uri, [{ text: 'MFLRR 3\n' }]);
    assert.deepEqual(diags.map((d) => d.code).sort(), ['no-boundary', 'no-program', 'no-safe', 'unsupported-version']);
  });
});
