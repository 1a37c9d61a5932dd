// The statement index of a 1M-op recording (issue 14, point 2): recorded with the real machin in
// this run (a producer and a consumer, two ops per value), replayed plain (`--verify`, the
// baseline) and against the instrumented copy (`--verify --print` of the probe locals), then
// indexed. Reports the instrumented replay plus the index build as a ratio to the plain replay,
// the index build alone as a ratio to it, and bytes per statement event. STATEMENT_BENCH_OPS
// changes the size.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeInstrumentedCopy } from '../replay-engine/machin/source/instrument';
import { StatementIndex, type StatementProbe } from '../replay-engine/machin/source/statement-index';
import { writeTraceCopy } from '../replay-engine/machin/trace-copy';
import { machinPath } from '../test/support/machin';
import type { BenchResult } from './types';

const OUT = join(__dirname, 'out');
const OPS = Number(process.env.STATEMENT_BENCH_OPS ?? 1_000_000);
const LIMIT_MS = 300_000;

function timed<T>(f: () => T): { ms: number; value: T } {
  const t = process.hrtime.bigint();
  const value = f();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

function machin(args: string[]): string {
  const r = spawnSync(machinPath(), args, { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error(`machin ${args.join(' ')}: ${r.error?.message ?? r.stderr.slice(0, 500)}`);
  return r.stderr;
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(OUT, { recursive: true });
  const program = join(OUT, 'statements.mfl');
  const values = Math.ceil(OPS / 2);
  writeFileSync(program, [
    'func producer(ch, n) { i := 0  for i < n { ch <- i  i = i + 1 } close(ch) }',
    'func main() {',
    '    ch := make(chan int)',
    `    go producer(ch, ${values})`,
    '    total := 0',
    '    for v := range ch { total = total + v % 7 }',
    '    println(str(total))',
    '}',
    '',
  ].join('\n'));
  const trace = join(OUT, `statements-${OPS}.mflrr`);
  machin(['run', '--record', trace, program]);
  const copy = await writeInstrumentedCopy(program);
  const plainTrace = await writeTraceCopy(trace, program);
  const probedTrace = await writeTraceCopy(trace, copy.file);
  try {
    const plain = timed(() => machin(['replay', plainTrace.file, '--verify']));
    const probed = timed(() => machin(['replay', probedTrace.file, '--verify', '--print', copy.table.probeNames.join(',')]));
    if (!/FAITHFUL/.test(probed.value) || !/FAITHFUL/.test(plain.value)) throw new Error('a replay was not FAITHFUL');
    const built = timed(() => {
      const probes: StatementProbe[] = [];
      for (const m of probed.value.matchAll(/^probe (\S+) fr_stmt\d+ = (\d+) @op(\d+)$/gm)) {
        probes.push({ goroutine: m[1], statement: Number(m[2]), op: Number(m[3]) });
      }
      const schedule: string[] = [];
      for (const m of readFileSync(trace, 'latin1').matchAll(/^S (\S+)$/gm)) schedule.push(m[1]);
      return { index: new StatementIndex(copy.table, probes, schedule), events: probes.length, ops: schedule.length };
    });
    const { index, events, ops } = built.value;
    return [
      { name: `plain replay, ${ops} ops (baseline)`, value: plain.ms, unit: 'ms' },
      // machin's own cost of printing every probe: measured, no goal of ours
      { name: `instrumented replay (machin), ${events} events`, value: probed.ms / plain.ms, unit: 'x plain' },
      { name: 'instrumented replay + index build', value: (probed.ms + built.ms) / plain.ms, unit: 'x plain' },
      { name: 'index build alone (parse probes + trace, index)', value: built.ms / plain.ms, unit: 'x plain', goal: '<= 1x plain replay', ok: built.ms <= plain.ms },
      { name: 'statement index memory', value: index.byteLength() / events, unit: 'B/event', goal: '<= 16 B/event', ok: index.byteLength() / events <= 16 },
    ];
  } finally {
    await copy.remove();
    await plainTrace.remove();
    await probedTrace.remove();
  }
}
