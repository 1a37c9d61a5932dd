// Replay to Panic with the real machin on a recording of 360,000 schedule ops: the standalone
// adapter driven over DAP by Microsoft's DebugClient, timed from the launch request to the
// `stopped` event at the panic (the trace read, machin's `replay --verify` on a checked copy, its
// output parsed and merged; the values replay with --print follows the stop: docs/machin.md). Baseline, in the same run: one plain `machin replay TRACE` of
// the same trace (the least any replay-based answer can cost). Runs alternate, medians compared.
// Goal (issue 12): at most 1.3x the plain replay.
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MACHIN_BIN, machinPath, recordProgram } from '../test/support/machin';
import type { BenchResult } from './types';

const ADAPTER = join(__dirname, '..', 'dist', 'debug-adapter.js');
const ROUNDS = 3;
const GOAL = 1.3;

// Three workers send 60,000 values each, main receives all 180,000: 360,000 schedule ops, then
// an index out of range. Every loop assigns (i, v, total, got): about two probes per op.
const PROGRAM = `func worker(ch, base, n) { i := 0  for i < n { ch <- base + i  i = i + 1 } }
func main() {
    ch := make(chan int)
    go worker(ch, 1000000, 60000)
    go worker(ch, 2000000, 60000)
    go worker(ch, 3000000, 60000)
    total := 0  got := 0
    for got < 180000 { v := <-ch  total = total + v % 7  got = got + 1 }
    xs := []int{1, 2}
    println(str(xs[total % 5 + 2]))
}
`;

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(ADAPTER)) throw new Error(`${ADAPTER} is missing: run \`npm run build\` first`);
  const machin = machinPath();
  const dir = mkdtempSync(join(tmpdir(), 'frozen-run-bench-machin-'));
  try {
    const { trace } = recordProgram(dir, 'workers', PROGRAM);
    const plain: number[] = [];
    const launch: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(plainReplay(machin, trace));
      launch.push(await launchToPanic(trace));
    }
    const p = median(plain);
    const l = median(launch);
    return [
      { name: 'plain machin replay, 360k ops (baseline)', value: p, unit: 'ms' },
      { name: 'DAP launch to the panic stop with machin, 360k ops', value: l, unit: 'ms' },
      { name: 'launch to panic stop / plain machin replay', value: l / p, unit: 'x', goal: `<= ${GOAL}x`, ok: l / p <= GOAL },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function plainReplay(machin: string, trace: string): number {
  const t0 = performance.now();
  const r = spawnSync(machin, ['replay', trace], { encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (!/^panic: index out of range/m.test(r.stderr ?? '')) throw new Error(`plain replay did not panic: ${r.stderr}`);
  return ms;
}

async function launchToPanic(trace: string): Promise<number> {
  const dc = new DebugClient(process.execPath, ADAPTER, 'frozen-run', { env: { PATH: `${MACHIN_BIN}:${process.env.PATH ?? ''}`, HOME: tmpdir() } });
  dc.defaultTimeout = 300_000;
  await dc.start();
  try {
    await dc.initializeRequest({ adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const t0 = performance.now();
    const stopped = dc.waitForEvent('stopped', 300_000) as Promise<DebugProtocol.StoppedEvent>;
    const init = dc.waitForEvent('initialized', 300_000).then(() => dc.configurationDoneRequest());
    await Promise.all([dc.launchRequest({ recording: trace, replayToPanic: true, timeLimitSeconds: 300 } as DebugProtocol.LaunchRequestArguments), init]);
    const stop = await stopped;
    const ms = performance.now() - t0;
    if (stop.body.reason !== 'exception') throw new Error(`stopped for ${stop.body.reason}, not at the panic`);
    return ms;
  } finally {
    await dc.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
