// The instrumented replay's stderr as the output channel shows it (run-replay.ts ProbeLineFilter):
// every line but machin's probe lines, which are counted, whatever the chunks machin's output
// arrives in; held to a plain line-by-line reading of the whole text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplayOutputStream, type ProbeSink } from '../../replay-engine/machin/machin-output';
import { ProbeLineFilter } from '../../replay-engine/machin/run-replay';

const STDERR = [
  'warning: best-effort trace (the program uses FFI) -- replay may diverge from the recorded run',
  'probe 0 fr_stmt0 = 12 @op0',
  'probe 0.1 total = 36 @op1234567',
  'probe 0.1 s = a text with spaces = and @op in it @op7',
  'probe 0.1 s = a text that ends without its op',
  'probe 0 x = 1 @op',
  'probe 0 x = 1 @opx',
  'panic: integer divprobe 0.1 k = 3 @op9',
  'ide by zero  (replay: goroutine 0.1, schedule op 9/12)',
  'probe 0 fr_stmt0 = 4 @op12\r',
  'replay-verify: schedule 12/12 ops, io-underrun=no, boundary=faithful -> DIVERGED',
  '',
  'the last line, without its newline',
].join('\n');

/** The reading to hold it to: the whole text split into lines, a probe line being `probe ` … ` @op` digits. */
function reference(text: string): string {
  const lines = text.split('\n');
  const last = lines.pop()!;
  const kept = lines.filter((l) => !(l.startsWith('probe ') && / @op\d+$/.test(l)));
  const probes = lines.length - kept.length;
  return kept.map((l) => `${l}\n`).join('') + (last ? `${last}\n` : '') + `[${probes} probe lines of --print: the values are in the variable history]\n`;
}

function shown(chunks: string[]): string {
  let out = '';
  const filter = new ProbeLineFilter((text) => (out += text));
  for (const c of chunks) filter.push(c);
  filter.end();
  return out;
}

describe("the instrumented replay's stderr in the output channel", () => {
  it('shows every other line and counts the probe lines, read whole', () => {
    const want = reference(STDERR);
    assert.match(want, /^warning: best-effort.*\npanic: integer divprobe 0\.1 k = 3 @op9\nide by zero/s);
    assert.match(want, /\[3 probe lines of --print/);
    assert.equal(shown([STDERR]), want);
  });

  it('the same in chunks split anywhere, one character at a time included', () => {
    const want = reference(STDERR);
    assert.equal(shown([...STDERR]), want);
    for (let a = 0; a < STDERR.length; a += 7) {
      for (let b = a; b < STDERR.length; b += 29) assert.equal(shown([STDERR.slice(0, a), STDERR.slice(a, b), STDERR.slice(b)]), want, `split at ${a} and ${b}`);
    }
  });

  it('a replay without probes says nothing of them', () => {
    assert.equal(shown(['replay-verify: schedule 3/3 ops -> FAITHFUL\n', '6\n']), 'replay-verify: schedule 3/3 ops -> FAITHFUL\n6\n');
  });
});

// A streamed parse (the instrumented replay's) shows the lines it finds are no probes itself, so
// that machin's millions of probe lines are scanned once: held to ProbeLineFilter, on what machin
// prints (a probe whose value goes over lines is read as one probe there, and not shown).
const PRINTED = [
  'warning: best-effort trace (the program uses FFI) -- replay may diverge from the recorded run',
  'probe 0 fr_stmt0 = 12 @op0',
  'probe 0.1 total = 36 @op1234567',
  'probe 0.1 s = a text with spaces = and @op in it @op7',
  'panic: integer divprobe 0.1 k = 3 @op9',
  'ide by zero  (replay: goroutine 0.1, schedule op 9/12)',
  'probe 0 fr_stmt0 = 4 @op12',
  'replay-verify: schedule 12/12 ops, io-underrun=no, boundary=faithful -> DIVERGED',
  '',
  'the last line, without its newline',
].join('\n');

function streamedShown(chunks: string[], withSink: boolean): string {
  let out = '';
  const sink: ProbeSink = { names: new Set(['fr_stmt0']), take: () => undefined, takeValue: () => undefined, takeNumber: () => undefined };
  const stream = new ReplayOutputStream(withSink ? sink : undefined);
  stream.showOthers((text) => (out += text));
  for (const c of chunks) stream.push(c);
  stream.end();
  return out + (stream.probes > 0 ? `[${stream.probes} probe lines of --print: the values are in the variable history]\n` : '');
}

describe("the instrumented replay's stderr in the output channel, shown by its streamed parse", () => {
  for (const withSink of [true, false]) {
    it(`the same lines as the filter, in chunks split anywhere (${withSink ? 'statement probes taken by a sink' : 'no sink'})`, () => {
      const want = shown([PRINTED]);
      assert.match(want, /\[4 probe lines of --print/);
      assert.equal(streamedShown([PRINTED], withSink), want);
      for (let a = 0; a < PRINTED.length; a += 5) {
        for (let b = a; b < PRINTED.length; b += 23) assert.equal(streamedShown([PRINTED.slice(0, a), PRINTED.slice(a, b), PRINTED.slice(b)], withSink), want, `split at ${a} and ${b}`);
      }
    });
  }
});
