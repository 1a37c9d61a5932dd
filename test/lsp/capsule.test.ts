// The decoded capsule document over stdio: the text the engine renders for a real capsule
// fixture, opened as the extension serves it (`frozen-run-capsule:` scheme), checked against the
// engine's own recording (effect numbers, tasks, the panic), and broken variants.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol/node';
import { REPLAY_TO_HERE_COMMAND, REPLAY_TO_PANIC_COMMAND } from '../../language-server/protocol';
import { openCapsuleFile } from '../../replay-engine/tcap/read-capsule';
import type { TcapRecording } from '../../replay-engine/tcap/tcap-recording';
import { FIXTURES, LspClient, hoverText, labelText, wholeDocument } from './support/lsp-client';

const TIN = join(FIXTURES, 'tin');

async function capsule(name: string): Promise<{ rec: TcapRecording; text: string; uri: string }> {
  const file = join(TIN, `${name}.tcap`);
  const { key } = JSON.parse(readFileSync(join(TIN, `${name}.expect.json`), 'utf8')) as { key: string };
  const rec = await openCapsuleFile(file, { keyHex: key, noToolchain: true });
  return { rec, text: rec.decodedDocument(), uri: `frozen-run-capsule:${file}.decoded` };
}

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

describe('orders-panic, decoded', () => {
  let rec: TcapRecording;
  let uri: string;
  let diagnostics: Awaited<ReturnType<LspClient['open']>>;
  before(async () => {
    const c = await capsule('orders-panic');
    rec = c.rec;
    uri = c.uri;
    diagnostics = await client.open(uri, c.text, 'tcap-decoded');
  });
  const lineOf = (r: number) => rec.timeline.lineOf(r) - 1;
  const taskOf = (r: number) => rec.timeline.threads[rec.timeline.thread[r]].id;

  test('diagnostics: the cancellation fault and where the panic came, nothing else', () => {
    const n = rec.timeline.recordCount;
    const faults = Array.from({ length: n }, (_, r) => r).filter((r) => rec.outcome(r) === 1);
    assert.ok(faults.length > 0);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.severity]),
      [...faults.map((r) => ['fault', lineOf(r), DiagnosticSeverity.Information]), ['panic', lineOf(n - 1), DiagnosticSeverity.Information]].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    assert.ok(String(diagnostics.find((d) => d.code === 'panic')!.message).includes(rec.panic!.message));
  });

  test('hover on every effect: its number, task, kind and place before the panic', async () => {
    const n = rec.timeline.recordCount;
    const panicTask = rec.timeline.threads[rec.panic!.thread].id;
    for (let r = 0; r < n; r++) {
      const text = hoverText(await client.hover(uri, lineOf(r), 3));
      const kind = rec.timeline.kindName(r);
      assert.ok(text.startsWith(`**Effect ${r}** of ${n} · task ${taskOf(r)}`), text);
      assert.ok(text.includes(`\`${kind}\``), text);
      assert.ok(text.includes(`effect ${r + 1} of the ${rec.panic!.position} that led to the panic in task ${panicTask}`), text);
      assert.ok(text.includes(rec.decodedResult(r).text), text);
    }
  });

  test('inlay hints: effect number, task and kind on each effect line', async () => {
    const hints = await client.inlayHints(uri, wholeDocument(200));
    const n = rec.timeline.recordCount;
    assert.equal(hints.length, n);
    for (let r = 0; r < n; r++) {
      const h = hints.find((x) => x.position.line === lineOf(r));
      assert.ok(h, `hint for effect ${r}`);
      assert.ok(labelText(h).startsWith(`${r + 1}/${n} · task ${taskOf(r)}`), labelText(h));
      assert.ok(labelText(h).includes(rec.timeline.kindName(r)), labelText(h));
    }
  });

  test('symbols: one per task with its effects; a lens per block of a task\'s effects, and on the panic\'s', async () => {
    const symbols = await client.symbols(uri);
    const tasks = symbols.filter((s) => s.name.startsWith('task '));
    const expected = new Map<string, number[]>();
    for (let r = 0; r < rec.timeline.recordCount; r++) expected.set(taskOf(r), [...(expected.get(taskOf(r)) ?? []), lineOf(r)]);
    assert.deepEqual(tasks.map((s) => s.name.split(' ')[1]), [...expected.keys()].sort());
    for (const s of tasks) assert.deepEqual(s.children!.map((c) => c.range.start.line), expected.get(s.name.split(' ')[1]));
    const lenses = await client.lenses(uri);
    assert.equal(lenses[0].command!.command, REPLAY_TO_PANIC_COMMAND);
    assert.match(lenses[0].command!.title, /Replay to panic \(task \d+, after effect 11\)/);
    // A block starts at an effect whose task is not the previous effect's.
    const n = rec.timeline.recordCount;
    const starts = Array.from({ length: n }, (_, r) => r).filter((r) => r === 0 || taskOf(r) !== taskOf(r - 1));
    assert.deepEqual(lenses.slice(1).map((l) => [l.command!.command, l.range.start.line]), starts.map((r) => [REPLAY_TO_HERE_COMMAND, lineOf(r)]));
    assert.match(lenses[1].command!.title, /^Replay to here \(effect 0 · task \d+\)$/);
  });

  test('header facts explain themselves', async () => {
    const status = rec.decodedDocument().split('\n').findIndex((l) => l.startsWith('Status: '));
    assert.match(hoverText(await client.hover(uri, status)), /\*\*Status\*\*: the response status/);
  });
});

describe('a capsule without a panic, and broken documents', () => {
  test('checkout-declined: a secret handle explains itself, no panic claimed', async () => {
    const c = await capsule('checkout-declined');
    const diags = await client.open(c.uri, c.text, 'tcap-decoded');
    assert.deepEqual(diags, []);
    const handle = c.text.split('\n').findIndex((l) => l.includes('(secret handle)'));
    assert.ok(handle > 0);
    assert.match(hoverText(await client.hover(c.uri, handle)), /Secret handle/);
    const effect = c.rec.timeline.lineOf(0) - 1;
    assert.doesNotMatch(hoverText(await client.hover(c.uri, effect)), /panic/);
    assert.equal((await client.lenses(c.uri))[0].command!.title, '$(debug-alt) Replay to panic');
  });

  test('the document served for an unreadable capsule shows its message as the error', async () => {
    const diags = await client.open('frozen-run-capsule:/tmp/x.tcap.decoded', '# /tmp/x.tcap: capsule: wrong key or damaged\n');
    assert.deepEqual(diags.map((d) => [d.code, d.range.start.line, d.message]), [['capsule-unreadable', 0, 'The capsule could not be decoded: /tmp/x.tcap: capsule: wrong key or damaged']]);
  });

  test('an unknown kind and a wrong number are errors at their columns', async () => {
    const c = await capsule('checkout-declined');
    const lines = c.text.split('\n');
    const first = c.rec.timeline.lineOf(0) - 1;
    lines[first] = lines[first].replace('redis@1', 'bogus@9');
    lines[first + 1] = lines[first + 1].replace(/^#1 /, '#7 ');
    const diags = await client.open(`${c.uri}.broken`, lines.join('\n'), 'tcap-decoded');
    const at = (code: string) => diags.filter((d) => d.code === code).map((d) => [d.range.start.line, d.range.start.character, d.range.end.character]);
    const kindAt = lines[first].indexOf('bogus@9');
    assert.deepEqual(at('unknown-kind'), [[first, kindAt, kindAt + 'bogus@9'.length]]);
    assert.deepEqual(at('bad-seq'), [[first + 1, 1, 2]]);
  });
});
