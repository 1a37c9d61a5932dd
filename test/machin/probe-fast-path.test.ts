// The instrumented replay's probe lines read straight from the text (machin-output.ts FastTake:
// names and goroutines matched, numbers read without a string) give what a plain reading of each
// line gives: every value's text exactly as machin printed it ("-0", "007", empty, spaces, " @op"
// inside a value, values over lines, long numbers), its goroutine, name and @op, and the statement
// probe it followed; read whole, in chunks split anywhere, and from bytes split anywhere handed
// over in whole lines (toolchain/line-decoder.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatementProbes } from '../../replay-engine/machin/source/statement-replay';
import type { StatementTable } from '../../replay-engine/machin/source/instrument';
import { LineBytes, LineDecoder } from '../../replay-engine/toolchain/line-decoder';

const TABLE = { functions: [], rows: [], probeNames: ['fr_stmt0', 'fr_stmt1'], paramProbes: [] } as unknown as StatementTable;

const VALUES = ['0', '-0', '7', '-7', '007', '123456789', '1234567890', '-123456789', '', 'two words', 'a @op3 b', '12 @op3', '5 @op', '-', '1-2', '3.5', '-0.0', 'true', 'x @op', '99999999999999999999', 'naïve ☃'];

/** An output as machin prints it: statement and value probes of three goroutines, a value over lines, the verify line. */
function output(): string {
  const lines: string[] = [];
  let op = 0;
  for (let k = 0; k < 400; k++) {
    const g = ['0', '0.1', '0.1.2'][k % 3];
    if (k % 7 === 0) op++;
    lines.push(`probe ${g} fr_stmt${k % 2} = ${1 + (k % 13)} @op${op}`);
    lines.push(`probe ${g} ${k % 5 === 0 ? 'fr_arg_x' : 'v'} = ${VALUES[k % VALUES.length]} @op${op}`);
    if (k % 50 === 0) lines.push(`probe ${g} s = first line\nsecond line @op${op}`);
  }
  lines.push('replay-verify: schedule 58/58 ops, io-underrun=no, boundary=faithful -> FAITHFUL');
  return `${lines.join('\n')}\n`;
}

/** The independent reading: line by line, a probe ending at the first line that ends in ` @opN`. */
function reference(text: string) {
  const statements: string[] = [];
  const values: string[] = [];
  const counts = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^probe (\S+) (\S+) = (.*)$/.exec(lines[i]);
    if (!head) continue;
    let rest = head[3];
    let value = '';
    for (;;) {
      const tail = / @op(\d+)$/.exec(rest);
      if (tail) {
        value += rest.slice(0, tail.index);
        const [g, name, op] = [head[1], head[2], Number(tail[1])];
        if (name.startsWith('fr_stmt')) {
          statements.push(`${g} #${value} @${op}`);
          counts.set(g, (counts.get(g) ?? 0) + 1);
        } else values.push(`${g} ${name}=${JSON.stringify(value)} @${op} after ${(counts.get(g) ?? 0) - 1}`);
        break;
      }
      value += `${rest}\n`;
      rest = lines[++i];
    }
  }
  return { statements, values };
}

function read(text: string, cuts: number[]) {
  const edges = [0, ...cuts, text.length];
  return readChunks(edges.slice(1).map((cut, k) => text.slice(edges[k], cut)));
}

function readChunks(chunks: string[] | Uint8Array[]) {
  const probes = new StatementProbes(TABLE);
  const stream = probes.stream();
  // (bytes as runProcess hands them: whole lines through LineBytes, the rest at the end)
  const lines = new LineBytes();
  for (const chunk of chunks) {
    if (typeof chunk === 'string') stream.push(chunk);
    else stream.pushBytes(lines.write(chunk));
  }
  if (typeof chunks[0] !== 'string') stream.pushBytes(lines.end());
  const out = stream.end();
  const statements = Array.from({ length: probes.goroutine.length }, (_, k) => `${probes.goroutines[probes.goroutine.get(k)]} #${probes.statement.get(k)} @${probes.op.get(k)}`);
  const values = Array.from(
    { length: probes.valueGoroutine.length },
    (_, j) => `${probes.goroutines[probes.valueGoroutine.get(j)]} ${probes.valueNames[probes.valueName.get(j)]}=${JSON.stringify(probes.values.get(j))} @${probes.valueOp.get(j)} after ${probes.valueAfter.get(j)}`,
  );
  return { statements, values, verify: out.verify?.verdict, bad: probes.bad, panic: out.panic && `${out.panic.goroutine} ${out.panic.message}`, probes: stream.probes };
}

describe("the instrumented replay's probes read straight from the text", () => {
  const text = output();
  const want = reference(text);

  it('every statement and every value text as a line-by-line reading gives, whole', () => {
    const got = read(text, []);
    assert.equal(got.bad, null);
    assert.equal(got.verify, 'FAITHFUL');
    assert.equal(want.values.length, 400 + 8);
    assert.deepEqual(got.statements, want.statements);
    assert.deepEqual(got.values, want.values);
    for (const kept of ['"-0"', '"007"', '""', '"a @op3 b"', '"1234567890"', '"99999999999999999999"', '"first line\\nsecond line"']) {
      assert.ok(got.values.some((v) => v.includes(`=${kept} `)), `${kept} kept as printed`);
    }
  });

  it('the same in chunks split anywhere', () => {
    for (let cut = 1; cut < text.length; cut += 97) assert.deepEqual(read(text, [cut]), read(text, []), `split at ${cut}`);
    const many = Array.from({ length: Math.floor(text.length / 13) }, (_, k) => (k + 1) * 13);
    assert.deepEqual(read(text, many), read(text, []), 'every 13 characters');
  });

  it('the same from bytes split anywhere (inside a character too), handed over in whole lines', () => {
    const bytes = Buffer.from(text, 'utf8');
    const whole = read(text, []);
    assert.ok(whole.values.some((v) => v.includes('"naïve ☃"')));
    for (let cut = 1; cut < bytes.length; cut += 89) {
      const lines = new LineDecoder();
      const chunks = [lines.write(bytes.subarray(0, cut)), lines.write(bytes.subarray(cut, cut + 1000)), lines.write(bytes.subarray(cut + 1000)), lines.end()];
      for (const c of chunks.slice(0, 3)) assert.ok(c === '' || c.endsWith('\n'), `split at ${cut}: a chunk that ends inside a line`);
      assert.equal(chunks.join(''), text);
      assert.deepEqual(readChunks(chunks), whole, `split at ${cut}`);
    }
  });

  it('read from the bytes themselves (probe-bytes.ts), split anywhere: what the text reading gives, a panic amid probes included', () => {
    // a panic with another goroutine's probe between its lines, and a line machin never prints (CR)
    const lines = text.split('\n');
    const panicked = [...lines.slice(0, 300), 'panic: integer divide by zero', 'probe 0 v = 5 @op9', '  (replay: goroutine 0.1, schedule op 9/58)', 'probe 0 v = 6 @op10\r', ...lines.slice(300)].join('\n');
    for (const t of [text, panicked]) {
      const bytes = Buffer.from(t, 'utf8');
      const whole = read(t, []);
      assert.equal(readChunks([bytes]).statements.length, whole.statements.length);
      assert.deepEqual(readChunks([bytes]), whole);
      for (let cut = 1; cut < bytes.length; cut += 61) {
        assert.deepEqual(readChunks([bytes.subarray(0, cut), bytes.subarray(cut, cut + 700), bytes.subarray(cut + 700)]), whole, `split at ${cut}`);
      }
    }
    assert.equal(read(panicked, []).panic, '0.1 integer divide by zero');
    assert.equal(read(text, []).panic, null);
  });
});
