// Each machin replay on one CPU of its own, under SCHED_BATCH (replay-engine/machin/replay-cores.ts):
// the two replays of a source-level launch go to two different CPUs through taskset, and what they
// answer is what replays placed by the system answer: the same panic, statements and values.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { enrichWithMachin } from '../../replay-engine/machin/enrich';
import { machinCores, parseCpuList, replayCommandPrefix, replayCpu } from '../../replay-engine/machin/replay-cores';
import { readMflrr } from '../../replay-engine/mflrr/recording';
import { searchPath } from '../../replay-engine/toolchain/find-executable';
import { machinPath, recordProgram } from '../support/machin';
import { tempDir } from './support';

const MACHIN = machinPath();

// A producer, a helper per item, a consumer that panics on the last item.
const PROGRAM = `func twice(x) {
    y := x * 2
    return y
}

func producer(out, n) {
    i := 0
    for i < n {
        v := twice(i)
        out <- v
        i = i + 1
    }
}

func main() {
    ch := make(chan int)
    go producer(ch, 40)
    k := 0
    total := 0
    for k < 40 {
        v := <-ch
        total = total + v
        k = k + 1
    }
    println(str(total / (k - 40)))
}
`;

const allowed = parseCpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '');
const pinnable = allowed.length >= 2 && searchPath('taskset', process.env) !== undefined;
const batchable = process.platform === 'linux' && searchPath('chrt', process.env) !== undefined;

describe('one CPU per machin replay', () => {
  it('reads the CPU list the kernel gives (ranges and single CPUs), and nothing of a list it cannot read', () => {
    assert.deepEqual(parseCpuList('0-1'), [0, 1]);
    assert.deepEqual(parseCpuList('0-3,6\n'), [0, 1, 2, 3, 6]);
    assert.deepEqual(parseCpuList('5'), [5]);
    assert.deepEqual(parseCpuList(''), []);
    assert.deepEqual(parseCpuList('3-1'), []);
    assert.deepEqual(parseCpuList('all'), []);
  });

  it('is on unless asked otherwise: by the option, else FROZEN_RUN_MACHIN_CORES=any', () => {
    assert.equal(machinCores(undefined, {}), 'one');
    assert.equal(machinCores(undefined, { FROZEN_RUN_MACHIN_CORES: 'any' }), 'any');
    assert.equal(machinCores(undefined, { FROZEN_RUN_MACHIN_CORES: 'all of them' }), 'one');
    assert.equal(machinCores('one', { FROZEN_RUN_MACHIN_CORES: 'any' }), 'one');
    assert.equal(machinCores('any', {}), 'any');
    assert.deepEqual(replayCpu('any', 0), []);
    assert.deepEqual(replayCpu('any', 1), []);
  });

  it('runs what it prefixes under SCHED_BATCH, on one CPU or anywhere', (t) => {
    if (!batchable) return t.skip('no chrt on this machine');
    for (const [cores, slot] of [['one', 0], ['one', 1], ['any', 0]] as const) {
      const [command, ...args] = [...replayCommandPrefix(cores, slot), 'sh', '-c', 'chrt -p $$; taskset -cp $$'];
      const r = spawnSync(command, args, { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /current scheduling policy: SCHED_BATCH/, `${cores} ${slot}: ${r.stdout}`);
      const list = /current affinity list: (\S+)/.exec(r.stdout)?.[1] ?? '';
      if (cores === 'one' && pinnable) assert.deepEqual(parseCpuList(list), [allowed[allowed.length - 1 - slot]], r.stdout);
      else assert.deepEqual(parseCpuList(list), allowed, r.stdout);
    }
  });

  it('runs the plain and the statements-only replay on two different CPUs, and they answer what replays anywhere answer', async (t) => {
    if (!pinnable) t.diagnostic(`this machine allows CPUs [${allowed.join(',')}]${searchPath('taskset', process.env) ? '' : ' and has no taskset'}: the replays run unpinned`);
    const dir = tempDir('replay-cores-');
    const { trace } = recordProgram(dir, 'cores', PROGRAM);
    const launch = async (cores: 'one' | 'any') => {
      const rec = await readMflrr(trace);
      const started: string[] = [];
      await enrichWithMachin(rec, { machinPath: MACHIN, programRoots: [dir], timeLimitMs: 60_000, machinCores: cores, onOutput: (o) => o.startsWith('$ ') && started.push(o) });
      return { rec, started };
    };
    const one = await launch('one');
    const any = await launch('any');
    // the plain and the statements-only replay side by side; the values' replay after them
    assert.equal(one.started.length, 3, one.started.join(''));
    const cpu = (line: string) => /\/taskset -c (\d+) \S*machin replay /.exec(line)?.[1];
    if (pinnable) {
      const cpus = one.started.map(cpu);
      assert.ok(cpus.every((c) => c !== undefined && allowed.includes(Number(c))), one.started.join(''));
      assert.notEqual(cpus[0], cpus[1], 'side by side, on two CPUs');
      assert.match(one.started[0], /--print fr_stmt0(,fr_mark0(,fr_cut0)?)?\n$/, 'the first is the statements-only replay');
    }
    assert.ok(any.started.every((l) => cpu(l) === undefined && !/taskset/.test(l)), any.started.join(''));
    if (batchable) assert.ok([...one.started, ...any.started].every((l) => /\/chrt --batch 0 /.test(l)), one.started.join(''));

    assert.equal(one.rec.panic?.message, 'integer divide by zero');
    assert.equal(one.rec.panic?.message, any.rec.panic?.message);
    assert.equal(one.rec.panic?.position, any.rec.panic?.position);
    assert.equal(one.rec.sourceLevel?.state, 'ready');
    const s1 = one.rec.statements!;
    const s2 = any.rec.statements!;
    // (what a goroutine runs after main's panic races with the exit: kept, marked, and not compared)
    const sure = (s: typeof s1, r: typeof one.rec) => r.timeline.threads.map((th, t) => `${th.id}:${s.sureEventsOf(t)}`).join(' ');
    assert.equal(sure(s1, one.rec), sure(s2, any.rec));
    assert.ok(s1.eventCount - s1.unsure > 40 * 8, `${s1.eventCount - s1.unsure} sure statements`);
    const main = one.rec.timeline.threadIndex('0');
    const at = s1.location(main, s1.lastEvent(main));
    assert.equal(path.basename(at.file), 'cores.mfl');
    assert.equal(at.line, 25, 'the division that panicked');
    assert.equal(s2.location(any.rec.timeline.threadIndex('0'), s2.lastEvent(any.rec.timeline.threadIndex('0'))).line, 25);
    const values = (r: typeof one.rec, name: string) => r.histories!.entries(name).map((e) => [e.position, e.value]);
    assert.equal(values(one.rec, 'total').length, 41);
    assert.deepEqual(values(one.rec, 'total'), values(any.rec, 'total'));
    assert.deepEqual(values(one.rec, 'y'), values(any.rec, 'y'));
  });
});
