// The statement table's facts the per-statement hot paths read (the index builder, what surely
// ran), as typed arrays by statement number - 1: a launch reads millions of statement events, and
// a byte or an int per fact is read faster than a row object's fields. Made once per table.
import type { StatementTable } from './instrument';

export const KIND_STATEMENT = 0;
export const KIND_ENTRY = 1;
export const KIND_RETURN = 2;
export const KIND_EXIT = 3;

export interface RowCodes {
  /** KIND_* of each statement. */
  kind: Uint8Array;
  /** Its function (StatementTable.functions index). */
  fn: Int32Array;
  /** For a return: StatementRow.returnCalls, -1 when null. */
  returnCalls: Int32Array;
  /** 1 for a `go` statement. */
  spawns: Uint8Array;
}

const made = new WeakMap<StatementTable, RowCodes>();

export function rowCodes(table: StatementTable): RowCodes {
  let codes = made.get(table);
  if (codes) return codes;
  const n = table.rows.length;
  codes = { kind: new Uint8Array(n), fn: new Int32Array(n), returnCalls: new Int32Array(n), spawns: new Uint8Array(n) };
  table.rows.forEach((r, i) => {
    codes!.kind[i] = r.kind === 'entry' ? KIND_ENTRY : r.kind === 'return' ? KIND_RETURN : r.kind === 'exit' ? KIND_EXIT : KIND_STATEMENT;
    codes!.fn[i] = r.fn;
    codes!.returnCalls[i] = r.returnCalls ?? -1;
    codes!.spawns[i] = r.spawns ? 1 : 0;
  });
  made.set(table, codes);
  return codes;
}
