// Diagnostics over stdio: the real fixtures and broken variants written here, each checked for
// the right line, column and severity, and that every problem is listed, not only the first.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspClient, MACHIN_FIXTURES, fileUri } from './support/lsp-client';

const HEADER = 'MFLRR 1\nboundary faithful\nprogram /home/ci/app/x.mfl\nsafe 0\n';

let client: LspClient;
let n = 0;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

function open(text: string): Promise<Diagnostic[]> {
  return client.open(`file:///tmp/lsp-diagnostics/broken-${n++}.mflrr`, text);
}

function only(diags: Diagnostic[], code: string): Diagnostic[] {
  return diags.filter((d) => d.code === code);
}

function at(d: Diagnostic): [number, number, number] {
  return [d.range.start.line, d.range.start.character, d.range.end.character];
}

describe('fixtures', () => {
  const traces = readdirSync(MACHIN_FIXTURES).flatMap((dir) =>
    readdirSync(join(MACHIN_FIXTURES, dir)).filter((f) => f.endsWith('.mflrr')).map((f) => join(MACHIN_FIXTURES, dir, f)),
  );

  test('every real trace is clean, except what the format says to warn about', async () => {
    assert.ok(traces.length >= 10);
    for (const file of traces) {
      const text = readFileSync(file, 'utf8');
      const diags = await client.open(fileUri(file), text);
      if (text.length === 0) {
        assert.deepEqual(diags.map((d) => [d.code, d.severity, d.range.start.line]), [['empty', DiagnosticSeverity.Error, 0]], file);
        assert.match(String(diags[0].message), /nothing to replay/i);
      } else if (text.includes('boundary best-effort')) {
        assert.deepEqual(diags.map((d) => [d.code, d.severity, d.range.start.line]), [['best-effort', DiagnosticSeverity.Warning, 1]], file);
        assert.match(String(diags[0].message), /FFI/);
        assert.match(String(diags[0].message), /diverge/);
      } else {
        assert.deepEqual(diags, [], file);
      }
      await client.close(fileUri(file));
    }
  });
});

describe('header problems', () => {
  test('no magic: not a machin trace, on line 0', async () => {
    const diags = await open('hello world\nS 0\n');
    const d = only(diags, 'not-a-trace');
    assert.equal(d.length, 1);
    assert.equal(d[0].range.start.line, 0);
    assert.equal(d[0].severity, DiagnosticSeverity.Error);
    assert.match(String(d[0].message), /MFLRR 1/);
  });

  test('unknown version names the version, at its column', async () => {
    const diags = await open(HEADER.replace('MFLRR 1', 'MFLRR 2'));
    const d = only(diags, 'unsupported-version');
    assert.equal(d.length, 1);
    assert.deepEqual(at(d[0]), [0, 6, 7]);
    assert.match(String(d[0].message), /version 2/);
  });

  test('no program line: replay impossible', async () => {
    const diags = await open('MFLRR 1\nboundary faithful\nsafe 0\nS 0\n');
    const d = only(diags, 'no-program');
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, DiagnosticSeverity.Error);
    assert.match(String(d[0].message), /replay .*impossible/);
    assert.deepEqual(diags.map((x) => x.code), ['no-program']);
  });

  test('header lines out of place and repeated', async () => {
    const diags = await open(`${HEADER}S 0\nprogram /elsewhere.mfl\nsafe 1\n`);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line]), [
      ['duplicate-header', 5],
      ['duplicate-header', 6],
    ]);
    const late = await open('MFLRR 1\nboundary faithful\nS 0\nprogram /x.mfl\nsafe 0\n');
    assert.deepEqual(late.map((d) => [d.code, d.range.start.line]), [
      ['misplaced-header', 3],
      ['misplaced-header', 4],
    ]);
  });

  test('best-effort boundary: a warning that says what it means', async () => {
    const diags = await open(HEADER.replace('faithful', 'best-effort') + 'S 0\n');
    const d = only(diags, 'best-effort');
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, DiagnosticSeverity.Warning);
    assert.deepEqual(at(d[0]), [1, 9, 20]);
    assert.match(String(d[0].message), /extern/);
    assert.match(String(d[0].message), /never be certified/);
  });

  test('bad boundary and safe values', async () => {
    const diags = await open('MFLRR 1\nboundary maybe\nprogram /x.mfl\nsafe 2\n');
    assert.deepEqual(diags.map((d) => [d.code, ...at(d)]), [
      ['bad-boundary', 1, 9, 14],
      ['bad-safe', 3, 5, 6],
    ]);
  });
});

describe('record problems', () => {
  test('bad hex: the column of the first bad digit', async () => {
    const diags = await open(`${HEADER}S 0\nI 0.1 3031zz\n`);
    const d = only(diags, 'bad-hex');
    assert.equal(d.length, 1);
    assert.deepEqual(at(d[0]), [5, 10, 11]);
    assert.match(String(d[0].message), /`z`/);
  });

  test('odd hex length: the value is marked', async () => {
    const diags = await open(`${HEADER}I 0 303\nS 0\n`);
    const d = only(diags, 'odd-hex');
    assert.equal(d.length, 1);
    assert.deepEqual(at(d[0]), [4, 4, 7]);
    assert.match(String(d[0].message), /odd/);
  });

  test('malformed goroutine ids and trailing text', async () => {
    const diags = await open(`${HEADER}S 0.1\nS 1.2\nS 0..1\nS 0.1 x\nS\nI 0.01 30\n`);
    assert.deepEqual(diags.map((d) => [d.code, ...at(d)]), [
      ['bad-goroutine', 5, 2, 5],
      ['bad-goroutine', 6, 2, 6],
      ['trailing-text', 7, 5, 7],
      ['missing-goroutine', 8, 0, 1],
      ['bad-goroutine', 9, 2, 6],
    ]);
  });

  test('unknown kinds name the kind', async () => {
    const diags = await open(`${HEADER}S 0\nX 0 ff\nyield 0.1\n`);
    const d = only(diags, 'unknown-kind');
    assert.deepEqual(d.map(at), [
      [5, 0, 1],
      [6, 0, 5],
    ]);
    assert.match(String(d[0].message), /`X`/);
    assert.match(String(d[1].message), /`yield`/);
  });

  test('binary garbage is one clear error per line, capped', async () => {
    const garbage = Array.from({ length: 1500 }, (_, i) => `\u0001\u0002garbage${i}`).join('\n');
    const diags = await open(`${HEADER}${garbage}\n`);
    assert.equal(diags.length, 1001);
    assert.equal(diags[0].code, 'garbage');
    assert.equal(diags[0].range.start.line, 4);
    assert.equal(diags[1000].code, 'more-problems');
    assert.match(String(diags[1000].message), /and 500 more problems/);
  });

  test('140,000 blank lines: capped with a summary, and the server survives the next edit', { timeout: 60_000 }, async () => {
    const blanks = 140_000;
    const uri = `file:///tmp/lsp-diagnostics/blank-${n++}.mflrr`;
    const diags = await client.open(uri, `${HEADER}S 0\n${'\n'.repeat(blanks)}S 0\n`);
    assert.equal(diags.length, 1001, 'the first 1,000 problems and one summary');
    const problems = diags.slice(0, 1000);
    assert.ok(problems.every((d) => d.code !== 'more-problems'));
    const summary = diags[1000];
    assert.equal(summary.code, 'more-problems');
    const more = Number(/^and ([\d,]+) more problems/.exec(String(summary.message))?.[1].replace(/,/g, ''));
    assert.ok(more >= blanks - 1000 - 1 && more <= blanks, `the summary counts the rest: ${summary.message}`);
    assert.match(String(summary.message), /^and \d{3},\d{3} more problems/, 'the count is written with thousands separators');
    // The next edit: the server is still there and answers for the new version.
    const after = await client.change(uri, [{ range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: 'S 0\n' }]);
    assert.equal(after.length, 1001);
    assert.ok((await client.hover(uri, 4)) !== undefined);
  });

  test('a cut last line is a warning, not an error, even when its id is cut', async () => {
    const cutId = await open(`${HEADER}S 0.1\nS 0.`);
    assert.deepEqual(cutId.map((d) => [d.code, d.severity, d.range.start.line]), [['partial-line', DiagnosticSeverity.Warning, 5]]);
    assert.match(String(cutId[0].message), /ignores/);
    const cutHex = await open(`${HEADER}S 0\nI 0 303`);
    assert.deepEqual(cutHex.map((d) => [d.code, d.range.start.line]), [['partial-line', 5]]);
    // A last line that cannot be the start of any record is damaged, cut or not.
    const damaged = await open(`${HEADER}S 0\nS 0.x`);
    assert.deepEqual(damaged.map((d) => d.code).sort(), ['bad-goroutine', 'partial-line']);
  });

  test('blank lines are warnings; CRLF line ends are fine', async () => {
    const diags = await open(`${HEADER}S 0\n\nS 0\n`);
    assert.deepEqual(diags.map((d) => [d.code, d.severity, d.range.start.line]), [['blank-line', DiagnosticSeverity.Warning, 5]]);
    const crlf = await open(`${HEADER}S 0\nI 0 3030\n`.replace(/\n/g, '\r\n'));
    assert.deepEqual(crlf, []);
  });

  test('every problem of a file is listed, in order, with its line', async () => {
    const text = [
      'MFLRR 1',
      'boundary faithful',
      'safe 0',
      'S 0',
      'I 0 zz',
      'S 0.1',
      'Q 0',
      'I 0.1 abc',
      'S 0.1.',
      'S 0',
      '',
    ].join('\n');
    const diags = await open(text);
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line]), [
      ['no-program', 0],
      ['bad-hex', 4],
      ['unknown-kind', 6],
      ['odd-hex', 7],
      ['bad-goroutine', 8],
    ]);
  });
});
