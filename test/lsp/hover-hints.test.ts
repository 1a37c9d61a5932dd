// Hovers and inlay hints over stdio, on a generated trace (op numbers and decoded values checked
// against an independent reading of its lines) and on real fixtures with machin's own panic facts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RUN_FACTS_NOTIFICATION } from '../../language-server/protocol';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { expectedLines, generateTrace, type Expected } from './support/generated';
import { LspClient, MACHIN_FIXTURES, fileUri, hoverText, labelText, wholeDocument } from './support/lsp-client';

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

describe('a generated trace (not in the fixtures)', () => {
  let uri: string;
  let expected: Expected;
  before(async () => {
    const { file, text } = generateTrace(3000, 12);
    uri = fileUri(file);
    expected = expectedLines(text);
    assert.deepEqual(await client.open(uri, text), []);
  });

  test('hover on every 7th line gives its op number, goroutine and queue position', async () => {
    let sched = 0;
    let io = 0;
    for (let line = 0; line < expected.lines.length; line += 7) {
      const e = expected.lines[line];
      const text = hoverText(await client.hover(uri, line, 2));
      if (e.kind === 'S') {
        sched++;
        assert.ok(text.startsWith(`**Schedule op ${e.ordinal}** of ${expected.ops.toLocaleString('en-US')} · goroutine \`${e.goroutine}\``), `line ${line}: ${text}`);
        assert.ok(text.includes(`its op ${e.threadOrdinal! + 1} of ${expected.opsOf.get(e.goroutine!)}`), `line ${line}: ${text}`);
      } else if (e.kind === 'I') {
        io++;
        assert.ok(text.startsWith(`**I/O record** · goroutine \`${e.goroutine}\``), `line ${line}: ${text}`);
        assert.ok(text.includes(`read ${e.ordinal! + 1} of ${expected.iosOf.get(e.goroutine!)}`), `line ${line}: ${text}`);
        assert.ok(text.includes(`Value (${e.bytes} bytes): \`${e.text}`), `line ${line}: ${text}`);
        assert.ok(text.includes(e.opsBefore! < expected.ops ? `before op ${e.opsBefore}/${expected.ops}` : `after op ${expected.ops - 1}/${expected.ops}`), `line ${line}: ${text}`);
      } else {
        assert.ok(text.length > 0, `header line ${line} has a hover`);
      }
    }
    assert.ok(sched > 100 && io > 10, `${sched} schedule and ${io} I/O lines checked`);
  });

  test('inlay hints: op k/N on every schedule line, the decoded value on every I/O line', async () => {
    const hints = await client.inlayHints(uri, wholeDocument(expected.lines.length));
    const byLine = new Map(hints.map((h) => [h.position.line, labelText(h)]));
    let checked = 0;
    expected.lines.forEach((e, line) => {
      const label = byLine.get(line);
      if (e.kind === 'header') {
        assert.equal(label, undefined, `no hint on header line ${line}`);
        return;
      }
      assert.ok(label, `hint on line ${line}`);
      if (e.kind === 'S') assert.ok(label.startsWith(`op ${e.ordinal}/${expected.ops}`), `line ${line}: ${label}`);
      else assert.ok(label.startsWith(e.text!) && label.endsWith(`· ${e.bytes} B`), `line ${line}: ${label}`);
      checked++;
    });
    assert.equal(checked, expected.lines.filter((e) => e.kind !== 'header').length);
    assert.equal(hints.length, checked);
  });

  test('hints for a range cover only that range', async () => {
    const hints = await client.inlayHints(uri, { start: { line: 100, character: 0 }, end: { line: 119, character: 0 } });
    assert.equal(hints.length, 20);
    assert.ok(hints.every((h) => h.position.line >= 100 && h.position.line <= 119));
  });
});

describe('the same view as the engine', () => {
  test('every record of the fixtures and a generated trace: same line, op and decoded value as MflrrRecording.describe', async () => {
    const files = ['client', 'reader', 'stdin', 'flaky', 'pipeline', 'gopanic'].map((n) => join(MACHIN_FIXTURES, n, `${n}.mflrr`));
    files.push(generateTrace(1500, 6).file);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const uri = fileUri(file);
      await client.open(uri, text);
      const rec = await readMflrr(file);
      const tl = rec.timeline;
      const hints = new Map((await client.inlayHints(uri, wholeDocument(text.split('\n').length))).map((h) => [h.position.line, labelText(h)]));
      for (let r = 0; r < tl.recordCount; r++) {
        const view = rec.describe(r);
        const line = tl.lineOf(r) - 1;
        const hint = hints.get(line);
        assert.ok(hint, `${file}: a hint on the line of record ${r}`);
        if (view.step >= 0) {
          assert.ok(hint.startsWith(`op ${view.step}/${tl.stepCount}`), `${file}:${line + 1}: ${hint} vs ${view.summary}`);
        } else {
          const shown = view.value.text.length > 60 ? `${view.value.text.slice(0, 60)}…` : view.value.text;
          assert.equal(hint, `${shown} · ${tl.payload(r).length} B`, `${file}:${line + 1}`);
          if (r % 5 === 0) assert.ok(hoverText(await client.hover(uri, line)).includes(`): \`${view.value.text}\``), `${file}:${line + 1}`);
        }
      }
      assert.equal(hints.size, tl.recordCount, file);
    }
  });
});

describe('real traces with the facts a session learned', () => {
  const crashFile = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
  const crashUri = fileUri(crashFile);
  /** machin's own `replay --json` output for the crash fixture. */
  const machin = (() => {
    const outputs = JSON.parse(readFileSync(join(MACHIN_FIXTURES, 'crash', 'outputs.json'), 'utf8')) as {
      replays: Array<{ args: string[]; stderr: string }>;
    };
    const json = outputs.replays.find((r) => r.args.includes('--json'))!;
    return JSON.parse(json.stderr.trim()) as { panic: string; goroutine: string; scheduleOp: number; scheduleTotal: number; causalChain: string[] };
  })();

  before(async () => {
    await client.open(crashUri, readFileSync(crashFile, 'utf8'));
  });

  test('without a session the causal chain is not claimed', async () => {
    const text = hoverText(await client.hover(crashUri, 4));
    assert.match(text, /once a Frozen Run session has replayed/);
    assert.doesNotMatch(text, /Causal chain/);
  });

  test('after frozenRun/runFacts: each op says where it sits in the causal chain', async () => {
    await client.notify(RUN_FACTS_NOTIFICATION, {
      uri: crashUri,
      panic: { position: machin.scheduleOp, thread: machin.goroutine, message: machin.panic },
      labels: { '0.1': 'worker', '0.2': 'worker' },
    });
    const expected = expectedLines(readFileSync(crashFile, 'utf8'));
    let ops = 0;
    for (let line = 0; line < expected.lines.length; line++) {
      const e = expected.lines[line];
      if (e.kind !== 'S') continue;
      ops++;
      const text = hoverText(await client.hover(crashUri, line));
      assert.equal(machin.causalChain[e.ordinal!], e.goroutine, 'the fixture agrees with machin');
      assert.ok(text.includes(`**Causal chain**: op ${e.ordinal! + 1} of the ${machin.scheduleOp} ops that led to the panic in goroutine \`${machin.goroutine}\` (main)`), text);
      assert.ok(text.includes(machin.panic), text);
      if (e.goroutine !== '0') assert.ok(text.includes(`goroutine \`${e.goroutine}\` (worker)`), text);
    }
    assert.equal(ops, machin.scheduleTotal);
    const hints = await client.inlayHints(crashUri, wholeDocument(10));
    assert.ok(hints.some((h) => labelText(h) === `op ${machin.scheduleOp - 1}/${machin.scheduleTotal} · main · last op before the panic`));
    assert.ok(hints.some((h) => labelText(h) === `op 0/${machin.scheduleTotal} · worker`));
  });

  test("the debug adapter's read-only copy of the trace finds the file's facts", async () => {
    // VS Code names a sourceReference document after the DAP source's name: `crash.mflrr (replay)`.
    const copy = 'debug:crash.mflrr%20%28replay%29?session%3D7f2c%26ref%3D1';
    await client.open(copy, readFileSync(crashFile, 'utf8'));
    const text = hoverText(await client.hover(copy, 6));
    assert.ok(text.includes(`**Causal chain**: op 3 of the ${machin.scheduleOp} ops`), text);
    assert.ok((await client.lenses(copy))[0].command!.title.includes(`goroutine ${machin.goroutine}`));
  });

  test('an op after the panic says replay never reaches it', async () => {
    const uri = 'file:///tmp/lsp-hover/after-panic.mflrr';
    await client.open(uri, 'MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nS 0\nS 0.1\nS 0\n');
    await client.notify(RUN_FACTS_NOTIFICATION, { uri, panic: { position: 2, thread: '0.1' } });
    assert.match(hoverText(await client.hover(uri, 6)), /\*\*After the panic\*\*/);
    assert.match(hoverText(await client.hover(uri, 5)), /op 2 of the 2 ops that led to the panic in goroutine `0.1`/);
  });

  test('I/O records are decoded as the engine decodes them', async () => {
    const file = join(MACHIN_FIXTURES, 'reader', 'reader.mflrr');
    const uri = fileUri(file);
    await client.open(uri, readFileSync(file, 'utf8'));
    const payload = hoverText(await client.hover(uri, 4));
    assert.ok(payload.includes('Value (11 bytes): `"payload-42\\n"`'), payload);
    const clock = hoverText(await client.hover(uri, 5));
    assert.match(clock, /Value \(13 bytes\): `1796026248317 \(2026-\d\d-\d\dT.*if milliseconds\)`/);
    const binary = hoverText(await client.hover(uri, 6));
    assert.ok(binary.includes('Value (4 bytes): `ca53fba7`'), binary);
    const hints = await client.inlayHints(uri, wholeDocument(10));
    assert.deepEqual(hints.filter((h) => h.position.line === 4).map(labelText), ['"payload-42\\n" · 11 B']);
    // Hints sit at the end of their line.
    assert.equal(hints.find((h) => h.position.line === 6)!.position.character, 'I 0 ca53fba7'.length);
  });

  test('a huge I/O value is shown from its first bytes, and says how big it is', async () => {
    const uri = 'file:///tmp/lsp-hover/huge.mflrr';
    const value = Buffer.alloc(1 << 20, 'a').toString('hex');
    await client.open(uri, `MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nI 0 ${value}\nS 0\n`);
    const text = hoverText(await client.hover(uri, 4));
    assert.ok(text.includes(`Value (${(1 << 20).toLocaleString('en-US')} bytes): \`"aaaa`), text.slice(0, 200));
    assert.ok(text.includes(`(first 65536 of ${1 << 20} bytes)`));
    assert.ok(text.length < 5000);
    const hint = (await client.inlayHints(uri, wholeDocument(8))).find((h) => h.position.line === 4)!;
    assert.ok(labelText(hint).length < 100);
  });

  test('a value holding markup or backticks is shown as text, in a code span', async () => {
    const uri = 'file:///tmp/lsp-hover/hostile.mflrr';
    const value = '`x` <img src=x onerror=alert(1)> **b** [l](http://e)';
    await client.open(uri, `MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nI 0 ${Buffer.from(value).toString('hex')}\nS 0\n`);
    const text = hoverText(await client.hover(uri, 4));
    assert.ok(text.includes(`): \`\`${JSON.stringify(value)}\`\``), text);
  });

  test('header lines explain themselves; the cut last line says it is ignored', async () => {
    const uri = 'file:///tmp/lsp-hover/header.mflrr';
    await client.open(uri, 'MFLRR 1\nboundary best-effort\nprogram /home/ci/p.mfl\nsafe 1\nS 0\nS 0.');
    assert.match(hoverText(await client.hover(uri, 0)), /format version `1`.*\n\nThis trace: 1 schedule op, 0 I\/O records, 1 goroutine/s);
    assert.match(hoverText(await client.hover(uri, 1)), /FFI/);
    assert.match(hoverText(await client.hover(uri, 2)), /\/home\/ci\/p\.mfl/);
    assert.match(hoverText(await client.hover(uri, 3)), /--safe/);
    assert.match(hoverText(await client.hover(uri, 5)), /Cut last line/);
  });
});

describe('an I/O read after the last op (issue 29, point 7): every view says after the last op, never before op N', () => {
  let c: LspClient;
  before(async () => {
    c = await LspClient.start();
  });
  after(async () => {
    await c.stop();
  });

  test('lens, outline, hover and inlay hint of `I 0.1` after `S 0`, `S 0`: after op 1/2 (ops are 0 and 1)', async () => {
    const uri = 'file:///tmp/lsp-words/last-io.mflrr';
    const text = 'MFLRR 1\nboundary faithful\nprogram /p.mfl\nsafe 0\nS 0\nS 0\nI 0.1 30\n';
    await c.open(uri, text);
    const ops = text.split('\n').filter((l) => l.startsWith('S ')).length;
    const words = `after op ${ops - 1}/${ops}`;
    const lens = (await c.lenses(uri)).find((l) => l.range.start.line === 6);
    assert.ok(lens?.command?.title.includes(`I/O ${words} · 0.1`), JSON.stringify(lens));
    const io = (await c.symbols(uri)).find((x) => x.name.startsWith('goroutine 0.1'))!.children![0];
    assert.equal(io.detail, words);
    assert.match(hoverText(await c.hover(uri, 6)), new RegExp(`read this ${words.replace(/\//g, '\\/')} `));
    const hint = (await c.inlayHints(uri, wholeDocument(8))).find((h) => h.position.line === 6)!;
    assert.ok(String(hint.tooltip).endsWith(words), String(hint.tooltip));
    for (const t of [lens!.command!.title, io.detail!, hoverText(await c.hover(uri, 6)), String(hint.tooltip)]) assert.doesNotMatch(t, /op 2\b/, t);
  });
});
