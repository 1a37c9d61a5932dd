// The language server on a 400,000-op trace (gen_mflrr.py 400000 16), driven over stdio by
// Microsoft's protocol client as an editor would: time from didOpen to the first diagnostics, and
// hover latency (median, p99 over many hovers on random lines, and right after an edit). Baselines
// in the same run: reading the file (for diagnostics) and the round trip of a trivial request on
// the same connection (for hovers). Goals (issue 6): diagnostics within 1 s, hover under 50 ms.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient, fileUri } from '../test/lsp/support/lsp-client';
import { GEN_MFLRR } from '../test/lsp/support/generated';
import type { BenchResult } from './types';

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'bench', 'out');
const OPS = 400_000;
const GOROUTINES = 16;
const TRACE = join(OUT, `trace-${OPS / 1000}k-${GOROUTINES}.mflrr`);
const OPENS = 5;
const HOVERS = 2000;
const EDITS = 50;

export async function run(): Promise<BenchResult[]> {
  ensureTrace();
  const size = statSync(TRACE).size;
  const client = await LspClient.start();
  try {
    // Baseline 1: reading the file (what any tool does before it can say anything).
    const reads: number[] = [];
    let text = '';
    for (let i = 0; i < OPENS; i++) {
      const t = now();
      text = readFileSync(TRACE, 'utf8');
      reads.push(now() - t);
    }
    const lines = text.split('\n').length - 1;

    // Time to first diagnostics: didOpen (the whole text over the pipe) to publishDiagnostics.
    const opens: number[] = [];
    const openCpu: number[] = [];
    let uri = '';
    for (let i = 0; i < OPENS; i++) {
      uri = `${fileUri(TRACE)}?open=${i}`;
      const cpu = client.serverCpuMs();
      const t = now();
      const diags = await client.open(uri, text);
      opens.push(now() - t);
      const cpuAfter = client.serverCpuMs();
      if (cpu !== undefined && cpuAfter !== undefined) openCpu.push(cpuAfter - cpu);
      if (diags.length !== 0) throw new Error(`unexpected diagnostics on the generated trace: ${diags[0].message}`);
      if (i < OPENS - 1) await client.close(uri);
    }

    // Baseline 2: the round trip of a trivial request (a hover on a document that is not open).
    const trivial: number[] = [];
    for (let i = 0; i < HOVERS; i++) {
      const t = now();
      await client.hover('file:///not-open.mflrr', 0);
      trivial.push(now() - t);
    }

    // Hovers on random lines of the open trace.
    const hovers: number[] = [];
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < HOVERS; i++) {
      const line = 4 + Math.floor(random() * (lines - 4));
      const t = now();
      const h = await client.hover(uri, line);
      hovers.push(now() - t);
      if (!h) throw new Error(`no hover on line ${line}`);
    }

    // An edit in the middle (a record inserted), then a hover near the end: renumbering included.
    const afterEdit: number[] = [];
    const editCpuStart = client.serverCpuMs();
    for (let i = 0; i < EDITS; i++) {
      const at = Math.floor(lines / 2) + i;
      void client.change(uri, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: 'S 0\n' }]);
      const t = now();
      const h = await client.hover(uri, lines - 2);
      afterEdit.push(now() - t);
      if (!h) throw new Error('no hover after an edit');
    }

    const editCpuEnd = client.serverCpuMs();
    const readMs = median(reads);
    const openMs = median(opens);
    const trivialMs = median(trivial);
    const hoverMs = median(hovers);
    const hoverP99 = percentile(hovers, 0.99);
    const editMs = median(afterEdit);
    return [
      { name: `trace (${OPS / 1000}k ops, ${GOROUTINES} goroutines, ${lines} lines)`, value: size / 1e6, unit: 'MB' },
      { name: 'baseline: read the file (median)', value: readMs, unit: 'ms' },
      { name: `didOpen to first diagnostics (median of ${OPENS})`, value: openMs, unit: 'ms', goal: '<= 1000 ms', ok: openMs <= 1000 },
      { name: 'first diagnostics / read the file', value: openMs / readMs, unit: 'x' },
      ...(openCpu.length ? [{ name: 'server CPU time per open (parse message, index, diagnose)', value: mean(openCpu), unit: 'ms', goal: '<= 1000 ms', ok: mean(openCpu) <= 1000 }] : []),
      { name: 'baseline: trivial request round trip (median)', value: trivialMs, unit: 'ms' },
      { name: `hover on random lines (median of ${HOVERS})`, value: hoverMs, unit: 'ms', goal: '< 50 ms', ok: hoverMs < 50 },
      { name: 'hover p99', value: hoverP99, unit: 'ms', goal: '< 50 ms', ok: hoverP99 < 50 },
      { name: 'hover median / trivial round trip', value: hoverMs / trivialMs, unit: 'x' },
      { name: `hover right after an insert mid-trace (median of ${EDITS})`, value: editMs, unit: 'ms', goal: '< 50 ms', ok: editMs < 50 },
      { name: 'hover after an edit / trivial round trip', value: editMs / trivialMs, unit: 'x' },
      ...(editCpuStart !== undefined && editCpuEnd !== undefined
        ? [{ name: 'server CPU time per edit + hover (mean)', value: (editCpuEnd - editCpuStart) / EDITS, unit: 'ms', goal: '< 50 ms', ok: (editCpuEnd - editCpuStart) / EDITS < 50 }]
        : []),
    ];
  } finally {
    await client.stop();
  }
}

function ensureTrace(): void {
  if (existsSync(TRACE)) return;
  mkdirSync(OUT, { recursive: true });
  process.stderr.write(`bench: generating ${TRACE} (once; cached)\n`);
  const r = spawnSync('python3', [GEN_MFLRR, String(OPS), String(GOROUTINES), TRACE], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${GEN_MFLRR} failed`);
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function median(xs: number[]): number {
  return percentile(xs, 0.5);
}

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
