// Asking the whole run (issue 30, point 5) on a 1M-op recording made with the real machin here (a
// producer and a consumer, two ops per value, the consumer's loop line hit 500,000 times): a log
// point on that line evaluated with its first page (200 hits), and every line's hit counts, each
// as a ratio to the statement index build (parse machin's stderr, index, total order) measured in
// this run, and absolute against the goals. QUESTIONS_BENCH_OPS changes the size.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogPoint } from '../debug-adapter/log-point-hits';
import { enrichWithMachin } from '../replay-engine/machin/enrich';
import { sureEvents } from '../replay-engine/machin/source/happens-before';
import { writeInstrumentedCopy } from '../replay-engine/machin/source/instrument';
import { indexInstrumentedReplay, StatementProbes } from '../replay-engine/machin/source/statement-replay';
import { retargetTraceCopy, writeTraceCopy } from '../replay-engine/machin/trace-copy';
import { readMflrr } from '../replay-engine/mflrr/recording';
import { lineCounts } from '../replay-engine/model/line-counts';
import { machinPath } from '../test/support/machin';
import type { BenchResult } from './types';

const OUT = join(__dirname, 'out');
const OPS = Number(process.env.QUESTIONS_BENCH_OPS ?? 1_000_000);
const LIMIT_MS = 300_000;

async function timed<T>(f: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const t = process.hrtime.bigint();
  const value = await f();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(OUT, { recursive: true });
  const program = join(OUT, 'questions.mfl');
  writeFileSync(program, [
    'func producer(ch, n) { i := 0  for i < n { ch <- i  i = i + 1 } close(ch) }',
    'func main() {',
    '    ch := make(chan int)',
    `    go producer(ch, ${Math.ceil(OPS / 2)})`,
    '    total := 0',
    '    for v := range ch { total = total + v % 7 }',
    '    println(str(total))',
    '}',
    '',
  ].join('\n'));
  const trace = join(OUT, `questions-${OPS}.mflrr`);
  const rec0 = spawnSync(machinPath(), ['run', '--record', trace, program], { timeout: LIMIT_MS, stdio: 'ignore' });
  if (rec0.status !== 0) throw new Error('machin run --record failed');
  // The index build, as enrich makes it, for the ratio.
  const copy = await writeInstrumentedCopy(program);
  const plainTrace = await writeTraceCopy(trace, program);
  const probedTrace = await retargetTraceCopy(plainTrace, copy.file);
  let buildMs: number;
  try {
    const r = spawnSync(machinPath(), ['replay', probedTrace, '--verify', '--print', ['i', 'total', ...copy.table.probeNames].join(',')], { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 30 });
    const tl = (await readMflrr(trace)).timeline;
    const built = await timed(async () => {
      const statements = new StatementProbes(copy.table);
      const output = await statements.parse(r.stderr);
      return indexInstrumentedReplay(tl, { flags: [], exitCode: 0, stdout: '', stderr: r.stderr, output }, statements, copy.table, program, ['i', 'total'], sureEvents(statements, copy.table, tl, '0'), null);
    });
    buildMs = built.ms;
  } finally {
    await copy.remove();
    await plainTrace.remove();
  }
  const rec = await readMflrr(trace);
  await enrichWithMachin(rec, { machinPath: machinPath(), programRoots: [OUT], timeLimitMs: LIMIT_MS });
  const s = rec.statements;
  if (!s || rec.sourceLevel?.state !== 'ready') throw new Error(`no statements: ${JSON.stringify(rec.sourceLevel)}`);
  const logPoint = await timed(() => new LogPoint(rec, s, { line: 6, logMessage: 'total={total} v={v}' }).page(0, 200));
  const counts = await timed(() => lineCounts(s, rec.timeline));
  const again = await timed(() => lineCounts(s, rec.timeline));
  const loop = counts.value.lines.find((l) => l.line === 6)?.hits ?? 0;
  return [
    { name: `statement index build, ${rec.timeline.stepCount} ops, ${s.eventCount} events (baseline)`, value: buildMs, unit: 'ms' },
    { name: `log point on a line hit ${logPoint.value.arrivals} times, first page (${logPoint.value.hits.length})`, value: logPoint.ms / buildMs, unit: 'x build' },
    { name: '  the same, absolute', value: logPoint.ms, unit: 'ms', goal: '< 1000 ms', ok: logPoint.ms < 1000 },
    { name: `every line's hit counts (${counts.value.lines.length} lines, loop line ${loop})`, value: counts.ms / buildMs, unit: 'x build' },
    { name: '  the same, absolute', value: counts.ms, unit: 'ms', goal: '< 200 ms', ok: counts.ms < 200 },
    { name: '  asked again (kept per index)', value: again.ms, unit: 'ms' },
  ];
}
