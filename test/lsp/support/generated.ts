// Traces not in the fixtures, written by ../shared/tools/gen_mflrr.py, and an independent, plain
// reading of their lines (split and count; no code shared with the language server).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED } from '../../support/paths';

export const GEN_MFLRR = join(SHARED, 'tools', 'gen_mflrr.py');

export function generateTrace(ops: number, goroutines: number): { file: string; text: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'frozen-run-lsp-gen-')), `gen-${ops}-${goroutines}.mflrr`);
  execFileSync('python3', [GEN_MFLRR, String(ops), String(goroutines), file]);
  return { file, text: readFileSync(file, 'utf8') };
}

export interface ExpectedLine {
  kind: 'S' | 'I' | 'header';
  goroutine?: string;
  /** S: op number. I: index in the goroutine's I/O queue. */
  ordinal?: number;
  /** S: index among the goroutine's ops. */
  threadOrdinal?: number;
  /** I: schedule ops before it. */
  opsBefore?: number;
  /** I: the bytes, as text. */
  text?: string;
  bytes?: number;
}

export interface Expected {
  lines: ExpectedLine[];
  ops: number;
  opsOf: Map<string, number>;
  iosOf: Map<string, number>;
}

export function expectedLines(text: string): Expected {
  const raw = text.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const opsOf = new Map<string, number>();
  const iosOf = new Map<string, number>();
  let ops = 0;
  const lines = raw.map((line): ExpectedLine => {
    const parts = line.split(' ');
    if (parts[0] === 'S') {
      const g = parts[1];
      const threadOrdinal = opsOf.get(g) ?? 0;
      opsOf.set(g, threadOrdinal + 1);
      return { kind: 'S', goroutine: g, ordinal: ops++, threadOrdinal };
    }
    if (parts[0] === 'I') {
      const g = parts[1];
      const ordinal = iosOf.get(g) ?? 0;
      iosOf.set(g, ordinal + 1);
      const bytes = Buffer.from(parts[2] ?? '', 'hex');
      return { kind: 'I', goroutine: g, ordinal, opsBefore: ops, text: bytes.toString('utf8'), bytes: bytes.length };
    }
    return { kind: 'header' };
  });
  return { lines, ops, opsOf, iosOf };
}
