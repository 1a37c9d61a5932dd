// The debug adapter over DAP on a 10,000,000-op trace: the standalone adapter
// (`node dist/debug-adapter.js`) driven over stdio by Microsoft's DebugClient, as VS Code drives
// it. Measured: the round trip of `next` and `stepBack` (request sent → `stopped` event received),
// median and p99, and a `reverseContinue` from the end to a breakpoint on the first record.
// Baseline, in the same session: the round trip of a `threads` request (the protocol's own cost).
// Goals (issue 4): median step under 2 ms, reverse-continue under 300 ms.
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from './types';
import { generatedTrace } from './generated-trace';

const ROOT = join(__dirname, '..');
const OPS = 10_000_000;
const GOROUTINES = 64;
/** The same file the engine's bench generates (gen_mflrr.py 10000000 64): reused when present. */
const TRACE = generatedTrace(OPS, GOROUTINES);
const ADAPTER = join(ROOT, 'dist', 'debug-adapter.js');
const STEPS = 2000;
const BASELINE = 2000;
const REVERSE_RUNS = 7;

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(ADAPTER)) throw new Error(`${ADAPTER} is missing: run \`npm run build\` first`);
  const dc = new DebugClient(process.execPath, ADAPTER, 'frozen-run', { env: { PATH: process.env.PATH ?? '' } });
  dc.defaultTimeout = 120_000;
  await dc.start();
  try {
    await dc.initializeRequest({ adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const t0 = performance.now();
    const first = dc.waitForEvent('stopped', 120_000) as Promise<DebugProtocol.StoppedEvent>;
    const init = dc.waitForEvent('initialized', 120_000).then(() => dc.configurationDoneRequest());
    await Promise.all([dc.launchRequest({ recording: TRACE, stopOnEntry: true, noToolchain: true } as DebugProtocol.LaunchRequestArguments), init]);
    await first;
    const launchMs = performance.now() - t0;
    const rssAfterLaunch = rssOf(dc);

    const stop = (send: () => Promise<unknown>): Promise<number> => {
      const s = performance.now();
      const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
      return Promise.all([send(), stopped]).then(() => performance.now() - s);
    };

    // To the middle of the run; the first per-thread move builds the thread index (warm-up, not timed).
    await stop(() => dc.customRequest('frozenRun/goto', { position: OPS / 2 }));
    let thread = 1;
    const follow = (e: DebugProtocol.StoppedEvent) => (thread = e.body.threadId ?? thread);
    dc.on('stopped', follow);
    for (let i = 0; i < 50; i++) await stop(() => dc.nextRequest({ threadId: thread }));
    for (let i = 0; i < 50; i++) await stop(() => dc.stepBackRequest({ threadId: thread }));

    const baseline: number[] = [];
    for (let i = 0; i < BASELINE; i++) {
      const s = performance.now();
      await dc.threadsRequest();
      baseline.push(performance.now() - s);
    }
    const next: number[] = [];
    for (let i = 0; i < STEPS; i++) next.push(await stop(() => dc.nextRequest({ threadId: thread })));
    const back: number[] = [];
    for (let i = 0; i < STEPS; i++) back.push(await stop(() => dc.stepBackRequest({ threadId: thread })));
    // What VS Code does after each stop: threads, the stopped thread's stack, its scopes, the record.
    const ui: number[] = [];
    for (let i = 0; i < STEPS / 4; i++) {
      const s = performance.now();
      const stopped = dc.waitForEvent('stopped');
      await Promise.all([dc.nextRequest({ threadId: thread }), stopped]);
      await dc.threadsRequest();
      const st = await dc.stackTraceRequest({ threadId: thread });
      const scopes = await dc.scopesRequest({ frameId: st.body.stackFrames[0].id });
      await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
      ui.push(performance.now() - s);
    }
    dc.removeListener('stopped', follow);

    // reverseContinue from the end to a breakpoint on the first record (line 5: the first line after the header).
    const firstRecordLine = firstRecordLineOf(TRACE);
    const bp = await dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [{ line: firstRecordLine }] });
    if (!bp.body.breakpoints[0].verified) throw new Error(`breakpoint on line ${firstRecordLine} not verified: ${bp.body.breakpoints[0].message}`);
    const reverse: number[] = [];
    const forward: number[] = [];
    let firstStopThread = 1;
    for (let i = 0; i < REVERSE_RUNS; i++) {
      forward.push(await stop(() => dc.continueRequest({ threadId: 1 })));
      const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
      const s = performance.now();
      await Promise.all([dc.reverseContinueRequest({ threadId: 1 }), stopped]);
      reverse.push(performance.now() - s);
      firstStopThread = (await stopped).body.threadId ?? 1;
    }
    // The same with many candidates: a function breakpoint on the first record's goroutine with hit
    // count 1 (its first record only) makes every record of that goroutine (1/64 of the run) a candidate.
    await dc.setBreakpointsRequest({ source: { path: TRACE }, breakpoints: [] });
    const firstThreadName = (await dc.threadsRequest()).body.threads.find((t) => t.id === firstStopThread)?.name ?? '';
    const fb = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `goroutine ${firstThreadName.split(' ')[0]}`, hitCondition: '1' }] });
    if (!fb.body.breakpoints[0].verified) throw new Error(`function breakpoint not verified: ${fb.body.breakpoints[0].message}`);
    const reverseLinear: number[] = [];
    for (let i = 0; i < REVERSE_RUNS; i++) {
      await stop(() => dc.customRequest('frozenRun/goto', { position: OPS }));
      await stop(() => dc.continueRequest({ threadId: 1 }));
      reverseLinear.push(await stop(() => dc.reverseContinueRequest({ threadId: 1 })));
    }
    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });

    // The webview's bulk read: one 1,000,000-step chunk of the timeline (msgpackr, base64).
    const chunk: number[] = [];
    let chunkBytes = 0;
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      const res = await dc.customRequest('frozenRun/timeline', { from: i * 1_000_000, count: 1_000_000 });
      chunk.push(performance.now() - s);
      chunkBytes = (res.body.data as string).length;
    }
    const peakRss = rssOf(dc);

    const base = median(baseline);
    const nextMed = median(next);
    const backMed = median(back);
    const revMed = median(reverse);
    return [
      { name: 'DAP launch of the 10M-op trace (read+index, to entry stop)', value: launchMs, unit: 'ms' },
      { name: 'baseline: `threads` round trip (median)', value: base, unit: 'ms' },
      { name: '`next` round trip to stopped (median)', value: nextMed, unit: 'ms', goal: '< 2 ms', ok: nextMed < 2 },
      { name: '`next` round trip (p99)', value: percentile(next, 0.99), unit: 'ms' },
      { name: '`next` median / baseline', value: nextMed / base, unit: 'x' },
      { name: '`stepBack` round trip to stopped (median)', value: backMed, unit: 'ms', goal: '< 2 ms', ok: backMed < 2 },
      { name: '`stepBack` round trip (p99)', value: percentile(back, 0.99), unit: 'ms' },
      { name: '`stepBack` median / baseline', value: backMed / base, unit: 'x' },
      { name: '`next` + threads + stackTrace + scopes + variables (median)', value: median(ui), unit: 'ms' },
      { name: '`reverseContinue` end → breakpoint on first record (median of 7)', value: revMed, unit: 'ms', goal: '< 300 ms', ok: revMed < 300 },
      { name: '`reverseContinue` / baseline', value: revMed / base, unit: 'x' },
      { name: '`reverseContinue` end → first record by `goroutine G` bp, hit count 1 (~175k candidates)', value: median(reverseLinear), unit: 'ms', goal: '< 300 ms', ok: median(reverseLinear) < 300 },
      { name: '`frozenRun/timeline` 1M-step chunk round trip (median of 5)', value: median(chunk), unit: 'ms' },
      { name: '`frozenRun/timeline` 1M-step chunk size (base64)', value: chunkBytes / 1e6, unit: 'MB' },
      { name: '`continue` start → end, no stop on the way (median of 7)', value: median(forward), unit: 'ms' },
      { name: 'adapter peak RSS after launch (VmHWM)', value: rssAfterLaunch / 1e6, unit: 'MB' },
      { name: 'adapter peak RSS at the end (VmHWM)', value: peakRss / 1e6, unit: 'MB' },
    ];
  } finally {
    await dc.stop();
  }
}

function firstRecordLineOf(file: string): number {
  const head = new Uint8Array(4096);
  const fd = openSync(file, 'r');
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const lines = Buffer.from(head.subarray(0, n)).toString('latin1').split('\n');
  return lines.findIndex((l) => l.startsWith('S ') || l.startsWith('I ')) + 1;
}

function rssOf(dc: DebugClient): number {
  const pid = (dc as unknown as { _adapterProcess?: { pid?: number } })._adapterProcess?.pid;
  if (!pid) return NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}


function median(xs: number[]): number {
  return percentile(xs, 0.5);
}

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
}
