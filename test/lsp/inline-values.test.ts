// Inline values in a program source over stdio: after frozenRun/cursorValues, the values of the
// watched variables beside the lines of the current goroutine's function, and nowhere else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CURSOR_VALUES_NOTIFICATION } from '../../language-server/protocol';
import { LspClient, MACHIN_FIXTURES, fileUri, wholeDocument } from './support/lsp-client';

const file = join(MACHIN_FIXTURES, 'crash', 'crash.mfl');
const uri = fileUri(file);
const source = readFileSync(file, 'utf8');
const lines = source.split('\n');
const mainLine = lines.findIndex((l) => l.startsWith('func main'));
const mainEnd = lines.findIndex((l, i) => i > mainLine && l.startsWith('}'));

let client: LspClient;
before(async () => {
  client = await LspClient.start();
  await client.openQuiet(uri, source, 'plaintext');
});
after(async () => {
  await client.stop();
});

test('no values before a session sends them', async () => {
  assert.deepEqual(await client.inlineValues(uri, wholeDocument(lines.length), mainLine), []);
});

test("the watched values as of the cursor, on the lines of main where they appear", async () => {
  // machin's `--print idx,a,b` for this fixture: at op 4, idx = 12, a = 5, b = 7 (goroutine 0).
  await client.notify(CURSOR_VALUES_NOTIFICATION, { programUri: uri, thread: '0', values: { idx: '12', a: '5', b: '7' }, functionLine: mainLine });
  const values = await client.inlineValues(uri, wholeDocument(lines.length), mainEnd);
  const expected: Array<[number, string]> = [];
  lines.forEach((text, line) => {
    if (line < mainLine || line > mainEnd) return;
    for (const [name, value] of [['idx', '12'], ['a', '5'], ['b', '7']]) {
      if (new RegExp(`\\b${name}\\b`).test(text)) expected.push([line, `${name} = ${value}`]);
    }
  });
  const got = values.map((v) => [v.range.start.line, 'text' in v ? v.text : '']).sort();
  assert.deepEqual(got, expected.sort());
  assert.ok(expected.length >= 5);
  // worker's parameter `v` and its line are outside main: nothing there.
  assert.ok(values.every((v) => v.range.start.line > mainLine - 1));
  const first = values.find((v) => v.range.start.line === lines.findIndex((l) => l.includes('idx := 0')))!;
  assert.equal(first.range.start.character, lines[first.range.start.line].indexOf('idx'));
});

test('a program named by its remote URI (code-server, SSH) is the same file', async () => {
  const remote = uri.replace(/^file:\/\//, 'vscode-remote://127.0.0.1%3A45541');
  await client.notify(CURSOR_VALUES_NOTIFICATION, { programUri: remote, thread: '0', values: { idx: '12' }, functionLine: mainLine });
  const values = await client.inlineValues(uri, wholeDocument(lines.length), mainEnd);
  assert.ok(values.length >= 3 && values.every((v) => 'text' in v && v.text === 'idx = 12'), JSON.stringify(values));
});

test('a range outside the function gets nothing; clearing the values removes them', async () => {
  assert.deepEqual(await client.inlineValues(uri, { start: { line: 0, character: 0 }, end: { line: mainLine - 1, character: 0 } }, mainLine), []);
  await client.notify(CURSOR_VALUES_NOTIFICATION, { programUri: '', thread: '', values: {} });
  assert.deepEqual(await client.inlineValues(uri, wholeDocument(lines.length), mainLine), []);
});

test('program sources get no diagnostics and no trace features', async () => {
  assert.equal(await client.hover(uri, mainLine), null);
  // Requests are answered in order, so any diagnostics for the source would have arrived by now.
  assert.equal(client.published(uri), undefined);
  assert.deepEqual(await client.lenses(uri), []);
});

test('at source level each value sits beside the statement that stored it, once', async () => {
  // What the adapter sends at `println(xs[idx])`: idx last stored by `idx = idx + b` (line 11),
  // a by `a := <-ch` (line 8), b by `b := <-ch` (line 10); 0-based lines.
  const at = (text: string) => lines.findIndex((l) => l.includes(text));
  const assignedLines = { idx: at('idx = idx + b'), a: at('a := <-ch'), b: at('b := <-ch') };
  await client.notify(CURSOR_VALUES_NOTIFICATION, { programUri: uri, thread: '0', values: { idx: '12', a: '5', b: '7' }, functionLine: mainLine, assignedLines });
  const values = await client.inlineValues(uri, wholeDocument(lines.length), mainEnd);
  const got = values.map((v) => [v.range.start.line, v.range.start.character, 'text' in v ? v.text : '']);
  assert.deepEqual(got, [
    [assignedLines.a, lines[assignedLines.a].indexOf('a'), 'a = 5'],
    [assignedLines.b, lines[assignedLines.b].indexOf('b'), 'b = 7'],
    [assignedLines.idx, lines[assignedLines.idx].indexOf('idx'), 'idx = 12'],
  ]);
  // Not on `idx := 0` or `println(xs[idx])`, where the name also appears.
  assert.ok(!values.some((v) => v.range.start.line === at('idx := 0') || v.range.start.line === at('println')));
});

test('a value machin may not print in another replay is marked beside it, its text unchanged', async () => {
  const at = (text: string) => lines.findIndex((l) => l.includes(text));
  const assignedLines = { idx: at('idx = idx + b'), a: at('a := <-ch') };
  await client.notify(CURSOR_VALUES_NOTIFICATION, { programUri: uri, thread: '0', values: { idx: '12', a: '5' }, functionLine: mainLine, assignedLines, thisReplayOnly: ['idx'] });
  const values = await client.inlineValues(uri, wholeDocument(lines.length), mainEnd);
  const texts = values.map((v) => ('text' in v ? v.text : ''));
  assert.deepEqual(texts, ['a = 5', 'idx = 12 (this replay only)']);
});
