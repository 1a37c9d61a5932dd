// Source level at scale (issue 26), as a user meets it: programs recorded with the real machin in
// this run (a loop with a helper call per item, a pool of goroutines, one-line loop bodies) at
// about 600k and 1.2M ops, each opened in the standalone debug adapter (dist/debug-adapter.js over
// stdio, Replay to Panic's launch) until the statement index is ready (the frozenRun/statements
// event; the values follow, and the time until they are in is reported too); measured against plain
// `machin replay --verify` runs of the same trace around it (the baseline: the median of five, same
// machine, same minutes). Reports the ratios, the adapter's peak resident memory (VmHWM), the statement events
// indexed, and the growth from 600k to 1.2M. Then it steps as a user does once the index is there
// (20 statements back from the panic, 20 forward): the round trips, where the top frame ends (a
// .mfl line), and the peak after. Bytes per statement event are measured in process by
// statement-index.bench.ts (the index's own byteLength).
// SOURCE_SCALE_SIZES=600000,1200000 (ops, about) and SOURCE_SCALE_SHAPES=helper,pool,oneline,branchy,
// helper-one-core,helper-safe-one-core choose; SOURCE_SCALE_SIZES=10000000 runs the 10M-op case (minutes).
// A shape ending in `-one-core` is its program recorded on one core (`taskset -c 0`): its
// goroutines then seldom hand over, and machin replays it several times faster than the same
// program recorded on two, so the probes' own cost shows (docs/source-level.md, "Not built yet").
// A shape with `-safe` before that (`helper-safe-one-core`) is recorded with `machin run --safe`:
// its `+`, `-` and `*` panic on overflow, so the statements-only copy prints before each statement
// that has one (it could panic there), about three times the lines of the same program without.
// Each trace's hand-overs (consecutive schedule ops of different goroutines) are reported, and whether the
// values' replay (a probe before every statement) ran exactly the index's statements (enrich holds each of
// its statement probes to the index; a difference is a warning the bench reads).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { machinPath } from '../test/support/machin';
import { replayCommandPrefix } from '../replay-engine/machin/replay-cores';
import type { BenchResult } from './types';

const OUT = join(__dirname, 'out', 'source-scale');
const ADAPTER = resolve(__dirname, '../dist/debug-adapter.js');
const LIMIT_MS = 1_800_000;

/** The helper program's producer and consumer, after its `scale`: 2 ops an item. */
const producerAndConsumer = (ops: number) => `
func producer(out, n) {
    i := 0
    for i < n {
        v := scale(i)
        out <- v
        i = i + 1
    }
    close(out)
}

func main() {
    ch := make(chan int)
    go producer(ch, ${Math.round(ops / 2)})
    total := 0
    for v := range ch {
        total = total + v % 7
    }
    println(str(total))
}
`;

/** Programs of about `ops` schedule ops each. */
export const SHAPES: Record<string, (ops: number) => string> = {
  // producer calls a helper per item and sends it; the consumer ranges
  helper: (ops) => `func scale(x) {
    y := x * 2
    return y + 1
}
${producerAndConsumer(ops)}`,
  // the same, but the helper branches and loops, so each call prints (not straight-line)
  branchy: (ops) => `func scale(x) {
    if x % 3 == 0 {
        return x / 3
    }
    y := 0
    k := 0
    for k < 2 {
        y = y + x
        k = k + 1
    }
    return y + 1
}
${producerAndConsumer(ops)}`,
  // four workers take jobs from one channel and send results back: 4 ops a job
  pool: (ops) => `func worker(jobs, results) {
    for j := range jobs {
        r := j % 13 + 1
        results <- r
    }
}

func main() {
    jobs := make(chan int)
    results := make(chan int)
    n := ${Math.round(ops / 4)}
    w := 0
    for w < 4 {
        go worker(jobs, results)
        w = w + 1
    }
    i := 0
    sum := 0
    for i < n {
        jobs <- i
        got := <-results
        sum = sum + got
        i = i + 1
    }
    close(jobs)
    println(str(sum))
}
`,
  // mostly one-line loop bodies: machin's canonical form
  oneline: (ops) => `func source(out, n) { i := 0  for i < n { k := i % 5  out <- k  i = i + 1 } close(out) }
func main() {
    ch := make(chan int)
    go source(ch, ${Math.round(ops / 2)})
    t := 0
    for v := range ch { t = t + v }
    println(str(t))
}
`,
};

/** How many of the trace's schedule ops are by another goroutine than the op before. */
function handOvers(trace: string): number {
  let n = 0;
  let last = '';
  for (const line of readFileSync(trace, 'utf8').split('\n')) {
    if (!line.startsWith('S ')) continue;
    if (last && line !== last) n++;
    last = line;
  }
  return n;
}

/** Runs the real machin (behind `prefix`, a command such as `taskset -c 0`); its wall time in ms. */
export function machin(args: string[], prefix: string[] = []): number {
  const t = process.hrtime.bigint();
  const [command, ...rest] = [...prefix, machinPath(), ...args];
  const r = spawnSync(command, rest, { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 26, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error(`${[...prefix, 'machin', ...args].join(' ')}: ${r.error?.message ?? r.stderr.slice(0, 500)}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** A DAP client over stdio, as small as the protocol: Content-Length framing, requests and events. */
class StdioDap {
  private buffer = Buffer.alloc(0);
  private seq = 1;
  private readonly waiting = new Map<number, (body: unknown) => void>();
  readonly events: Array<{ event: string; body: Record<string, unknown> }> = [];
  private readonly listeners: Array<() => void> = [];
  readonly child;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [ADAPTER], { stdio: ['pipe', 'pipe', 'ignore'], env });
    this.child.stdout!.on('data', (d: Buffer) => this.read(d));
  }

  private read(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const head = this.buffer.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, head).toString())?.[1]);
      if (this.buffer.length < head + 4 + length) return;
      const msg = JSON.parse(this.buffer.subarray(head + 4, head + 4 + length).toString()) as { type: string; request_seq?: number; event?: string; body?: Record<string, unknown> };
      this.buffer = this.buffer.subarray(head + 4 + length);
      if (msg.type === 'response') this.waiting.get(msg.request_seq!)?.(msg.body);
      else if (msg.type === 'event') {
        this.events.push({ event: msg.event!, body: msg.body ?? {} });
        for (const l of this.listeners.splice(0)) l();
      }
    }
  }

  request(command: string, args: object): Promise<unknown> {
    const seq = this.seq++;
    const json = JSON.stringify({ type: 'request', seq, command, arguments: args });
    this.child.stdin!.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return new Promise((r) => this.waiting.set(seq, r));
  }

  async until(test: () => boolean, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (!test()) {
      if (Date.now() > end) throw new Error('the adapter did not get there in time');
      await new Promise<void>((r) => {
        this.listeners.push(r);
        setTimeout(r, 500);
      });
    }
  }

  /** The adapter's peak resident memory so far (Linux VmHWM). */
  peakRss(): number {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  }
}

interface Launch {
  /** Launch until the statement index is ready (the frozenRun/statements event). */
  ms: number;
  firstStopMs: number;
  /** Launch until the values are in too (the toolchain's second `done`). */
  valuesMs: number;
  /** A step back sent as the index came: its round trip, and whether it came back before the values. */
  firstStepBackMs: number;
  stepBeforeValues: boolean;
  peakRss: number;
  /** The peak once the values are in. */
  peakRssValues: number;
  /** The peak after the steps. */
  peakRssAfterSteps: number;
  /** Round trips (request sent to `stopped`) of statement steps once the index is ready: back from the first stop, then forward. */
  stepBackMs: number[];
  nextMs: number[];
  /** Where the top frame is after those steps (`file:line`), or why there is none. */
  frameAfterSteps: string;
  /** Why the launch stayed at record level (then its time is no source-level launch's), or null. */
  fellBack: string | null;
  /**
   * What the values' replay (a probe before every statement) said against the index, when it ran
   * other statements than the index holds or was not used, or null: the values' replay holds each
   * of its statement probes to the index's event at the same place (enrich.ts, statementValues).
   */
  valuesUnplaced: string | null;
}

const STEPS = 20;

/** `n` round trips of `command` on `thread`: request sent until the next `stopped` event, in ms. */
async function stepTimes(dap: StdioDap, command: 'next' | 'stepBack', thread: number, n: number): Promise<number[]> {
  const stops = () => dap.events.reduce((k, e) => k + (e.event === 'stopped' ? 1 : 0), 0);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = stops();
    const t = process.hrtime.bigint();
    await dap.request(command, { threadId: thread });
    await dap.until(() => stops() > before, 60_000);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

async function launchToIndex(trace: string): Promise<Launch> {
  const machinDir = resolve(machinPath(), '..');
  const dap = new StdioDap({ ...process.env, PATH: `${machinDir}:${process.env.PATH}` });
  try {
    await dap.request('initialize', { adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const t = Date.now();
    const launched = dap.request('launch', { recording: trace, replayToPanic: true, timeLimitSeconds: LIMIT_MS / 1000 });
    await dap.until(() => dap.events.some((e) => e.event === 'initialized'), LIMIT_MS); // (after the plain replay: Replay to Panic)
    await dap.request('configurationDone', {});
    await launched;
    await dap.until(() => dap.events.some((e) => e.event === 'stopped'), LIMIT_MS);
    const firstStopMs = Date.now() - t;
    // The statements event: the index is in, steps go by statement (the values follow).
    await dap.until(() => dap.events.some((e) => e.event === 'frozenRun/statements'), LIMIT_MS);
    const ms = Date.now() - t;
    const peakRss = dap.peakRss();
    // One step back at once, while machin prints the values: answered by statement, not held for them.
    const thread = Number(dap.events.find((e) => e.event === 'stopped')!.body.threadId);
    const [firstStepBackMs] = await stepTimes(dap, 'stepBack', thread, 1);
    // The second `done` of the toolchain: the values have come too.
    const done = () => dap.events.filter((e) => e.event === 'frozenRun/toolchain' && e.body.state === 'done').length >= 2;
    const valuesBefore = done();
    await dap.until(done, LIMIT_MS);
    const valuesMs = Date.now() - t;
    const peakRssValues = dap.peakRss();
    const said = dap.events.map((e) => String(e.body?.output ?? ''));
    const warning = said.find((o) => /stepping stays at record level/.test(o));
    const unplaced = said.find((o) => /the values come from a plain replay|ran other statements than its replay for the statements/.test(o));
    // Stepping as a user does once the index is there: back from the panic, then forward again.
    await stepTimes(dap, 'next', thread, 1); // (back to the first stop)
    const stepBackMs = await stepTimes(dap, 'stepBack', thread, STEPS);
    const nextMs = await stepTimes(dap, 'next', thread, STEPS);
    const frames = (await dap.request('stackTrace', { threadId: thread, startFrame: 0, levels: 1 })) as { stackFrames?: Array<{ line: number; source?: { path?: string } }> };
    const top = frames.stackFrames?.[0];
    const frameAfterSteps = top?.source?.path ? `${basename(top.source.path)}:${top.line}` : `no frame with a source: ${JSON.stringify(top ?? null).slice(0, 200)}`;
    const peakRssAfterSteps = dap.peakRss();
    await dap.request('disconnect', {});
    return { ms, firstStopMs, valuesMs, firstStepBackMs, stepBeforeValues: !valuesBefore, peakRss, peakRssValues, peakRssAfterSteps, stepBackMs, nextMs, frameAfterSteps, fellBack: warning ? warning.trim().slice(0, 300) : null, valuesUnplaced: unplaced ? unplaced.trim().slice(0, 300) : null };
  } finally {
    // SIGTERM first: the adapter then stops machin's process group and removes its copies (a
    // SIGKILL'd adapter leaves a launch under way running, orphaned)
    const exited = new Promise<void>((r) => (dap.child.exitCode !== null ? r() : dap.child.once('exit', () => r())));
    dap.child.kill('SIGTERM');
    await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 10_000))]);
    dap.child.kill('SIGKILL');
  }
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(OUT, { recursive: true });
  const sizes = (process.env.SOURCE_SCALE_SIZES ?? '600000,1200000').split(',').map(Number);
  const shapes = (process.env.SOURCE_SCALE_SHAPES ?? 'helper,pool,oneline,helper-one-core,helper-safe-one-core,branchy').split(',');
  const out: BenchResult[] = [];
  for (const shape of shapes) {
    const rss = new Map<number, number>();
    for (const ops of sizes) {
      const dir = join(OUT, `${shape}-${ops}`);
      mkdirSync(dir, { recursive: true });
      const oneCore = shape.endsWith('-one-core');
      const recorded = oneCore ? shape.slice(0, -'-one-core'.length) : shape;
      const safe = recorded.endsWith('-safe');
      const base = safe ? recorded.slice(0, -'-safe'.length) : recorded;
      const program = join(dir, `${base}.mfl`);
      writeFileSync(program, SHAPES[base](ops));
      const trace = join(dir, `${base}.mflrr`);
      machin(['run', ...(safe ? ['--safe'] : []), '--record', trace, program], oneCore ? ['taskset', '-c', '0'] : []);
      // machin's own time moves a lot from one run to the next on this virtual machine (6 to 13 s
      // for the same 600k-op replay: a goroutine hand-off waits for an idle core to wake): the
      // median of five, two before the launch and three after (at 10M ops, where the ratio has no
      // goal and a replay takes minutes, one before).
      const huge = ops >= 10_000_000;
      const plains = huge ? [machin(['replay', trace, '--verify'])] : [machin(['replay', trace, '--verify']), machin(['replay', trace, '--verify'])];
      const launch = await launchToIndex(trace);
      if (!huge) for (let i = 0; i < 3; i++) plains.push(machin(['replay', trace, '--verify']));
      const plain = [...plains].sort((x, y) => x - y)[plains.length >> 1];
      // For reference: the same plain replay as Frozen Run runs its replays (replay-cores.ts: one CPU, SCHED_BATCH).
      const pinnedPlains = huge ? [] : [0, 1, 2].map(() => machin(['replay', trace, '--verify'], replayCommandPrefix('one', 1)));
      const pinnedPlain = pinnedPlains.length ? [...pinnedPlains].sort((x, y) => x - y)[1] : NaN;
      rss.set(ops, launch.peakRssValues);
      const label = `${shape}, ${(ops / 1e6).toFixed(1)}M ops`;
      out.push({ name: `${label}: plain machin replay --verify (baseline, median of ${plains.length})`, value: plain, unit: 'ms' });
      out.push({ name: `${label}: hand-overs between goroutines in the trace`, value: handOvers(trace), unit: '' });
      out.push({ name: `${label}: adapter launch to the first stop (the panic or the end)`, value: launch.firstStopMs / plain, unit: 'x plain' });
      if (launch.fellBack) out.push({ name: `${label}: SOURCE LEVEL UNAVAILABLE, the launch stayed at record level: ${launch.fellBack}`, value: 0, unit: '', ok: false });
      if (!huge) {
        out.push({ name: `${label}: plain replay as Frozen Run runs it (one CPU, SCHED_BATCH; median of 3), for reference`, value: pinnedPlain, unit: 'ms' });
        out.push({ name: `${label}: adapter launch until the statement index is ready / the plain replay as Frozen Run runs it`, value: launch.ms / pinnedPlain, unit: 'x' });
      }
      out.push({ name: `${label}: adapter launch until the statement index is ready`, value: launch.ms / plain, unit: 'x plain', goal: ops <= 1_200_000 ? '<= 1.5x plain' : undefined, ok: launch.fellBack ? false : ops <= 1_200_000 ? launch.ms / plain <= 1.5 : undefined });
      out.push({ name: `${label}: adapter launch until the statement index is ready (absolute)`, value: launch.ms, unit: 'ms' });
      out.push({ name: `${label}: a step back sent as the index came, answered ${launch.stepBeforeValues ? 'before' : 'after'} the values came: its round trip`, value: launch.firstStepBackMs, unit: 'ms' });
      out.push({ name: `${label}: adapter launch until the values are in too`, value: launch.valuesMs / plain, unit: 'x plain' });
      // (the per-statement truth at scale: every statement probe of the values' replay is the index's)
      const agreed = !launch.fellBack && launch.valuesUnplaced === null;
      out.push({ name: `${label}: the values' replay (a probe before every statement) ran the index's statements${agreed ? '' : `: ${launch.fellBack ?? launch.valuesUnplaced}`}`, value: agreed ? 1 : 0, unit: '', goal: 'every one', ok: agreed });
      const mfl = /\.mfl:\d+$/.test(launch.frameAfterSteps);
      out.push({ name: `${label}: ${STEPS} statement steps back from the first stop, then ${STEPS} forward: the top frame ends at ${launch.frameAfterSteps}`, value: mfl ? 1 : 0, unit: '', goal: 'a .mfl line', ok: mfl });
      out.push({ name: `${label}: stepBack round trip (median of ${STEPS})`, value: median(launch.stepBackMs), unit: 'ms' });
      out.push({ name: `${label}: next round trip (median of ${STEPS})`, value: median(launch.nextMs), unit: 'ms' });
      const stepRatio = median(launch.nextMs) / plain;
      out.push({ name: `${label}: next round trip / plain replay`, value: stepRatio, unit: 'x plain', goal: '< 0.01x plain', ok: stepRatio < 0.01 });
      out.push({ name: `${label}: adapter peak resident memory after the steps`, value: launch.peakRssAfterSteps / 1e6, unit: 'MB' });
      out.push({ name: `${label}: adapter peak resident memory (index ready)`, value: launch.peakRss / 1e6, unit: 'MB' });
      out.push({ name: `${label}: adapter peak resident memory (index and values in)`, value: launch.peakRssValues / 1e6, unit: 'MB', goal: ops <= 600_000 ? '<= 300 MB' : ops >= 10_000_000 ? '< 4000 MB' : undefined, ok: ops <= 600_000 ? launch.peakRssValues <= 300e6 : ops >= 10_000_000 ? launch.peakRssValues < 4000e6 : undefined });
    }
    const [a, b] = [...rss.keys()].sort((x, y) => x - y);
    if (a && b && b === 2 * a) {
      const growth = rss.get(b)! / rss.get(a)!;
      out.push({ name: `${shape}: peak memory at ${(b / 1e6).toFixed(1)}M ops / at ${(a / 1e6).toFixed(1)}M`, value: growth, unit: 'x', goal: '<= 2.2x', ok: growth <= 2.2 });
    }
  }
  return out;
}
