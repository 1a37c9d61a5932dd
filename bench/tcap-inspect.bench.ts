// `frozen-run inspect` of a capsule of many small effects (300,000 of ~68 bytes: clock reads, task
// switches, short Redis answers, 3 tasks, ~20 MB), each a child process so that its peak RSS is
// its own, against in the same run (interleaved, so a busy machine slows all alike):
// - the plain Python reference open of the same file (bench/tcap_plain_open.py: one HMAC call
//   per 32-byte keystream block, as formats/tcap.md reads, then every record walked);
// - `inspect` of a capsule of the same size made of large effects;
// - `inspect --json` of the same capsule (every effect, decoded, streamed to /dev/null);
// - `inspect` and `inspect --json` of a capsule of the same shape whose effects never repeat
//   (distinct Redis calls and answers, uneven clock steps, one effect in 8 a wall clock read),
//   so that what the JSON writer keeps of effects seen before (line-memo.ts) cannot help.
// Goals (issue 16): inspect >= 15x the Python open and <= 1.5x the large-effect capsule, peak
// RSS <= 2x the file; --json <= 2x inspect's time, peak RSS <= 3x the file.
// TCAP_BENCH_BASELINE_CLI=path/to/an/older/cli.js also runs that build's inspect and --json,
// interleaved with the others, so a change is measured before and after in the same run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomKeyHex } from '../test/tcap/support/seal';
import { median, nodeEnv, runChild, type ChildRun } from './child-run';
import { largeEffectsCapsule, manySmallEffectsCapsule } from './generated-capsules';
import { BENCH_OUT } from './generated-trace';
import type { BenchResult } from './types';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PYTHON_OPEN = join(__dirname, 'tcap_plain_open.py');
const RUNS = 5;
const PYTHON_RUNS = 3;

export async function run(): Promise<BenchResult[]> {
  const keyHex = randomKeyHex(); // a key for this run only, given to the children in their environment
  const dir = join(BENCH_OUT, `capsules-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    process.stderr.write('bench: sealing the capsules (plain, one HMAC a block: a few seconds)\n');
    const small = join(dir, 'many-small.tcap');
    const smallBytes = manySmallEffectsCapsule(keyHex);
    writeFileSync(small, smallBytes);
    const distinct = join(dir, 'many-small-distinct.tcap');
    writeFileSync(distinct, manySmallEffectsCapsule(keyHex, 300_000, true));
    const large = join(dir, 'large.tcap');
    writeFileSync(large, largeEffectsCapsule(keyHex, smallBytes.length));
    const size = smallBytes.length;
    const largeSize = readFileSync(large).length;
    const env = nodeEnv({ TIN_REPLAY_KEY: keyHex });
    const inspect = (file: string, json: boolean, cli = CLI) => runChild(process.execPath, [cli, 'inspect', file, ...(json ? ['--json'] : [])], env);
    const baseline = process.env.TCAP_BENCH_BASELINE_CLI;
    const baseRuns: ChildRun[] = [];
    const baseJsonRuns: ChildRun[] = [];

    const python: ChildRun[] = [];
    const smallRuns: ChildRun[] = [];
    const largeRuns: ChildRun[] = [];
    const jsonRuns: ChildRun[] = [];
    const emptyNode: ChildRun[] = [];
    const distinctRuns: ChildRun[] = [];
    const distinctJsonRuns: ChildRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i < PYTHON_RUNS) python.push(runChild('python3', [PYTHON_OPEN, small], env));
      smallRuns.push(inspect(small, false));
      largeRuns.push(inspect(large, false));
      jsonRuns.push(inspect(small, true));
      distinctRuns.push(inspect(distinct, false));
      distinctJsonRuns.push(inspect(distinct, true));
      emptyNode.push(runChild(process.execPath, ['-e', '0'], env));
      if (baseline) {
        baseRuns.push(inspect(small, false, baseline));
        baseJsonRuns.push(inspect(small, true, baseline));
      }
    }
    const ms = (xs: ChildRun[]) => median(xs.map((x) => x.ms));
    const cpu = (xs: ChildRun[]) => median(xs.map((x) => x.cpuMs));
    const peak = (xs: ChildRun[]) => Math.max(...xs.map((x) => x.maxRssBytes));
    const mb = size / 1e6;
    const vsPython = ms(python) / ms(smallRuns);
    const vsLarge = ms(smallRuns) / ms(largeRuns);
    const jsonVsInspect = ms(jsonRuns) / ms(smallRuns);
    const distinctJsonVsInspect = ms(distinctJsonRuns) / ms(distinctRuns);
    const node = median(emptyNode.map((x) => x.maxRssBytes));
    const before: BenchResult[] = baseline
      ? [
          { name: 'baseline build: inspect speed-up over python', value: ms(python) / ms(baseRuns), unit: 'x' },
          { name: '  the same in CPU time (user+sys)', value: cpu(python) / cpu(baseRuns), unit: 'x' },
          { name: 'baseline build: inspect --json / inspect', value: ms(baseJsonRuns) / ms(baseRuns), unit: 'x' },
          { name: '  the same in CPU time', value: cpu(baseJsonRuns) / cpu(baseRuns), unit: 'x' },
          { name: 'baseline build: inspect peak RSS / file', value: peak(baseRuns) / size, unit: 'x' },
          { name: '  above an empty node', value: (peak(baseRuns) - node) / size, unit: 'x' },
          { name: 'baseline build: --json peak RSS / file', value: peak(baseJsonRuns) / size, unit: 'x' },
          { name: '  above an empty node', value: (peak(baseJsonRuns) - node) / size, unit: 'x' },
          { name: 'baseline build: inspect, median', value: ms(baseRuns), unit: 'ms' },
          { name: 'baseline build: inspect --json, median', value: ms(baseJsonRuns), unit: 'ms' },
        ]
      : [];
    return [
      { name: `many-small capsule: ${(300_000).toLocaleString('en')} effects, 3 tasks`, value: mb, unit: 'MB' },
      { name: '  large-effect capsule of the same size', value: largeSize / 1e6, unit: 'MB' },
      { name: 'python plain open (hmac per block), median', value: ms(python), unit: 'ms' },
      { name: 'inspect many-small, median', value: ms(smallRuns), unit: 'ms' },
      { name: 'inspect large-effect, median', value: ms(largeRuns), unit: 'ms' },
      { name: 'inspect --json many-small, median', value: ms(jsonRuns), unit: 'ms' },
      { name: 'inspect speed-up over python', value: vsPython, unit: 'x', goal: '>= 15x python', ok: vsPython >= 15 },
      { name: '  the same in CPU time (user+sys)', value: cpu(python) / cpu(smallRuns), unit: 'x' },
      { name: 'inspect many-small / large-effect', value: vsLarge, unit: 'x', goal: '<= 1.5x', ok: vsLarge <= 1.5 },
      { name: '  the same in CPU time', value: cpu(smallRuns) / cpu(largeRuns), unit: 'x' },
      { name: 'inspect --json / inspect (many-small)', value: jsonVsInspect, unit: 'x', goal: '<= 2x', ok: jsonVsInspect <= 2 },
      { name: '  the same in CPU time', value: cpu(jsonRuns) / cpu(smallRuns), unit: 'x' },
      { name: 'inspect --json / inspect, effects that never repeat', value: distinctJsonVsInspect, unit: 'x', goal: '<= 2x', ok: distinctJsonVsInspect <= 2 },
      { name: '  the same in CPU time', value: cpu(distinctJsonRuns) / cpu(distinctRuns), unit: 'x' },
      { name: '  inspect, median', value: ms(distinctRuns), unit: 'ms' },
      { name: '  inspect --json, median', value: ms(distinctJsonRuns), unit: 'ms' },
      { name: 'inspect peak RSS / file', value: peak(smallRuns) / size, unit: 'x', goal: '<= 2x file', ok: peak(smallRuns) <= 2 * size },
      { name: 'inspect --json peak RSS / file', value: peak(jsonRuns) / size, unit: 'x', goal: '<= 3x file', ok: peak(jsonRuns) <= 3 * size },
      // An empty Node process is already ~40 MB: what the CLI adds to it, against the file.
      { name: 'peak RSS of an empty node (baseline)', value: node / 1e6, unit: 'MB' },
      { name: 'inspect peak RSS above empty node / file', value: (peak(smallRuns) - node) / size, unit: 'x' },
      { name: 'inspect --json peak RSS above empty node / file', value: (peak(jsonRuns) - node) / size, unit: 'x' },
      { name: 'python peak RSS / file', value: peak(python) / size, unit: 'x' },
      ...before,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
