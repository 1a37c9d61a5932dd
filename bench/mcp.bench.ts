// The MCP server on a 10,000,000-op trace (64 goroutines), driven by the SDK's own client over
// stdio as an agent's client drives it (`node dist/cli.js mcp`). Measured: the round trip of
// get_state at a position (each call a new position spread over the run, 16 goroutines' current
// records and consumed I/O), median and p99, as a ratio to the SDK's own `ping` round trip in the
// same session (the protocol's cost: JSON-RPC over two pipes). Also: open_recording (read, index
// and summarize) and a `move` step, and the server's peak resident size.
// Goal (issue 18): state at a position within 10x a ping.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedTrace } from './generated-trace';
import type { BenchResult } from './types';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OPS = 10_000_000;
const TRACE = generatedTrace(OPS, 64);
const CALLS = 1000;

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(join(ROOT, 'dist', 'mcp-server.js'))) throw new Error('dist/mcp-server.js is missing: run `npm run build` first');
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: { PATH: process.env.PATH ?? '' }, stderr: 'inherit' });
  const client = new Client({ name: 'frozen-run-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
      return r;
    };
    const t0 = performance.now();
    const open = await call('open_recording', { path: TRACE });
    const openMs = performance.now() - t0;
    const handle = JSON.parse((open.content as Array<{ text: string }>)[0].text).recording as string;
    // Warm-up: the first get_state builds the thread index and the per-thread I/O lists.
    const w = performance.now();
    await call('get_state', { recording: handle, position: OPS / 2 });
    const firstStateMs = performance.now() - w;
    for (let i = 0; i < 100; i++) {
      await client.ping();
      await call('get_state', { recording: handle, position: (i * 7_919_993) % OPS });
    }
    const ping: number[] = [];
    const state: number[] = [];
    const step: number[] = [];
    let bytes = 0;
    // Interleaved, so both see the same machine load.
    for (let i = 0; i < CALLS; i++) {
      let s = performance.now();
      await client.ping();
      ping.push(performance.now() - s);
      s = performance.now();
      const r = await call('get_state', { recording: handle, position: (i * 104_729 * 97) % OPS });
      state.push(performance.now() - s);
      bytes = (r.content as Array<{ text: string }>)[0].text.length;
      s = performance.now();
      await call('move', { recording: handle, action: i % 2 ? 'step_back' : 'next' });
      step.push(performance.now() - s);
    }
    const pid = transport.pid;
    const hwm = pid ? Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024 : NaN;
    const base = median(ping);
    const stateMed = median(state);
    const ratio = stateMed / base;
    return [
      { name: 'open_recording of the 10M-op trace (read, index, summary)', value: openMs, unit: 'ms' },
      { name: 'first get_state (builds the thread index)', value: firstStateMs, unit: 'ms' },
      { name: 'baseline: SDK ping round trip (median)', value: base, unit: 'ms' },
      { name: 'get_state at a position, 16 goroutines (median)', value: stateMed, unit: 'ms' },
      { name: 'get_state at a position (p99)', value: percentile(state, 0.99), unit: 'ms' },
      { name: 'get_state median / ping median', value: ratio, unit: 'x', goal: '<= 10x ping', ok: ratio <= 10 },
      { name: 'get_state answer size', value: bytes / 1000, unit: 'kB' },
      { name: 'move next / step_back round trip (median)', value: median(step), unit: 'ms' },
      { name: 'move median / ping median', value: median(step) / base, unit: 'x' },
      { name: 'server peak RSS (VmHWM)', value: hwm, unit: 'MB' },
    ];
  } finally {
    await client.close();
  }
}

function median(xs: number[]): number {
  return percentile(xs, 0.5);
}

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
}
