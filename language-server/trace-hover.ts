// Hovers on trace text: a schedule op's number, goroutine and place in the panic's causal chain;
// an I/O record's decoded value; a header line's meaning.
import type { Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DecodedValue } from '../replay-engine/model/recording';
import { code, escapeMarkdown } from './markdown';
import type { RunFactsStore } from './run-facts';
import type { TraceIndex } from './trace-index';
import { LineKind } from './trace-line';
import { ioValueAt, lineText, plural, recordAt, type TraceRecord } from './trace-records';
import { ioPlace } from '../replay-engine/model/step-words';

export function traceHover(doc: TextDocument, index: TraceIndex, facts: RunFactsStore, line: number): Hover | null {
  const d = index.derived;
  if (line >= d.lines) return null;
  const record = recordAt(index, line);
  const range = { start: { line, character: 0 }, end: { line, character: lineText(doc, line).length } };
  if (record) {
    const body = record.kind === 'sched' ? schedHover(doc.uri, index, facts, record) : ioHover(doc, index, facts, record);
    return { contents: { kind: 'markdown', value: body }, range };
  }
  if (line === d.cutLine) {
    return { contents: { kind: 'markdown', value: '**Cut last line**: no newline, so the recording stopped while writing it. Replay ignores it; the trace ends on the line before.' }, range };
  }
  const header = headerHover(index, index.table.kind(line), lineText(doc, line));
  return header ? { contents: { kind: 'markdown', value: header }, range } : null;
}

function threadName(uri: string, facts: RunFactsStore, id: string): string {
  const label = facts.label(uri, id, 'trace');
  return label ? `goroutine \`${id}\` (${escapeMarkdown(label)})` : `goroutine \`${id}\``;
}

function schedHover(uri: string, index: TraceIndex, facts: RunFactsStore, r: TraceRecord): string {
  const d = index.derived;
  const k = r.ordinal;
  const lines = [
    `**Schedule op ${k}** of ${d.opTotal.toLocaleString('en-US')} · ${threadName(uri, facts, r.threadId)}`,
    '',
    `${threadName(uri, facts, r.threadId)} completed a channel operation, a \`select\` or a print here: its op ${index.derived.threadOrdinal[r.line] + 1} of ${d.threadOps[r.thread]}. Ops are numbered from 0 in file order; once this one is done, ${k + 1} of ${d.opTotal} have completed.`,
  ];
  const panic = facts.panic(uri);
  if (panic) {
    const where = `the panic in ${threadName(uri, facts, panic.thread)}${panic.message ? ` (${code(panic.message, 200)})` : ''}`;
    lines.push('', k < panic.position
      ? `**Causal chain**: op ${k + 1} of the ${panic.position} ops that led to ${where}.`
      : `**After the panic**: ${where} came after op ${panic.position - 1 < 0 ? 'none' : panic.position - 1}, so replay never reaches this op.`);
  } else {
    lines.push('', '_Where this op sits in a panic\'s causal chain is shown once a Frozen Run session has replayed the trace (Replay to panic)._');
  }
  return lines.join('\n');
}

function ioHover(doc: TextDocument, index: TraceIndex, facts: RunFactsStore, r: TraceRecord): string {
  const d = index.derived;
  const { bytes, value } = ioValueAt(doc, index, r.line);
  const lines = [
    `**I/O record** · ${threadName(doc.uri, facts, r.threadId)} · read ${r.ordinal + 1} of ${d.threadIos[r.thread]} in its queue`,
    '',
    `Value (${plural(bytes, 'byte')}): ${code(value.text)}`,
  ];
  if (value.children?.length) {
    lines.push('');
    flatten(value.children, 0, lines);
  }
  lines.push('', `The program read this ${ioPlace(r.opsBefore, d.opTotal, 'op')} (it is consumed at position ${r.opsBefore}, when ${r.opsBefore} ops are done). I/O comes from clocks, stdin, files, random bytes, sockets, HTTP and the case a \`select\` took.`);
  return lines.join('\n');
}

function flatten(children: Array<{ name: string; value: DecodedValue }>, depth: number, out: string[]): void {
  for (const c of children.slice(0, 20)) {
    out.push(`${'  '.repeat(depth)}- ${escapeMarkdown(c.name)}: ${code(c.value.text, 300)}`);
    if (c.value.children && depth < 2) flatten(c.value.children, depth + 1, out);
  }
}

function headerHover(index: TraceIndex, kind: number, text: string): string | null {
  const d = index.derived;
  const threads = d.threadOps.reduce((n, ops, t) => n + (ops > 0 || d.threadIos[t] > 0 ? 1 : 0), 0);
  const value = text.slice(text.indexOf(' ') + 1).replace(/\r$/, '');
  switch (kind) {
    case LineKind.Magic:
      return [
        `**${code(`MFLRR ${value}`, 40)}**: a machin record/replay trace, format version ${code(value, 30)} (version 1 is the only one; machin 0.137.0).`,
        '',
        `This trace: ${plural(d.opTotal, 'schedule op')}, ${plural(d.ioTotal, 'I/O record')}, ${plural(threads, 'goroutine')}.`,
      ].join('\n');
    case LineKind.Boundary:
      return value === 'best-effort'
        ? '**`boundary best-effort`**: the program calls C through `extern` (FFI), which the recording cannot capture. Its replay may diverge from the recorded run and can never be certified faithful.'
        : '**`boundary faithful`**: the program makes no FFI calls, so everything it saw from outside is in this trace and a replay can be certified faithful (`machin replay --verify`).';
    case LineKind.Program:
      return `**\`program\`**: the source file the recording ran, ${code(value, 500)}, a path on the machine that recorded it. Replay rebuilds this program; when the path does not exist here, Frozen Run looks for the same file name next to the trace or in the workspace, or asks.`;
    case LineKind.Safe:
      return value === '1'
        ? '**`safe 1`**: the run was built with `--safe` (bounds and division-by-zero checks). Replay rebuilds with the same flag, so a crash caught by a check reproduces.'
        : '**`safe 0`**: the run was built without `--safe`. Replay rebuilds the same way; a bounds error would not be caught by a check.';
  }
  return null;
}
