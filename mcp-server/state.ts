// get_state's answer: the run as of one moment. For each goroutine or task (paged), the record it
// last did, the values its watched variables hold then, and the I/O it has consumed so far.
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { page } from './paging';
import { recordJson, type RecordJson } from './record-json';
import { valuesAt } from './values-at';

export interface StateQuery {
  position?: number;
  record?: number;
  thread?: string;
  threadsOffset?: number;
  threadsLimit: number;
  ioLimit: number;
  valuesLimit: number;
  /** Only these variables. */
  variables?: string[];
  detail: boolean;
}

/** The record state m (-1 start .. recordCount end) a query names; the runtime's own when none. */
export function stateRecord(held: HeldRecording, q: { position?: number; record?: number }): number {
  const { runtime } = held;
  const tl = runtime.timeline;
  const unit = tl.format === 'tcap' ? 'effects' : 'schedule ops';
  if (q.record !== undefined) {
    if (q.record < -1 || q.record > tl.recordCount) {
      throw new RecordingError('usage', `record ${q.record} is outside the recording: records are -1 (the start) to ${tl.recordCount} (the end; the last record is ${tl.recordCount - 1})`);
    }
    return q.record;
  }
  if (q.position !== undefined) {
    if (q.position > tl.stepCount) throw new RecordingError('usage', `position ${q.position} is past the end: the run has ${tl.stepCount} ${unit}, so positions are 0 to ${tl.stepCount}`);
    return q.position === tl.stepCount ? tl.recordCount : runtime.recordForPosition(q.position);
  }
  return runtime.record;
}

export function threadIndexOf(held: HeldRecording, id: string): number {
  const tl = held.recording.timeline;
  let t = tl.threadIndex(id);
  if (t < 0) t = tl.threads.findIndex((x) => x.label === id && x.label !== '');
  if (t < 0) {
    const what = tl.format === 'tcap' ? 'task' : 'goroutine';
    const some = tl.threads.slice(0, 12).map((x) => x.id).join(', ');
    throw new RecordingError('usage', `${tl.file}: no ${what} ${id} in this recording (it has ${some}${tl.threads.length > 12 ? ', …' : ''})`, { file: tl.file });
  }
  return t;
}

export function stateJson(held: HeldRecording, q: StateQuery): object {
  const { recording: rec, runtime } = held;
  const tl = rec.timeline;
  const m = stateRecord(held, q);
  const p = runtime.positionAt(m);
  const current = q.position === undefined && q.record === undefined;
  const histories = rec.histories;
  const io = held.io();
  const last = Math.min(m, tl.recordCount - 1);
  const thread = (t: number) => {
    const r = m < 0 ? -1 : runtime.threads.lastRecordAtOrBefore(t, last);
    const { values, total } = histories ? valuesAt(histories, t, p, q.valuesLimit, q.variables) : { values: {}, total: 0 };
    const consumed = m < 0 ? 0 : io.countUpTo(t, last);
    const shown: RecordJson[] = io.slice(t, Math.max(0, consumed - q.ioLimit), consumed).map((x) => recordJson(rec, x, q.detail));
    return {
      id: tl.threads[t].id,
      label: tl.threads[t].label,
      current: r < 0 ? null : recordJson(rec, r, q.detail),
      values,
      ...(total > Object.keys(values).length ? { valuesTotal: total } : {}),
      io: { consumed, last: shown },
    };
  };
  const only = q.thread === undefined ? -1 : threadIndexOf(held, q.thread);
  const threads = only >= 0 ? page(1, 0, 1, () => [thread(only)]) : page(tl.threads.length, q.threadsOffset, q.threadsLimit, (a, b) => range(a, b).map(thread));
  return {
    position: p,
    record: m,
    atStart: m < 0,
    atEnd: m >= tl.recordCount,
    of: { positions: tl.stepCount, records: tl.recordCount },
    ...(current ? { lastStop: stopJson(held) } : {}),
    justDone: m >= 0 && m < tl.recordCount ? recordJson(rec, m, q.detail) : null,
    panicked: rec.panic ? p >= rec.panic.position && m >= tl.frontier(rec.panic.position) - 1 : null,
    values: histories ? 'as of this position, per thread' : tl.format === 'mflrr' ? 'none: value histories come from machin (the server started with --toolchain and machin at hand; the summary\'s warnings say why not)' : 'none',
    threads,
  };
}

export function stopJson(held: HeldRecording): object {
  const s = held.runtime.lastStop;
  const tl = held.recording.timeline;
  return {
    reason: s.reason,
    description: s.description,
    ...(s.text ? { text: s.text } : {}),
    ...(s.exception ? { exception: s.exception } : {}),
    thread: tl.threads[s.thread]?.id ?? null,
  };
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i < b; i++) out.push(i);
  return out;
}
