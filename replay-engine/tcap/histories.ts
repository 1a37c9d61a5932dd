// Value histories of a capsule: a Tin program's "variables" as the outside world answered them.
// Each distinct effect (kind and key: `redis GET cart:7`, `tide.now`, `wire.http GET http://...`)
// is a variable whose values are its results in order; the request's fields are variables set
// before the first effect. Built on first use (it decodes every effect).
import type { DecodedValue, ValueHistories } from '../model/recording';
import type { Timeline } from '../model/timeline';
import { ProbeHistories, type NamedHistoryEntry } from '../model/probe-histories';
import type { RequestParts } from './decode/http-request';

/** What the histories are made from (a TcapRecording; no import of it, so no cycle). */
export interface CapsuleEffectValues {
  timeline: Timeline;
  request: RequestParts;
  /** Key and result of effect r, decoded once (not kept in a cache). */
  decodedOnce(r: number): { key: DecodedValue; result: DecodedValue };
}

/** More distinct effects than this (a batch of 100k GETs) would bury the list: later ones are left out. */
export const MAX_HISTORY_NAMES = 10_000;

export function capsuleHistories(rec: CapsuleEffectValues): ValueHistories {
  const entries: NamedHistoryEntry[] = [];
  const req = rec.request;
  const thread0 = Math.max(0, rec.timeline.threadIndex('0'));
  const at0 = (name: string, value: string) => entries.push({ name, thread: thread0, position: 0, value });
  at0('request.method', req.method);
  at0('request.target', req.target);
  for (const h of req.headers) at0(`request.header.${h.name}`, h.value);
  for (const q of req.query) at0(`request.query.${q.name}`, q.value);
  const names = new Set<string>();
  const tl = rec.timeline;
  for (let r = 0; r < tl.recordCount; r++) {
    const decoded = rec.decodedOnce(r); // a pass over every effect: not kept in the recent-effects cache
    const key = decoded.key;
    const kind = tl.kindName(r).replace(/@\d+$/, '');
    const name = key.type === 'empty' ? kind : `${kind} ${key.text}`;
    if (!names.has(name)) {
      if (names.size >= MAX_HISTORY_NAMES) continue;
      names.add(name);
    }
    entries.push({ name, thread: tl.thread[r], position: r + 1, value: historyValue(decoded.result) });
  }
  return ProbeHistories.of(entries);
}

/** Numbers as their exact digits (so the history panel can chart them), anything else as shown. */
function historyValue(v: DecodedValue): string {
  const ns = v.children?.find((c) => c.name === 'ns');
  if (ns) return ns.value.text;
  return v.text;
}
