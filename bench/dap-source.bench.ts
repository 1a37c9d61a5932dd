// The `source` request on a 10,000,000-op trace (109 MB): the recording's text served to VS Code
// through a sourceReference. Measured in process on the session the extension runs inline (VS
// Code takes the response object as it is): the request's time, a `threads` request sent with it,
// the longest event-loop stall meanwhile (other requests wait at most that long), and RSS growth.
// Baseline, in the same process: fs.readFile of the same file as UTF-8 text. The standalone adapter
// over stdio adds JSON.stringify and the write of a 120 MB message (also measured here); VS Code's
// and the test client's stream readers then concatenate Buffers per chunk received, which for one
// such message costs minutes on the client side (not measured here: see docs/debug-adapter.md).
import type { DebugProtocol } from '@vscode/debugprotocol';
import { readFile } from 'node:fs/promises';
import { FrozenRunSession } from '../debug-adapter/session';
import { generatedTrace } from './generated-trace';
import type { BenchResult } from './types';

type Message = DebugProtocol.ProtocolMessage & { request_seq?: number; event?: string };

export async function run(): Promise<BenchResult[]> {
  const TRACE = generatedTrace(10_000_000, 64);
  const session = new FrozenRunSession({});
  let seq = 1;
  const waiting = new Map<number, (m: DebugProtocol.Response) => void>();
  let initialized = () => {};
  const ready = new Promise<void>((r) => (initialized = r));
  session.onDidSendMessage((sent) => {
    const m = sent as Message;
    if (m.type === 'response') waiting.get(m.request_seq!)?.(m as DebugProtocol.Response);
    else if (m.event === 'initialized') initialized();
  });
  const request = (command: string, args: object) =>
    new Promise<DebugProtocol.Response>((resolve) => {
      const q = seq++;
      waiting.set(q, resolve);
      session.handleMessage({ type: 'request', seq: q, command, arguments: args } as DebugProtocol.Request);
    });
  try {
    await request('initialize', { adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true });
    const launched = request('launch', { recording: TRACE, stopOnEntry: true, noToolchain: true });
    await ready;
    await request('configurationDone', {});
    await launched;

    const base: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = performance.now();
      await readFile(TRACE, 'utf8');
      base.push(performance.now() - s);
    }
    const rssBefore = process.memoryUsage().rss;
    const times: number[] = [];
    const stalls: number[] = [];
    const alongside: number[] = [];
    let body: DebugProtocol.SourceResponse | undefined;
    for (let i = 0; i < 3; i++) {
      let worst = 0;
      let last = performance.now();
      const probe = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
      }, 1);
      const s = performance.now();
      const threads = request('threads', {}).then(() => performance.now() - s);
      body = (await request('source', { sourceReference: 1, source: { sourceReference: 1 } })) as DebugProtocol.SourceResponse;
      times.push(performance.now() - s);
      clearInterval(probe);
      // A stall that ends with the response is seen here, before the next timer tick would see it.
      worst = Math.max(worst, performance.now() - last);
      stalls.push(worst);
      alongside.push(await threads);
      if (!body.success) throw new Error(`source failed: ${body.message}`);
    }
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    const s = performance.now();
    const json = JSON.stringify(body);
    const bytes = Buffer.byteLength(json, 'utf8');
    Buffer.from(json, 'utf8');
    const serialize = performance.now() - s;
    const med = median(times);
    return [
      { name: 'baseline: fs.readFile of the 109 MB trace as text (median of 3)', value: median(base), unit: 'ms' },
      { name: '`source` of the 109 MB trace, inline session (median of 3)', value: med, unit: 'ms' },
      { name: '`source` / baseline', value: med / median(base), unit: 'x', goal: '< 1.5x', ok: med / median(base) < 1.5 },
      { name: '`threads` sent with `source`: answered after (worst of 3)', value: Math.max(...alongside), unit: 'ms', goal: '< 100 ms', ok: Math.max(...alongside) < 100 },
      { name: 'longest event-loop stall during `source` (worst of 3)', value: Math.max(...stalls), unit: 'ms', goal: '< 250 ms', ok: Math.max(...stalls) < 250 },
      { name: 'RSS growth over 3 `source` requests (no copy kept between them)', value: rssGrowth / 1e6, unit: 'MB' },
      { name: 'stdio only: JSON.stringify + encode of that response (blocks the adapter)', value: serialize, unit: 'ms' },
      { name: 'stdio only: message size', value: bytes / 1e6, unit: 'MB' },
    ];
  } finally {
    session.dispose();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}
