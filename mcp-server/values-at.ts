// The values a thread's variables hold as of a position, for get_state. A trace has a handful of
// variables; a capsule has one per distinct effect (up to 10,000), so past `limit` the ones set
// most recently are shown, and the count of all of them is given.
import type { ValueHistories } from '../replay-engine/model/recording';

export interface ValuesAt {
  values: Record<string, string>;
  /** Names whose value machin printed in this replay but may not in another (docs/value-positions.md). */
  thisReplayOnly?: string[];
  /** How many variables of this thread have a value at the position. */
  total: number;
}

export function valuesAt(h: ValueHistories, t: number, p: number, limit: number, only?: string[]): ValuesAt {
  const found: Array<{ name: string; value: string; marked?: true }> = [];
  for (const name of only ?? h.names) {
    const entry = h.entryAt?.(name, t, p);
    const value = entry ? entry.value : h.valueAt(name, t, p);
    if (value !== undefined) found.push(entry?.thisReplayOnly ? { name, value, marked: true } : { name, value });
  }
  let shown = found;
  if (found.length > limit) {
    const at = new Map(found.map((f) => [f.name, h.entryAt?.(f.name, t, p)?.position ?? -1]));
    shown = [...found].sort((a, b) => at.get(b.name)! - at.get(a.name)!).slice(0, limit);
  }
  const marked = shown.filter((f) => f.marked).map((f) => f.name);
  return { values: Object.fromEntries(shown.map((f) => [f.name, f.value])), ...(marked.length ? { thisReplayOnly: marked } : {}), total: found.length };
}
