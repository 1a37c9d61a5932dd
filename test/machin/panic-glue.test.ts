// A panic with other goroutines' probe lines inside it (machin's mfl_panic writes the panic in
// pieces without the probes' lock: replay-engine/machin/panic-block.ts). The outputs below are
// shaped as the real machin 0.137.0 printed them under load (the first: a replay of main dividing
// by zero while three siblings loop), and every one is read the same whole, in slices and in
// chunks split at every offset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReplayOutput, parseReplayOutputInSlices, ReplayOutputStream, type ProbeSink, type ReplayOutput } from '../../replay-engine/machin/machin-output';

const WHERE = '  (replay: goroutine 0, schedule op 0/0)\n';
const lines = (from: number, to: number, g = '0.3') => Array.from({ length: to - from }, (_, k) => `probe ${g} i = ${from + k} @op0\n`).join('');

/** What a reading gives that a user sees: the panic and every probe in order. */
function seen(out: ReplayOutput) {
  return { panic: out.panic, probes: out.probes.map((p) => `${p.goroutine} ${p.name}=${JSON.stringify(p.value)} @${p.op}`), unknown: out.unknown };
}

/** The same text read whole, split in two at every offset, one character at a time, and in slices. */
async function readEveryWay(text: string) {
  const whole = seen(parseReplayOutput(text));
  for (let cut = 0; cut <= text.length; cut++) {
    const stream = new ReplayOutputStream();
    stream.push(text.slice(0, cut));
    stream.push(text.slice(cut));
    assert.deepEqual(seen(stream.end()), whole, `split at ${cut}: ${JSON.stringify(text.slice(Math.max(0, cut - 10), cut))}|`);
  }
  const byChar = new ReplayOutputStream();
  for (const c of text) byChar.push(c);
  assert.deepEqual(seen(byChar.end()), whole, 'one character at a time');
  const sink: ProbeSink = { names: new Set(), take: () => undefined };
  assert.deepEqual(seen(await parseReplayOutputInSlices(text, sink, { size: 7 })), whole, 'in slices of 7');
  return whole;
}

describe('a text panic with probe lines inside it', () => {
  it('several probes glued after the message, then the panic\'s newline (seen with the real machin)', async () => {
    const text = `${lines(0, 3, '0.1')}panic: integer divide by zeroprobe 0.2 i = 8 @op0\n${lines(0, 24)}\n${WHERE}${lines(3, 5, '0.1')}`;
    const out = await readEveryWay(text);
    assert.equal(out.panic?.message, 'integer divide by zero');
    assert.deepEqual([out.panic?.goroutine, out.panic?.scheduleOp, out.panic?.form], ['0', 0, 'text']);
    assert.deepEqual(out.probes, [
      ...[0, 1, 2].map((i) => `0.1 i="${i}" @0`),
      '0.2 i="8" @0',
      ...Array.from({ length: 24 }, (_, i) => `0.3 i="${i}" @0`),
      '0.1 i="3" @0',
      '0.1 i="4" @0',
    ]);
    assert.deepEqual(out.unknown, []);
  });

  it('a probe glued right after "panic: ", more before the message, glued after it and after its newline', async () => {
    const text = `panic: probe 0.2 k = 1 @op16\nprobe 0.3 k = 2 @op16\nindex out of range [4] with length 3probe 0.2 k = 3 @op17\nprobe 0.3 k = 4 @op17\n\nprobe 0.2 k = 5 @op18\n  (replay: goroutine 0.1, schedule op 15/20)\n`;
    const out = await readEveryWay(text);
    assert.equal(out.panic?.message, 'index out of range [4] with length 3');
    assert.deepEqual([out.panic?.goroutine, out.panic?.scheduleOp, out.panic?.scheduleTotal], ['0.1', 15, 20]);
    assert.deepEqual(out.probes, ['0.2 k="1" @16', '0.3 k="2" @16', '0.2 k="3" @17', '0.3 k="4" @17', '0.2 k="5" @18']);
    assert.deepEqual(out.unknown, []);
  });

  it('a message of several lines, one holding the word probe, an empty one, values over lines, CR LF', async () => {
    const multi = await readEveryWay(`panic: first\nsecond probe here\nthird 3probe 0.1 s = two\nlines @op2\nprobe 0.2 t = x @op2\n\n${WHERE}`);
    assert.equal(multi.panic?.message, 'first\nsecond probe here\nthird 3');
    assert.deepEqual(multi.probes, ['0.1 s="two\\nlines" @2', '0.2 t="x" @2']);
    const empty = await readEveryWay(`panic: probe 0.1 a = 1 @op0\n\n${WHERE}`);
    assert.equal(empty.panic?.message, '');
    assert.deepEqual(empty.probes, ['0.1 a="1" @0']);
    const crlf = await readEveryWay(`panic: integer overflow (*)probe 0.1 a = 1 @op3\r\nprobe 0.1 a = 2 @op3\r\n\r\n  (replay: goroutine 0.2, schedule op 3/3)\r\n`);
    assert.equal(crlf.panic?.message, 'integer overflow (*)');
    assert.deepEqual(crlf.probes, ['0.1 a="1" @3', '0.1 a="2" @3']);
    assert.deepEqual(crlf.unknown, []);
  });

  it('statement probes inside a panic reach the sink in the order machin printed them, with their goroutines', async () => {
    const text = `probe 0 fr_stmt0 = 4 @op0\npanic: integer divide by zeroprobe 0.1 fr_stmt1 = 7 @op0\nprobe 0.1 i = 3 @op0\nprobe 0.2 fr_stmt1 = 8 @op0\n\nprobe 0.1 fr_stmt1 = 9 @op0\n${WHERE}`;
    const order: string[] = [];
    const sink = (): ProbeSink => ({
      names: new Set(['fr_stmt0', 'fr_stmt1']),
      take: (g, v) => order.push(`${g} #${v}`),
      takeValue: (g, n, v) => order.push(`${g} ${n}=${v}`),
    });
    const expected = ['0 #4', '0.1 #7', '0.1 i=3', '0.2 #8', '0.1 #9'];
    assert.equal(parseReplayOutput(text, sink()).panic?.message, 'integer divide by zero');
    assert.deepEqual(order.splice(0), expected);
    for (let cut = 0; cut <= text.length; cut++) {
      const stream = new ReplayOutputStream(sink());
      stream.push(text.slice(0, cut));
      stream.push(text.slice(cut));
      assert.equal(stream.end().panic?.message, 'integer divide by zero');
      assert.deepEqual(order.splice(0), expected, `split at ${cut}`);
    }
  });

  it('a panic line with no location line is kept as text, not waited for forever', async () => {
    const out = await readEveryWay('panic: no location line\nprobe 0 a = 1 @op0\n');
    assert.equal(out.panic, null);
    assert.deepEqual(out.unknown, ['panic: no location line']);
    assert.deepEqual(out.probes, ['0 a="1" @0']);
  });
});

describe('a --json panic with probe lines inside it (machin writes its message a character at a time)', () => {
  it('probes right after {"panic":", inside the message, before the fields and inside the chain', async () => {
    const text =
      'probe 0.1 i = 1 @op1\n' +
      '{"panic":"probe 0.1 i = 2 @op1\ninteger divprobe 0.1 i = 3 @op1\nide by zeroprobe 0.2 j = 1 @op1\n' +
      '","goroutine":"0","scheduleOp":2,"scheduleTotal":3,"causalChain":["0.1"probe 0.1 i = 4 @op2\n,"0"]}\n' +
      'probe 0.1 i = 5 @op2\n';
    const out = await readEveryWay(text);
    assert.deepEqual(out.panic, { message: 'integer divide by zero', goroutine: '0', scheduleOp: 2, scheduleTotal: 3, causalChain: ['0.1', '0'], form: 'json' });
    assert.deepEqual(out.probes, ['0.1 i="1" @1', '0.1 i="2" @1', '0.1 i="3" @1', '0.2 j="1" @1', '0.1 i="4" @2', '0.1 i="5" @2']);
    assert.deepEqual(out.unknown, []);
  });

  it('a message with a line break and the word probe is kept whole', async () => {
    const out = await readEveryWay('{"panic":"bad probe\nhere","goroutine":"0.1","scheduleOp":1,"scheduleTotal":1,"causalChain":["0"]}\n');
    assert.equal(out.panic?.message, 'bad probe\nhere');
    assert.deepEqual(out.probes, []);
  });
});
