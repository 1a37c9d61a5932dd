// The MCP server at source level (issue 27), as an agent meets it: a program of about 1M ops (a
// producer calling a helper per item, source-scale.bench.ts's `helper`) recorded with the real
// machin in this run, opened by the SDK's own client over stdio on `frozen-run mcp --toolchain`
// (both of machin's replays, the statement index, the value histories), then get_state with
// detail at ten positions. Reported: the server's peak resident size (VmHWM, read from /proc
// before the client closes it) against the goal, and the open's time as a ratio to a plain
// `machin replay --verify` of the same trace (the baseline, same machine, same minute).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { machinPath } from '../test/support/machin';
import { machin, SHAPES } from './source-scale.bench';
import type { BenchResult } from './types';

const OUT = join(__dirname, 'out', 'mcp-source');
const CLI = resolve(__dirname, '../dist/cli.js');
const OPS = 1_000_000;

export async function run(): Promise<BenchResult[]> {
  mkdirSync(OUT, { recursive: true });
  const program = join(OUT, 'helper.mfl');
  writeFileSync(program, SHAPES.helper(OPS));
  const trace = join(OUT, 'helper.mflrr');
  machin(['run', '--record', trace, program]);
  const plain = machin(['replay', trace, '--verify']);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--toolchain', '--machin', machinPath(), '--time-limit', '1800'],
    env: { PATH: `${dirname(machinPath())}:${process.env.PATH ?? ''}` },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'frozen-run-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const started = performance.now();
    const open = await client.callTool({ name: 'open_recording', arguments: { path: trace } }, undefined, { timeout: 1_800_000 });
    const openMs = performance.now() - started;
    if (open.isError) throw new Error(`open_recording: ${JSON.stringify(open.content)}`);
    const handle = (open.structuredContent as { recording: string }).recording;
    for (let i = 0; i < 10; i++) {
      const r = await client.callTool({ name: 'get_state', arguments: { recording: handle, position: Math.round(((i + 0.5) * OPS) / 10), detail: true } }, undefined, { timeout: 600_000 });
      if (r.isError) throw new Error(`get_state: ${JSON.stringify(r.content)}`);
    }
    const status = readFileSync(`/proc/${transport.pid}/status`, 'utf8');
    const peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
    return [
      { name: 'helper, 1M ops: plain machin replay --verify (baseline)', value: plain, unit: 'ms' },
      { name: 'helper, 1M ops: MCP open_recording at source level', value: openMs / plain, unit: 'x plain' },
      { name: 'helper, 1M ops: MCP server peak resident memory (open + 10 get_state)', value: peakMb, unit: 'MB', goal: '<= 400 MB', ok: peakMb <= 400 },
    ];
  } finally {
    await client.close();
  }
}
