// The statement index of a 1M-op recording (issue 14, point 2): recorded with the real machin in
// this run (a producer and a consumer, two ops per value), replayed plain (`--verify`, the
// baseline) and against the instrumented copy (`--verify --print` of the probe locals and the
// program's variables, the one replay enrich runs for statements and values), then indexed from
// the recording's ProbePlacer as enrich does (machin's stderr parsed, statements split from
// values, the total order built). Reports the index build as a ratio to the plain replay, bytes
// per statement event, the whole source-level enrich as a ratio to the plain replay, and what the
// adapter's queries cost on it. STATEMENT_BENCH_OPS changes the size.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { enrichWithMachin } from '../replay-engine/machin/enrich';
import { parseReplayOutput } from '../replay-engine/machin/machin-output';
import { writeInstrumentedCopy } from '../replay-engine/machin/source/instrument';
import { sureEvents } from '../replay-engine/machin/source/happens-before';
import { indexInstrumentedReplay, StatementProbes } from '../replay-engine/machin/source/statement-replay';
import { retargetTraceCopy, writeTraceCopy } from '../replay-engine/machin/trace-copy';
import { readMflrr } from '../replay-engine/mflrr/recording';
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
  const probedTrace = await retargetTraceCopy(plainTrace, copy.file);
  const names = ['i', 'total'];
  try {
    const plain = timed(() => machin(['replay', plainTrace.file, '--verify']));
    // Without source level the values come from this replay (deferValues' second one)
    const valuesReplay = timed(() => machin(['replay', plainTrace.file, '--print', names.join(',')]));
    const probed = timed(() => machin(['replay', probedTrace, '--verify', '--print', [...names, ...copy.table.probeNames].join(',')]));
    if (!/FAITHFUL/.test(probed.value) || !/FAITHFUL/.test(plain.value)) throw new Error('a replay was not FAITHFUL');
    const rec = await readMflrr(trace);
    const tl = rec.timeline;
    // In slices with yields, as the enrichment reads it (a cancel is heard half way).
    const built = await timedAsync(async () => {
      const statements = new StatementProbes(copy.table);
      const output = await statements.parse(probed.value);
      const run = { flags: [], exitCode: 0, stdout: '', stderr: probed.value, output };
      return indexInstrumentedReplay(tl, run, statements, copy.table, program, names, sureEvents(statements, copy.table, tl, '0'), null);
    });
    const { index, values: valueRun } = built.value;
    // What reading the values alone costs (the plain --print replay's output without source level
    // is this): the part of the build above that is not the statements'.
    const valuesText = probed.value.split('\n').filter((l) => !/^probe \S+ fr_stmt\d+ = /.test(l)).join('\n');
    const valuesOnly = timed(() => parseReplayOutput(valuesText).probes.length);
    const events = index.eventCount;
    const ops = tl.stepCount;
    // The adapter's queries on it: the consumer's loop body line (every iteration a hit), Step
    // Over in main from its first statement (over the whole loop), the statement of the middle op.
    const loopLine = 6;
    const hits = timed(() => index.lineHits(loopLine));
    const main = tl.threadIndex('0');
    let loop = 0;
    while (index.location(main, loop).line !== loopLine) loop++;
    // Step Out of main from its loop: a scan of every later event of main (none is in a caller)
    const out = timed(() => index.stepTarget(main, loop, 'out'));
    const performer = timed(() => {
      let n = 0;
      for (let k = 0; k < 1000; k++) if (index.performerOfStep(Math.floor((k * ops) / 1000))) n++;
      return n;
    });
    // The whole bridge as a debug session runs it: plain replay, instrumented replay, index, values.
    const enrichRec = await readMflrr(trace);
    const enrich = await timedAsync(() => enrichWithMachin(enrichRec, { machinPath: machinPath(), programRoots: [OUT], timeLimitMs: LIMIT_MS }));
    if (enrichRec.sourceLevel?.state !== 'ready') throw new Error(`enrich gave no statements: ${JSON.stringify(enrichRec.sourceLevel)} ${JSON.stringify(enrichRec.warnings)}`);
    return [
      { name: `plain replay, ${ops} ops (baseline)`, value: plain.ms, unit: 'ms' },
      { name: 'plain --print replay of the values (without source level)', value: valuesReplay.ms / plain.ms, unit: 'x plain' },
      // machin's own cost of printing every probe: measured, no goal of ours
      { name: `instrumented replay (machin), ${events} events, ${valueRun.output.probes.length} values`, value: probed.ms / plain.ms, unit: 'x plain' },
      { name: 'index build (parse stderr, split, index, total order)', value: built.ms / plain.ms, unit: 'x plain' },
      { name: `  of which reading the ${valuesOnly.value} values (needed without source level too)`, value: valuesOnly.ms / plain.ms, unit: 'x plain' },
      { name: '  so the statements add', value: (built.ms - valuesOnly.ms) / plain.ms, unit: 'x plain', goal: '<= 1x plain replay', ok: built.ms - valuesOnly.ms <= plain.ms },
      { name: '  the statements\' part, absolute', value: built.ms - valuesOnly.ms, unit: 'ms' },
      { name: 'statement index memory', value: index.byteLength() / events, unit: 'B/event', goal: '<= 16 B/event', ok: index.byteLength() / events <= 16 },
      { name: 'enrich at source level (3 replays: plain and statements side by side, then the values; index and histories)', value: enrich.ms / plain.ms, unit: 'x plain' },
      { name: `lineHits of the loop line (${hits.value.length} hits)`, value: hits.ms, unit: 'ms', goal: '<= 500 ms', ok: hits.ms <= 500 },
      { name: `Step Out of main (scans ${index.eventsOf(main) - loop} events, finds ${out.value})`, value: out.ms, unit: 'ms', goal: '<= 200 ms', ok: out.ms <= 200 },
      { name: `statement of an op, 1000 lookups (${performer.value} found)`, value: performer.ms, unit: 'ms', goal: '<= 50 ms', ok: performer.ms <= 50 },
    ];
  } finally {
    await copy.remove();
    await plainTrace.remove();
  }
}

async function timedAsync<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = process.hrtime.bigint();
  const value = await f();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}
