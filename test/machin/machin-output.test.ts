// Parsing what `machin replay` prints: every recorded output of every fixture (checked against the
// trace files and the programs' own output, not against the parser), then the forms the fixtures
// do not show (multi-line messages, deadlocks, errors, unknown text).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseReplayOutput } from '../../replay-engine/machin/machin-output';
import { fixtureTraces, ioValues, recorded, scheduleLines } from './support';

const traces = fixtureTraces();

describe('machin replay outputs of the fixtures', () => {
  it('finds every fixture trace', () => assert.ok(traces.length >= 11, `${traces.length} traces`));

  for (const fx of traces) {
    const chain = scheduleLines(fx.traceFile);
    const text = readFileSync(fx.traceFile, 'latin1');
    const bestEffort = /^boundary best-effort$/m.test(text);
    for (const r of fx.replays) {
      const flags = r.args.filter((a) => a !== 'replay' && a !== '{trace}');
      it(`${fx.name}: replay ${flags.join(' ')}`, () => {
        const out = parseReplayOutput(r.stderr);
        assert.deepEqual(out.unknown, [], 'every line of the real tool is understood');
        assert.equal(out.bestEffort, bestEffort);
        if (statSync(fx.traceFile).size === 0) {
          assert.equal(out.failure?.kind, 'no-program-line');
          return;
        }
        assert.equal(out.failure, null);

        const panicked = /^panic: /m.test(r.stderr) || r.stderr.startsWith('{"panic"');
        assert.equal(out.panic !== null, panicked);
        if (out.panic) {
          assert.equal(out.panic.scheduleTotal, chain.length, 'N = the S lines of the trace');
          assert.ok(out.panic.scheduleOp <= chain.length);
          if (flags.includes('--json')) {
            assert.equal(out.panic.form, 'json');
            assert.deepEqual(out.panic.causalChain, chain.slice(0, out.panic.scheduleOp), 'the chain is the first P S lines');
          } else {
            assert.equal(out.panic.causalChain, null);
          }
          // The recording run printed the same message.
          const recordedMessage = /panic: (.*)\n/.exec(JSON.parse(readFileSync(`${fx.dir}/outputs.json`, 'utf8')).record.stderr)![1];
          assert.equal(out.panic.message, recordedMessage);
          // The plain replay says the same goroutine and op.
          const plain = parseReplayOutput(recorded(fx, null)!.stderr).panic!;
          assert.deepEqual([out.panic.goroutine, out.panic.scheduleOp], [plain.goroutine, plain.scheduleOp]);
        }

        if (flags.includes('--verify') && !panicked) {
          const v = out.verify!;
          assert.equal(v.scheduleTotal, chain.length);
          assert.equal(v.boundary, bestEffort ? 'best-effort' : 'faithful');
          const faithful = v.scheduleDone === v.scheduleTotal && !v.ioUnderrun && v.boundary === 'faithful';
          assert.equal(v.verdict, faithful ? 'FAITHFUL' : 'DIVERGED');
        } else {
          assert.equal(out.verify, null);
        }

        const printAt = flags.indexOf('--print');
        if (printAt < 0) {
          assert.deepEqual(out.probes, []);
          return;
        }
        const names = flags[printAt + 1].split(',');
        assert.equal(out.probes.length, (r.stderr.match(/^probe /gm) ?? []).length);
        let from = 0;
        let lastOp = 0;
        for (const p of out.probes) {
          assert.ok(names.includes(p.name), `${p.name} was asked for`);
          assert.ok(p.op >= lastOp && p.op <= chain.length, 'ops in true order, within the schedule');
          lastOp = p.op;
          const printed = `probe ${p.goroutine} ${p.name} = ${p.value} @op${p.op}\n`;
          const at = r.stderr.indexOf(printed, from);
          assert.ok(at >= from, `${JSON.stringify(printed)} printed in this order`);
          from = at + printed.length;
        }
      });
    }
  }

  it('the recording runs\' outputs too (machin run --record): panics and the deadlock report', () => {
    for (const fx of traces) {
      const outputs = JSON.parse(readFileSync(`${fx.dir}/outputs.json`, 'utf8'));
      if (!outputs.record) continue;
      const out = parseReplayOutput(outputs.record.stderr);
      assert.deepEqual(out.unknown, [], fx.name);
      const panic = /^panic: (.*)\n {2}\(record: goroutine (\S+), schedule op (\d+)\/(\d+)\)$/m.exec(outputs.record.stderr);
      assert.deepEqual(out.panic && [out.panic.message, out.panic.goroutine, out.panic.scheduleOp, out.panic.scheduleTotal], panic && [panic[1], panic[2], Number(panic[3]), Number(panic[4])]);
      const blocked = [...outputs.record.stderr.matchAll(/^ {2}goroutine (\S+)/gm)].map((m) => m[1]);
      assert.deepEqual(out.deadlock?.blocked.map((b) => b.goroutine) ?? [], blocked);
      if (out.deadlock) assert.equal(out.deadlock.goroutineCount, blocked.length);
    }
    const deadlock = parseReplayOutput(JSON.parse(readFileSync(`${traces.find((t) => t.name.startsWith('deadlock/'))!.dir}/outputs.json`, 'utf8')).record.stderr).deadlock!;
    assert.deepEqual(deadlock.blocked, [
      { goroutine: '0', waiting: 'waiting to receive on channel #1' },
      { goroutine: '0.1', waiting: 'waiting to receive on channel #0' },
    ]);
  });

  it('probe values equal what the program read and printed', () => {
    const probes = (name: string) => {
      const fx = traces.find((t) => t.name === name)!;
      return { fx, out: parseReplayOutput(recorded(fx, '--print')!.stderr).probes };
    };
    const last = (ps: Array<{ name: string; value: string }>, n: string) => ps.filter((p) => p.name === n).at(-1)!.value;

    const reader = probes('reader/reader.mflrr');
    const reads = ioValues(reader.fx.traceFile, '0');
    assert.equal(last(reader.out, 'secret'), reads[0]);
    assert.equal(reads[0], 'payload-42\n', 'a value that ends in a line break');
    assert.equal(last(reader.out, 't'), reads[1]);

    const stdin = probes('stdin/stdin.mflrr');
    const input = ioValues(stdin.fx.traceFile, '0')[0];
    assert.equal(last(stdin.out, 'text'), input);
    assert.equal(last(stdin.out, 'n'), String(input.length));

    for (const name of ['flaky/flaky.mflrr', 'flaky-runs/r1.mflrr', 'flaky-runs/r3.mflrr', 'flaky-runs/r14.mflrr']) {
      const flaky = probes(name);
      assert.equal(`${last(flaky.out, 'order')}\n`, recorded(flaky.fx, '--print')!.stdout, `${name}: order is what it printed`);
      assert.equal(flaky.out.filter((p) => p.name === 'order')[0].value, '', 'an empty value');
    }
    const pipeline = probes('pipeline/pipeline.mflrr');
    assert.equal(`total ${last(pipeline.out, 'total')}\n`, recorded(pipeline.fx, '--print')!.stdout);
    const crash = probes('crash/crash.mflrr');
    assert.match(parseReplayOutput(recorded(crash.fx, null)!.stderr).panic!.message, new RegExp(`\\[${last(crash.out, 'idx')}\\]`));
  });
});

describe('machin replay output forms the fixtures do not show', () => {
  it('a JSON panic whose message has a line break and quotes (machin escapes only " and \\)', () => {
    const out = parseReplayOutput('probe 0 x = 1 @op0\n{"panic":"bad \\"thing\\"\nsecond\tline","goroutine":"0.1","scheduleOp":2,"scheduleTotal":3,"causalChain":["0","0.1"]}\n');
    assert.deepEqual(out.panic, { message: 'bad "thing"\nsecond\tline', goroutine: '0.1', scheduleOp: 2, scheduleTotal: 3, causalChain: ['0', '0.1'], form: 'json' });
    assert.equal(out.probes.length, 1);
    assert.deepEqual(out.unknown, []);
  });

  it('a plain panic whose message spans lines', () => {
    const out = parseReplayOutput('panic: first\nsecond\n  (replay: goroutine 0.2.1, schedule op 7/9)\n');
    assert.equal(out.panic?.message, 'first\nsecond');
    assert.equal(out.panic?.goroutine, '0.2.1');
    assert.equal(out.panic?.scheduleOp, 7);
    assert.equal(out.panic?.scheduleTotal, 9);
  });

  it('another goroutine\'s probe glued between a panic message and its newline is read apart (machin writes them apart)', () => {
    // mfl_panic: fputs("panic: "), fputs(msg), fputc('\\n'): a probe of another goroutine can land between
    const out = parseReplayOutput('probe 0.1 v = 0 @op2\npanic: integer divide by zeroprobe 0 fr_stmt0 = 24 @op2\n\n  (replay: goroutine 0.1.2, schedule op 2/2)\n');
    assert.equal(out.panic?.message, 'integer divide by zero');
    assert.equal(out.panic?.goroutine, '0.1.2');
    assert.deepEqual(out.probes.map((p) => [p.goroutine, p.name, p.value, p.op]), [['0.1', 'v', '0', 2], ['0', 'fr_stmt0', '24', 2]]);
    assert.deepEqual(out.unknown, []);
    // a message that merely holds the word is kept whole
    const plain = parseReplayOutput('panic: bad probe here\n  (replay: goroutine 0, schedule op 1/1)\n');
    assert.equal(plain.panic?.message, 'bad probe here');
  });

  it('probes: empty values, spaces, " @op" inside a value, a value of several lines', () => {
    const out = parseReplayOutput('probe 0 s =  @op0\nprobe 0.1 s = a @op3 b @op4\nprobe 0 m = one\ntwo\n\n @op5\nprobe 0 sp =    @op6\n');
    assert.deepEqual(
      out.probes.map((p) => [p.goroutine, p.name, p.value, p.op]),
      [
        ['0', 's', '', 0],
        ['0.1', 's', 'a @op3 b', 4],
        ['0', 'm', 'one\ntwo\n\n', 5],
        ['0', 'sp', '  ', 6],
      ],
    );
  });

  it('a deadlock, as text and as --json', () => {
    const text = parseReplayOutput('fatal: deadlock \u2014 all 2 goroutine(s) blocked, none can make progress:\n  goroutine 0     waiting to receive on channel #1\n  goroutine 0.1   waiting in a select (no case can ever fire)\n');
    assert.deepEqual(text.deadlock, {
      goroutineCount: 2,
      blocked: [
        { goroutine: '0', waiting: 'waiting to receive on channel #1' },
        { goroutine: '0.1', waiting: 'waiting in a select (no case can ever fire)' },
      ],
    });
    const json = parseReplayOutput('{"deadlock":true,"goroutines":2,"blocked":[{"goroutine":"0","recvOnChannel":1},{"goroutine":"0.1","blockedInSelect":true}]}\n');
    assert.deepEqual(json.deadlock, text.deadlock);
  });

  it('errors: a missing program, no program line, a compile error over several lines', () => {
    assert.deepEqual(parseReplayOutput('error: open /home/ci/app/x.mfl: no such file or directory\n').failure, {
      kind: 'program-missing',
      path: '/home/ci/app/x.mfl',
      message: 'open /home/ci/app/x.mfl: no such file or directory',
    });
    assert.equal(parseReplayOutput('error: replay: trace has no `program` line \u2014 record it with `machin run --record`\n').failure?.kind, 'no-program-line');
    const compile = parseReplayOutput('error: typecheck: line 3: undefined name q\n  q := 1\n');
    assert.deepEqual(compile.failure, { kind: 'error', message: 'typecheck: line 3: undefined name q\n  q := 1' });
    assert.deepEqual(compile.unknown, []);
  });

  it('keeps text it does not know, never throws', () => {
    const out = parseReplayOutput('cc: warning: something\r\n{"panic": broken\npanic: no location line\nprobe without tail = x\n');
    assert.deepEqual(out.unknown, ['cc: warning: something', '{"panic": broken', 'panic: no location line', 'probe without tail = x']);
    assert.equal(out.panic, null);
    for (const junk of ['', '\n\n', '\u0000\u0001', '{"panic":"x","goroutine":1}]}', 'replay-verify: schedule x/y']) assert.doesNotThrow(() => parseReplayOutput(junk));
  });
});

describe('a panic with other goroutines\' probe lines in between', () => {
  it('keeps the message whole and the probes as probes (seen with the real machin under load)', () => {
    const stderr = [
      'panic: probe 0.2 k = 1 @op16',
      'probe 0.2 item = job-1 @op16',
      'probe 0.2 k = 4 @op19',
      'index out of range [4] with length 3',
      '  (replay: goroutine 0, schedule op 15/20)',
      '',
    ].join('\n');
    const out = parseReplayOutput(stderr);
    assert.equal(out.panic?.message, 'index out of range [4] with length 3');
    assert.deepEqual([out.panic?.goroutine, out.panic?.scheduleOp], ['0', 15]);
    assert.deepEqual(out.probes.map((p) => `${p.goroutine} ${p.name}=${p.value} @${p.op}`), ['0.2 k=1 @16', '0.2 item=job-1 @16', '0.2 k=4 @19']);
  });
});

describe('probe lines: the fast path reads what the general one reads', () => {
  it('empty values, values with spaces or " @op" inside, one space too few, a value over lines', () => {
    const out = parseReplayOutput(
      [
        'probe 0 x =  @op3',
        'probe 0.1 msg = a b  c @op12',
        'probe 0 s = x @op5 @op7',
        'probe 0 t = @op3',
        'still t @op4',
        'probe 0 u = 1 @op',
        ' @op9',
      ].join('\n'),
    );
    assert.deepEqual(out.probes, [
      { goroutine: '0', name: 'x', value: '', op: 3 },
      { goroutine: '0.1', name: 'msg', value: 'a b  c', op: 12 },
      { goroutine: '0', name: 's', value: 'x @op5', op: 7 },
      { goroutine: '0', name: 't', value: '@op3\nstill t', op: 4 },
      { goroutine: '0', name: 'u', value: '1 @op\n', op: 9 },
    ]);
    assert.deepEqual(out.unknown, []);
  });
});
