// One record as an agent reads it: where it is (record, line, step, position), whose it is, and
// the engine's own one-line summary; the decoded value tree only when asked for.
import type { DecodedValue, Recording } from '../replay-engine/model/recording';

export interface RecordJson {
  record: number;
  line: number;
  kind: string;
  thread: string;
  /** Step number (schedule op or effect), or null for a record that is not a step (an I/O line). */
  step: number | null;
  /** The cursor position at which this record is done. */
  position: number;
  summary: string;
  value?: DecodedValue;
  /** Where in the program the record's thread runs, when known. */
  source?: { path: string; line: number; name: string };
}

export function recordJson(rec: Recording, r: number, detail = false): RecordJson {
  const view = rec.describe(r);
  const tl = rec.timeline;
  const out: RecordJson = {
    record: r,
    line: view.line,
    kind: view.kind,
    thread: tl.threads[view.thread].id,
    step: view.step < 0 ? null : view.step,
    position: view.position,
    summary: view.summary,
  };
  if (detail) out.value = view.value;
  const where = rec.sourceLocation?.(r);
  if (where) out.source = { path: where.path, line: where.line, name: where.name };
  return out;
}
