// Document symbols, folding ranges and code lenses over stdio, on fixtures and a generated trace.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SymbolKind } from 'vscode-languageserver-protocol/node';
import { REPLAY_TO_HERE_COMMAND, REPLAY_TO_PANIC_COMMAND, RUN_FACTS_NOTIFICATION } from '../../language-server/protocol';
import { expectedLines, generateTrace } from './support/generated';
import { LspClient, MACHIN_FIXTURES, fileUri } from './support/lsp-client';

let client: LspClient;
before(async () => {
  client = await LspClient.start({ foldingRangeLimit: 40 });
});
after(async () => {
  await client.stop();
});

describe('symbols', () => {
  test('one symbol per goroutine, its records as children, on the pipeline fixture', async () => {
    const file = join(MACHIN_FIXTURES, 'pipeline', 'pipeline.mflrr');
    const text = readFileSync(file, 'utf8');
    const uri = fileUri(file);
    await client.open(uri, text);
    const expected = expectedLines(text);
    const symbols = await client.symbols(uri);
    assert.equal(symbols[0].name, 'header');
    assert.deepEqual([symbols[0].range.start.line, symbols[0].range.end.line], [0, 3]);
    const threads = symbols.slice(1);
    const goroutines = [...new Set(expected.lines.filter((l) => l.goroutine).map((l) => l.goroutine!))];
    assert.deepEqual(threads.map((s) => s.name.split(' ')[1]), goroutines);
    for (const s of threads) {
      const id = s.name.split(' ')[1];
      assert.equal(s.kind, SymbolKind.Class);
      const lines = expected.lines.flatMap((l, i) => (l.goroutine === id ? [i] : []));
      assert.deepEqual(s.children!.map((c) => c.range.start.line), lines, `records of ${id}`);
      assert.deepEqual([s.range.start.line, s.range.end.line], [lines[0], lines[lines.length - 1]]);
      const ops = expectedOps(expected.lines, id);
      assert.deepEqual(s.children!.filter((c) => c.kind === SymbolKind.Event).map((c) => c.name), ops.map((k) => `op ${k}`));
      assert.match(s.detail!, new RegExp(`^${ops.length} ops?, `));
    }
    assert.equal(threads.find((s) => s.name.startsWith('goroutine 0 '))!.name, 'goroutine 0 main');
  });

  test('a large trace lists at most 1000 children per goroutine and says so', async () => {
    const { file, text } = generateTrace(30000, 4);
    const uri = fileUri(file);
    await client.open(uri, text);
    const expected = expectedLines(text);
    const symbols = (await client.symbols(uri)).filter((s) => s.name.startsWith('goroutine'));
    assert.equal(symbols.length, 4);
    for (const s of symbols) {
      const id = s.name.split(' ')[1];
      assert.equal(s.children!.length, 1000);
      const records = (expected.opsOf.get(id) ?? 0) + (expected.iosOf.get(id) ?? 0);
      assert.ok(s.detail!.endsWith('(first 1000 listed)'), s.detail);
      assert.ok(s.detail!.startsWith(`${(expected.opsOf.get(id) ?? 0).toLocaleString('en-US')} ops`), s.detail);
      assert.ok(records > 1000);
    }
  });
});

test('thousands of goroutines: at most 5000 listed, 20000 children in all', async () => {
  const ids = Array.from({ length: 6000 }, (_, i) => `0.${i + 1}`);
  const text = `MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\n${ids.map((g) => `S ${g}\nS ${g}\nS ${g}\nS ${g}\n`).join('')}`;
  const uri = 'file:///tmp/lsp-outline/many.mflrr';
  await client.open(uri, text);
  const threads = (await client.symbols(uri)).filter((s) => s.name.startsWith('goroutine'));
  assert.equal(threads.length, 5000);
  const children = threads.reduce((n, s) => n + s.children!.length, 0);
  assert.ok(children <= 20000 && children >= 5000, `${children} children`);
  assert.match(threads[4999].detail!, /1000 more goroutines not listed/);
});

function expectedOps(lines: ReturnType<typeof expectedLines>['lines'], id: string): number[] {
  return lines.filter((l) => l.kind === 'S' && l.goroutine === id).map((l) => l.ordinal!);
}

describe('folding', () => {
  test('runs of one goroutine fold, and the header', async () => {
    const file = join(MACHIN_FIXTURES, 'pipeline', 'pipeline.mflrr');
    const uri = fileUri(file);
    const text = readFileSync(file, 'utf8');
    await client.open(uri, text);
    const lines = text.split('\n');
    const folds = await client.folding(uri);
    assert.deepEqual(folds[0], { startLine: 0, endLine: 3, kind: 'imports' });
    const runs: Array<[number, number]> = [];
    for (let i = 4; i < lines.length - 1; ) {
      let j = i;
      while (j + 1 < lines.length - 1 && lines[j + 1].split(' ')[1] === lines[i].split(' ')[1]) j++;
      if (j > i) runs.push([i, j]);
      i = j + 1;
    }
    assert.deepEqual(folds.slice(1).map((f) => [f.startLine, f.endLine]), runs);
  });

  test("the client's range limit keeps the longest runs", async () => {
    const { file, text } = generateTrace(2000, 2);
    const uri = fileUri(file);
    await client.open(uri, text);
    const folds = await client.folding(uri);
    assert.equal(folds.length, 40);
    const sizes = folds.map((f) => f.endLine - f.startLine);
    for (let i = 1; i < folds.length; i++) assert.ok(folds[i].startLine > folds[i - 1].startLine);
    assert.ok(Math.min(...sizes) >= 2, `kept runs of ${Math.min(...sizes) + 1} lines or more`);
  });
});

describe('code lenses', () => {
  test('Replay to panic at the top, Replay to here once per goroutine block (not on every line)', async () => {
    const file = join(MACHIN_FIXTURES, 'flaky', 'flaky.mflrr');
    const uri = fileUri(file);
    const text = readFileSync(file, 'utf8');
    await client.open(uri, text);
    const lenses = await client.lenses(uri);
    assert.equal(lenses[0].range.start.line, 0);
    assert.equal(lenses[0].command!.command, REPLAY_TO_PANIC_COMMAND);
    assert.deepEqual(lenses[0].command!.arguments, [uri]);
    const expected = expectedLines(text);
    // A block starts where a record's goroutine differs from the record line before it.
    const blocks = expected.lines.flatMap((l, i) => (l.kind !== 'header' && (i === 0 || expected.lines[i - 1].goroutine !== l.goroutine) ? [i] : []));
    const records = expected.lines.filter((l) => l.kind !== 'header').length;
    const here = lenses.slice(1);
    assert.deepEqual(here.map((l) => l.range.start.line), blocks);
    assert.ok(here.length < records, `${here.length} lenses for ${records} records`);
    for (const l of here) {
      assert.equal(l.command!.command, REPLAY_TO_HERE_COMMAND);
      assert.deepEqual(l.command!.arguments, [uri, l.range.start.line]);
    }
    const firstOp = here.find((l) => expected.lines[l.range.start.line].kind === 'S')!;
    assert.match(firstOp.command!.title, /^Replay to here \(op 0 · /);
  });

  test('the panic lens names the panic once a session told it', async () => {
    const file = join(MACHIN_FIXTURES, 'gopanic', 'gopanic.mflrr');
    const uri = fileUri(file);
    await client.open(uri, readFileSync(file, 'utf8'));
    await client.notify(RUN_FACTS_NOTIFICATION, { uri, panic: { position: 5, thread: '0.2' } });
    const lenses = await client.lenses(uri);
    assert.match(lenses[0].command!.title, /Replay to panic \(goroutine 0\.2, after op 4\/\d+\)/);
  });

  test('a large trace gets lenses where the schedule switches goroutine, at most 2000', async () => {
    const { file, text } = generateTrace(20000, 8);
    const uri = fileUri(file);
    await client.open(uri, text);
    const lenses = await client.lenses(uri);
    assert.equal(lenses.length, 2001);
    const lines = text.split('\n');
    for (const l of lenses.slice(1)) {
      const line = l.range.start.line;
      const g = lines[line].split(' ')[1];
      assert.notEqual(lines[line - 1].split(' ')[1], g, `line ${line} starts a run`);
    }
  });

  test('an empty trace offers nothing to replay', async () => {
    const file = join(MACHIN_FIXTURES, 'deadlock', 'deadlock.mflrr');
    await client.open(fileUri(file), readFileSync(file, 'utf8'));
    assert.deepEqual(await client.lenses(fileUri(file)), []);
    const uri = 'file:///tmp/lsp-lenses/garbage.mflrr';
    await client.open(uri, 'not a trace\nS 0\n');
    assert.deepEqual(await client.lenses(uri), []);
  });
});
