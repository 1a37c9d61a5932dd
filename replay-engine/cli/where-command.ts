// `frozen-run where FILE [--json]`: where a machin run panicked, at source level. The recording is
// replayed against the instrumented program (docs/source-level.md) and the debugger's runtime
// (debug-adapter/runtime.ts) is moved to the panic, as Replay to Panic does: the statement that
// panicked with its source lines, then every goroutine's stack at that moment with each frame's
// values; a goroutine blocked at the end is shown where it waits (`main · blocked in receive`, the
// runtime's blockedIn, as the Call Stack shows it, marked alike: statement-place.ts blockedTop).
// Without the statements (no program, an instrumented replay not trusted) it says why and
// shows what the records know.
import { ReplayRuntime } from '../../debug-adapter/runtime';
import { frameLocals, noStatementsWhy, programLines, programStack, statementPlace, type FrameLocals, type StatementPlace } from '../../debug-adapter/statement-place';
import type { Recording } from '../model/recording';
import { openRecording } from '../open';
import { OPEN_OPTIONS, parse } from './args';
import { timeLimitMs } from '../option-values';
import { UsageError } from '../model/errors';
import { writeText } from './printable';

/** Source lines shown either side of the panicking statement (--context). */
const CONTEXT = 3;

/** A frame with the values it holds at the panic (its function's own names, and the globals), and which are this replay's only. */
export interface WhereFrame extends StatementPlace, FrameLocals {}

export interface WhereGoroutine {
  id: string;
  label: string;
  /** Its statement at the panic (null: it has run none the index keeps, or no statements are known). */
  location: StatementPlace | null;
  frames: WhereFrame[];
  framesTotal: number;
  /** Its last record at the panic (summary and trace line), or null before its first. */
  record: { line: number; summary: string } | null;
}

export interface WhereJson {
  file: string;
  panic: { message: string; thread: string; position: number } | null;
  /** Why there is no panic, or no statement for it. */
  why?: string;
  statement: StatementPlace | null;
  source: Array<{ line: number; text: string; here?: true }>;
  goroutines: WhereGoroutine[];
}

export async function runWhere(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, { ...OPEN_OPTIONS, context: { type: 'string' } }, { min: 1, max: 1, names: 'FILE' });
  if (values['no-toolchain']) throw new UsageError('where needs machin (the panic and the statements come from its replays); it cannot run with --no-toolchain');
  const context = values.context === undefined ? CONTEXT : Number(values.context);
  if (!Number.isInteger(context) || context < 0 || context > 1000) throw new UsageError(`--context wants a number of lines from 0 to 1000, got \`${values.context as string}\``);
  const rec = await openRecording(positionals[0], {
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    keyHex: values.key as string | undefined,
    keyFile: values['key-file'] as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
  });
  const doc = whereAnswer(rec, context);
  if (values.json === true) process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  else writeText(process.stdout, whereText(doc));
  return 0;
}

/** The panic's statement, its source lines and every goroutine's stack at the panic, from the runtime stopped there. */
export function whereAnswer(rec: Recording, context = CONTEXT): WhereJson {
  const tl = rec.timeline;
  const p = rec.panic;
  if (!p) {
    const why = rec.warnings.find((w) => /toolchain|machin|program/.test(w.code))?.message;
    return { file: tl.file, panic: null, why: rec.verify ? 'the run did not panic' : `no panic is known${why ? `: ${why}` : ''}`, statement: null, source: [], goroutines: [] };
  }
  const rt = new ReplayRuntime(rec, { log: () => undefined });
  rt.toPanic();
  const statement = statementPlace(rt, p.thread);
  const lines = programLines(rec) ?? [];
  const source = statement
    ? lines.slice(Math.max(0, statement.line - 1 - context), Math.min(lines.length, statement.endLine + context)).map((text, i) => {
        const line = Math.max(1, statement.line - context) + i;
        return { line, text, ...(line >= statement.line && line <= statement.endLine ? { here: true as const } : {}) };
      })
    : [];
  const goroutines = tl.threads.map((info, t): WhereGoroutine => {
    const { frames, total } = programStack(rt, t);
    const r = rt.currentRecordOf(t);
    return {
      id: info.id,
      label: info.label,
      location: frames[0] ?? null,
      frames: frames.map((f, i) => ({ ...f, ...frameLocals(rt, t, i) })),
      framesTotal: total,
      record: r < 0 ? null : { line: tl.lineOf(r), summary: rec.describe(r).summary },
    };
  });
  // The goroutine that panicked first, then in the recording's order.
  goroutines.unshift(...goroutines.splice(p.thread, 1));
  const why = statement ? undefined : noStatementsWhy(rec) ?? 'the goroutine that panicked ran no statement the index keeps';
  return { file: tl.file, panic: { message: p.message, thread: tl.threads[p.thread].id, position: p.position }, ...(why ? { why } : {}), statement, source, goroutines };
}

export function whereText(doc: WhereJson): string {
  if (!doc.panic) return `${doc.file}: ${doc.why}\n`;
  const out: string[] = [`panic: ${doc.panic.message}`, `  goroutine ${doc.panic.thread}, after ${doc.panic.position} ops`];
  const s = doc.statement;
  if (s) {
    out.push(`  at ${s.function} (${s.path}:${s.line}:${s.column})`, '');
    const width = String(doc.source[doc.source.length - 1]?.line ?? 0).length;
    for (const l of doc.source) {
      out.push(`${l.here ? '>' : ' '} ${String(l.line).padStart(width)} | ${l.text}`);
      if (l.line === s.line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(s.column - 1)}${'^'.repeat(Math.max(1, (s.endLine === s.line ? s.endColumn : l.text.length + 1) - s.column))}`);
    }
  } else out.push(`  (no statement: ${doc.why})`);
  out.push('', 'goroutines at the panic:');
  for (const g of doc.goroutines) {
    out.push(`  goroutine ${g.id}${g.label ? ` (${g.label})` : ''}${g.id === doc.panic.thread ? ' [panicked]' : ''}`);
    if (g.frames.length === 0) out.push(`    ${g.record ? `no statement known; last record: line ${g.record.line}: ${g.record.summary}` : 'not started'}`);
    for (const f of g.frames) {
      out.push(`    ${f.function}${f.waiting ? ` · ${f.waiting}` : ''}  ${f.path}:${f.line}:${f.column}  ${f.text}${f.thisReplayOnly ? '  (this replay only)' : ''}`);
      const marked = new Set(f.localsThisReplayOnly);
      for (const [name, value] of Object.entries(f.locals)) out.push(`        ${name} = ${value}${marked.has(name) ? '  (this replay only)' : ''}`);
    }
    if (g.framesTotal > g.frames.length) out.push(`    … ${g.framesTotal - g.frames.length} more frames`);
  }
  return out.join('\n') + '\n';
}
