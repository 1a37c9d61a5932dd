// An independent truth for source-level tests: a copy of a test program with a probe before every
// statement, made here by lines (not by the product's statement model), replayed by the real
// machin. The programs it takes are written one statement per line, with no function literals;
// a line is a statement unless it is blank, a `func` header, a lone `}`, `} else {`, a `case` or
// `default` label. Before each statement line's first character it inserts
// `tr_at = LINE * 1000 + COLUMN; ` (the statement's place in the original), and at each function's
// top `tr_at := 0;`. `machin replay --print tr_at,NAMES` then says, per goroutine, every
// statement it ran in order, and every store of NAMES between them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pointTraceAt, probeLines, runMachin } from './machin';
import type { Recording } from '../../replay-engine/model/recording';

export interface TruthStatement {
  line: number;
  column: number;
  /** The goroutine's values of the watched names stored before this statement ran. */
  values: Record<string, string>;
}

const NOT_A_STATEMENT = /^\s*(?:$|func\s.*\{\s*$|\}\s*$|\}\s*else\s*(?:if\b.*)?\{\s*$|case\b.*:\s*$|default\s*:\s*$|\/\/)/;

/** The probed copy of `source`: same lines, a probe before each statement line. */
export function truthCopy(source: string): string {
  return source
    .split('\n')
    .map((text, i) => {
      if (/^\s*func\s.*\{\s*$/.test(text)) return `${text} tr_at := 0;`;
      if (NOT_A_STATEMENT.test(text)) return text;
      const col = text.search(/\S/);
      return `${text.slice(0, col)}tr_at = ${(i + 1) * 1000 + col + 1}; ${text.slice(col)}`;
    })
    .join('\n');
}

/**
 * Replays `trace` (recorded from `program`) against the probed copy: per goroutine, the statements
 * it ran in order with the values of `names` before each. Also machin's verdict line and panic
 * line, so the caller can check the copy replayed as the program did.
 */
export function truthReplay(trace: string, program: string, names: string[]): { byGoroutine: Map<string, TruthStatement[]>; stderr: string } {
  const dir = mkdtempSync(path.join(path.dirname(program), 'truth-'));
  const copy = path.join(dir, path.basename(program));
  writeFileSync(copy, truthCopy(readFileSync(program, 'utf8')));
  const pointed = pointTraceAt(trace, copy, path.join(dir, path.basename(trace)));
  const r = runMachin(['replay', pointed, '--print', ['tr_at', ...names].join(',')], { timeoutMs: 60_000 });
  if (r.timedOut) throw new Error(`the truth replay of ${trace} did not end`);
  const byGoroutine = new Map<string, TruthStatement[]>();
  const current = new Map<string, Record<string, string>>();
  for (const p of probeLines(r.stderr)) {
    const values = current.get(p.goroutine) ?? {};
    current.set(p.goroutine, values);
    if (p.name !== 'tr_at') {
      values[p.name] = p.value;
      continue;
    }
    const at = Number(p.value);
    if (at === 0) continue;
    const list = byGoroutine.get(p.goroutine) ?? [];
    byGoroutine.set(p.goroutine, list);
    list.push({ line: Math.floor(at / 1000), column: at % 1000, values: { ...values } });
  }
  return { byGoroutine, stderr: r.stderr };
}

/**
 * The product's view of thread t, to hold to the truth: its statements (not entries and ends of
 * bodies) with the values of `names` before each, as its frame sees them, and which surely ran.
 */
export function productStatements(rec: Recording, t: number, names: string[]): Array<TruthStatement & { sure: boolean }> {
  const s = rec.statements!;
  const h = rec.histories!;
  const out: Array<TruthStatement & { sure: boolean }> = [];
  for (let e = 0; e < s.eventsOf(t); e++) {
    const loc = s.location(t, e);
    if (loc.kind !== 'statement' && loc.kind !== 'return') continue;
    const anchor = s.positionOf(t, e);
    const values: Record<string, string> = {};
    for (const name of names) {
      const v = h.valueAtEvent!(name, t, e, anchor, anchor, (stored) => s.sameFrame(t, name, stored, e));
      if (v !== undefined) values[name] = v;
    }
    out.push({ line: loc.line, column: loc.column, values, sure: s.isSure(t, e) });
  }
  return out;
}
