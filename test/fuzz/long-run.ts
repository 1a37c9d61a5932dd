// `npm run fuzz [-- --seconds N]`: runs every fuzz target for a while with fresh seeds and prints
// how many inputs were tried and every failure (with the input in hex, to replay it).
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { MACHIN } from '../support/machin';
import { fuzzMcp } from './mcp-calls';
import { check, targets, tempFiles, type Finding } from './targets';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '120' } } });
  const list = targets();
  // A fifth of the time (at least 10 s) goes to random MCP tool calls (mcp-calls.ts), the rest to the readers.
  const mcpMs = Math.max(10_000, Number(values.seconds) * 200);
  const perTargetMs = (Number(values.seconds) * 1000 - mcpMs) / list.length;
  const findings: Finding[] = [];
  let total = 0;
  for (const target of list) {
    const end = Date.now() + perTargetMs;
    let tried = 0;
    while (Date.now() < end) {
      const batch = fc.sample(target.input, { numRuns: 200, seed: Date.now() ^ (tried * 7919) });
      for (const bytes of batch) {
        tried++;
        const problem = await check(target, bytes);
        if (problem) findings.push({ target: target.name, problem, inputHex: Buffer.from(bytes).toString('hex') });
        if (Date.now() >= end) break;
      }
    }
    total += tried;
    console.log(`${target.name.padEnd(30)} ${String(tried).padStart(8)} inputs`);
  }
  tempFiles.dispose();
  // The MCP server: without a toolchain, then (when this checkout has the real machin) with it.
  const machin = existsSync(MACHIN) ? MACHIN : undefined;
  for (const withMachin of machin ? [false, true] : [false]) {
    const name = withMachin ? 'mcp tool calls (--toolchain)' : 'mcp tool calls';
    const r = await fuzzMcp({ calls: 1_000_000, ms: machin ? mcpMs / 2 : mcpMs, seed: Date.now() & 0x7fffffff, machin: withMachin ? machin : undefined });
    total += r.calls;
    console.log(`${name.padEnd(30)} ${String(r.calls).padStart(8)} inputs`);
    for (const f of r.findings) findings.push({ target: name, problem: f.problem, inputHex: Buffer.from(f.call).toString('hex') });
  }
  console.log(`fuzz: ${total} inputs tried, ${findings.length} failures`);
  for (const f of findings.slice(0, 50)) console.log(`FAIL ${f.target}: ${f.problem}\n  input ${f.inputHex.slice(0, 400)}`);
  process.exitCode = findings.length ? 1 : 0;
}

void main();
