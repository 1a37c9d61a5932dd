// Where a watched variable's value changes, for a data breakpoint. Without statements every change
// is met at a record: the one whose op completes at the change's position. At source level a
// value a statement stored at its own position (a plain assignment, a call's result) is met at
// that statement instead, so several stores between two ops of the goroutine are several stops;
// a value that arrives with an op (a receive) is still met at that op's record. At source level a
// data breakpoint is on one function's variable (`gather.lo`, as the Variables view of a gather
// frame sets it): only the stores to that function's variable count (machin prints every
// function's `lo` under one name; statement-histories.ts splits them the same way). A bare name
// (record level, or an id kept from before) counts every store of the name on the thread.
import type { HistoryEntry, ValueHistories } from '../replay-engine/model/recording';
import { ownerOfEntry, splitAsked } from '../replay-engine/model/statement-histories';
import type { SourceStatements } from '../replay-engine/model/source-level';

export interface DataChanges {
  /** Every change as a position, ascending, one per position (the history view's and tests'). */
  positions: number[];
  /** The changes met at records: position and 1-based change number. */
  atRecords: Array<{ position: number; occurrence: number }>;
  /** The changes met at statements: seqs ascending, with each one's change number and new value. */
  atStatements: { seqs: Uint32Array; occurrences: Uint32Array; values: string[] };
}

export function dataChanges(histories: ValueHistories, statements: SourceStatements | null, thread: number, asked: string): DataChanges {
  const { name, fn } = splitAsked(asked, histories);
  const ownedBy = (e: HistoryEntry): string | null => (statements ? ownerOfEntry(e, statements, name) : null);
  const positions: number[] = [];
  const atRecords: DataChanges['atRecords'] = [];
  const seqs: number[] = [];
  const occurrences: number[] = [];
  const values: string[] = [];
  let last: string | undefined;
  let occurrence = 0;
  for (const e of histories.entries(name)) {
    if (e.thread !== thread) continue;
    if (fn !== null && ownedBy(e) !== fn) continue;
    if (e.value === last) continue;
    last = e.value;
    occurrence++;
    if (positions[positions.length - 1] !== e.position) positions.push(e.position);
    const storedBy = statements && e.event !== undefined && e.event >= 0 ? statements.storedBy(thread, e.event) : -1;
    if (storedBy >= 0 && statements!.positionOf(thread, storedBy) === e.position) {
      seqs.push(statements!.seqOf(thread, storedBy));
      occurrences.push(occurrence);
      values.push(e.value);
    } else if (atRecords[atRecords.length - 1]?.position !== e.position) {
      atRecords.push({ position: e.position, occurrence });
    }
  }
  return { positions, atRecords, atStatements: inSeqOrder(seqs, occurrences, values) };
}

/**
 * A call's result is met at the calling statement, which ran before the callee's own stores (a
 * callee's local of the same name): order by seq, and keep one change per statement (its last).
 */
function inSeqOrder(seqs: number[], occurrences: number[], values: string[]): DataChanges['atStatements'] {
  const order = seqs.map((_, i) => i).sort((a, b) => seqs[a] - seqs[b] || a - b);
  const kept = order.filter((i, k) => k === order.length - 1 || seqs[order[k + 1]] !== seqs[i]);
  return {
    seqs: Uint32Array.from(kept, (i) => seqs[i]),
    occurrences: Uint32Array.from(kept, (i) => occurrences[i]),
    values: kept.map((i) => values[i]),
  };
}
