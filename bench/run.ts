// Runs every bench/*.bench.ts (or those named on the command line) and prints one table.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from './types';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const rows: Array<BenchResult & { file: string }> = [];
  for (const file of files) {
    process.stderr.write(`bench: ${file} ...\n`);
    const mod = (await import(join(__dirname, file))) as { run: () => Promise<BenchResult[]> };
    for (const r of await mod.run()) rows.push({ ...r, file });
  }
  for (const r of rows) {
    const verdict = r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED';
    console.log(`${r.file.padEnd(22)} ${r.name.padEnd(56)} ${formatValue(r.value).padStart(12)} ${r.unit.padEnd(8)} ${(r.goal ?? '').padEnd(24)} ${verdict}`);
  }
}

function formatValue(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
