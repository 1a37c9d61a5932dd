// variable_history and find_value_change: the value history of a variable, as `frozen-run history
// --json` gives it, and where its value changed (the data breakpoint's search) in either direction.
import { historyAnswer, type HistoryJson } from '../replay-engine/model/history-answer';
import { RecordingError } from '../replay-engine/model/errors';
import { readyStatements } from '../replay-engine/model/recording';
import type { HeldRecording } from './held-recordings';
import { page } from './paging';
import { recordJson } from './record-json';
import { threadIndexOf } from './state';

/** The CLI's history answer, with the MCP server's own reason when values are missing because no toolchain may run. */
export function history(held: HeldRecording, variable: string, thread: string | undefined, toolchain: boolean, fn?: string): HistoryJson {
  const rec = held.recording;
  if (!rec.histories && rec.timeline.traits.toolchain !== null && !toolchain) {
    throw new RecordingError(
      'toolchain-missing',
      `${held.file}: no value histories: they come from \`machin replay --print\`, and this MCP server runs no toolchain; start it with --toolchain (in a folder you trust) and machin at hand (--machin PATH or MACHIN)`,
      { file: held.file },
    );
  }
  return historyAnswer(rec, held.file, variable, thread, fn);
}

export function historyPage(held: HeldRecording, variable: string, thread: string | undefined, toolchain: boolean, offset: number | undefined, limit: number, fn?: string) {
  const doc = history(held, variable, thread, toolchain, fn);
  const { entries, ...rest } = doc;
  const p = page(entries.length, offset, limit, (a, b) => entries.slice(a, b));
  return { ...rest, total: p.total, offset: p.offset, entries: p.items, nextOffset: p.nextOffset };
}

/**
 * Where `variable` on `thread` changed, seen from position `from`: backward, the last change at or
 * before it (the write that gave the value it holds there); forward, the first change after it.
 * A change is an entry whose value differs from the one before it on that thread, as a data
 * breakpoint sees it.
 */
export function findChange(held: HeldRecording, variable: string, threadId: string, direction: 'backward' | 'forward', from: number | undefined, toolchain: boolean, fn?: string): object {
  const t = threadIndexOf(held, threadId);
  // A bare name means the variable of the function the thread is in at the cursor (its innermost frame), as the Variables view does.
  const inFrame = fn ?? (variable.includes('.') ? undefined : frameFunctionOf(held, t, variable));
  const doc = history(held, variable, threadId, toolchain, inFrame);
  const tl = held.recording.timeline;
  const p = from ?? held.runtime.position;
  if (p > tl.stepCount) throw new RecordingError('usage', `position ${p} is past the end: positions are 0 to ${tl.stepCount}`);
  const changes: Array<{ position: number; value: string; previous: string | null }> = [];
  let last: string | null = null;
  for (const e of doc.entries) {
    if (e.value === last) continue;
    const change = { position: e.op, value: e.value, previous: last };
    if (changes.length && changes[changes.length - 1].position === e.op) changes[changes.length - 1] = { ...change, previous: changes[changes.length - 1].previous };
    else changes.push(change);
    last = e.value;
  }
  const found = direction === 'backward' ? findLast(changes, (c) => c.position <= p) : changes.find((c) => c.position > p);
  const base = { variable, thread: tl.threads[t].id, direction, from: p, changes: changes.length };
  if (!found) {
    return { ...base, found: false, why: direction === 'backward' ? `\`${variable}\` on ${threadId} took no value at or before position ${p}` : `\`${variable}\` on ${threadId} does not change after position ${p}` };
  }
  // The change after p ops is made by step p-1 (none for a value set before the first op).
  const record = found.position > 0 ? tl.recordOfStep(found.position - 1) : -1;
  return { ...base, found: true, position: found.position, value: found.value, previous: found.previous, byRecord: record >= 0 ? recordJson(held.recording, record) : null };
}

/** The thread's innermost frame's function at the cursor, when it binds `name` (else undefined: the name decides alone). */
function frameFunctionOf(held: HeldRecording, t: number, name: string): string | undefined {
  const rec = held.recording;
  if (!readyStatements(rec)) return undefined;
  const fn = held.runtime.values.frameFunction(t, 0);
  return fn && readyStatements(rec)!.localsOf(fn)?.includes(name) ? fn : undefined;
}

function findLast<T>(xs: T[], pred: (x: T) => boolean): T | undefined {
  for (let i = xs.length - 1; i >= 0; i--) if (pred(xs[i])) return xs[i];
  return undefined;
}
