// Test helpers for compare: read a trace's lines as plain text (an independent view of the file,
// not the engine's reader) and write small traces to a temporary folder.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MACHIN_FIXTURES } from '../../support/paths';

/** Three real runs of one program whose goroutines interleaved differently. */
export const FLAKY_RUNS = join(MACHIN_FIXTURES, 'flaky-runs');

export interface TextRecord {
  /** 1-based line in the file. */
  line: number;
  /** The record line as written (`S 0.1`, `I 0 30`). */
  text: string;
  tag: 'S' | 'I';
  goroutine: string;
}

/** Every `S` and `I` line of a trace file, in order, read as text. */
export function textRecords(file: string): TextRecord[] {
  const out: TextRecord[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const m = /^([SI]) (\S+)/.exec(text);
      if (m) out.push({ line: i + 1, text: text.replace(/\r$/, ''), tag: m[1] as 'S' | 'I', goroutine: m[2] });
    });
  return out;
}

export function scheduleOf(file: string): TextRecord[] {
  return textRecords(file).filter((r) => r.tag === 'S');
}

export class TempTraces {
  readonly dir = mkdtempSync(join(tmpdir(), 'frozen-run-compare-'));

  /** Writes a trace with the standard header and the given record lines. */
  write(name: string, records: string[], program = '/home/ci/app/prog.mfl'): string {
    const file = join(this.dir, name);
    writeFileSync(file, ['MFLRR 1', 'boundary faithful', `program ${program}`, 'safe 0', ...records, ''].join('\n'));
    return file;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Length of a longest common subsequence of two lists (quadratic; small inputs only). */
export function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}
