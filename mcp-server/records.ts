// list_records: records (trace lines, capsule effects) in a range, decoded by the engine, filtered
// by kind, thread and text. Kind and thread are tests on typed arrays (a whole 10M-op run in tens
// of milliseconds); text decodes each candidate, so a text filter that matches rarely stops after
// TEXT_BUDGET_MS and answers where to go on.
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { pageBytes } from './fit-answer';
import { recordJson, type RecordJson } from './record-json';
import { threadIndexOf } from './state';

const TEXT_BUDGET_MS = 1_000;
/** How often the text scan looks at the clock. */
const CLOCK_EVERY = 4096;

export interface RecordQuery {
  fromRecord?: number;
  toRecord?: number;
  fromPosition?: number;
  kind?: string;
  thread?: string;
  text?: string;
  limit: number;
  detail: boolean;
}

export function listRecords(held: HeldRecording, q: RecordQuery): object {
  const rec = held.recording;
  const tl = rec.timeline;
  if (q.fromRecord !== undefined && q.fromPosition !== undefined) throw new RecordingError('usage', 'give from_record or from_position, not both');
  if (q.fromPosition !== undefined && q.fromPosition > tl.stepCount) throw new RecordingError('usage', `position ${q.fromPosition} is past the end: positions are 0 to ${tl.stepCount}`);
  // From a position: the first record not yet done there.
  const from = q.fromPosition !== undefined ? tl.frontier(q.fromPosition) : Math.min(q.fromRecord ?? 0, tl.recordCount);
  const to = Math.min(q.toRecord ?? tl.recordCount, tl.recordCount);
  let kinds: Uint8Array | null = null;
  if (q.kind !== undefined) {
    kinds = new Uint8Array(256);
    tl.kinds.forEach((k, i) => {
      if (k === q.kind || k.split('@')[0] === q.kind) kinds![i] = 1;
    });
    if (!kinds.includes(1)) throw new RecordingError('usage', `${tl.file}: no records of kind \`${q.kind}\`; kinds here: ${tl.kinds.join(', ')}`, { file: tl.file });
  }
  const t = q.thread === undefined ? -1 : threadIndexOf(held, q.thread);
  const text = q.text?.toLowerCase();
  const out: RecordJson[] = [];
  let r = from;
  let decoded = 0;
  let bytes = 0;
  let outOfTime = false;
  const deadline = performance.now() + TEXT_BUDGET_MS;
  for (; r < to && out.length < q.limit; r++) {
    if (kinds && !kinds[tl.kind[r]]) continue;
    if (t >= 0 && tl.thread[r] !== t) continue;
    if (text !== undefined) {
      if (++decoded % CLOCK_EVERY === 0 && performance.now() > deadline) {
        outOfTime = true;
        break;
      }
      const view = rec.describe(r);
      if (!view.summary.toLowerCase().includes(text) && !view.value.text.toLowerCase().includes(text)) continue;
    }
    const one = recordJson(rec, r, q.detail);
    out.push(one);
    // Bounded by size too: the page ends once its records fill the page bound.
    bytes += JSON.stringify(one).length + 1;
    if (bytes >= pageBytes()) {
      r++;
      break;
    }
  }
  return {
    from,
    to,
    records: out,
    scannedTo: r,
    /** Where the next call goes on (from_record), or null when the range is done. */
    nextRecord: r < to ? r : null,
    ...(outOfTime ? { note: `searched records ${from} to ${r - 1} for ${TEXT_BUDGET_MS / 1000} s without filling the page; call again with from_record ${r}` } : {}),
  };
}
