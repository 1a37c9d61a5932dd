// One record of a trace document as the views describe it: read from the index (op numbers,
// queue positions, totals) and from the line's own text (the I/O bytes), never by rescanning.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DecodedValue } from '../replay-engine/model/recording';
import { decodeIo } from './io-value';
import type { TraceIndex } from './trace-index';
import { LineKind, ioBytes } from './trace-line';

export interface TraceRecord {
  line: number;
  kind: 'sched' | 'io';
  thread: number;
  threadId: string;
  /** sched: op number (0-based). io: index in its goroutine's I/O queue. */
  ordinal: number;
  /** Schedule ops completed before this line. */
  opsBefore: number;
}

/** The record on a 0-based line, or undefined when the line holds none. */
export function recordAt(index: TraceIndex, line: number): TraceRecord | undefined {
  const d = index.derived;
  if (line < 0 || line >= d.lines || line === d.cutLine) return undefined;
  const kind = index.table.kind(line);
  if (kind !== LineKind.Sched && kind !== LineKind.Io) return undefined;
  const thread = index.table.thread(line);
  return {
    line,
    kind: kind === LineKind.Sched ? 'sched' : 'io',
    thread,
    threadId: index.threadIds[thread],
    ordinal: d.ordinal[line],
    opsBefore: d.opsBefore[line],
  };
}

export function lineText(doc: TextDocument, line: number): string {
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

export interface IoValue {
  bytes: number;
  value: DecodedValue;
}

/** Values beyond this are decoded from their first bytes only: a hover is no place for 50 MB. */
export const MAX_DECODED_BYTES = 64 * 1024;

export function ioValueAt(doc: TextDocument, index: TraceIndex, line: number): IoValue {
  const bytes = ioBytes(lineText(doc, line));
  const follows = index.derived.followsOwnStep[line] === 1;
  if (bytes.length <= MAX_DECODED_BYTES) return { bytes: bytes.length, value: decodeIo(bytes, follows) };
  const head = decodeIo(bytes.subarray(0, MAX_DECODED_BYTES), follows);
  return { bytes: bytes.length, value: { text: `${head.text.slice(0, 1000)}… (first ${MAX_DECODED_BYTES} of ${bytes.length} bytes)`, type: head.type } };
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
