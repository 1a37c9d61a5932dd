// The first watched variable whose value differs between two runs. Positions cannot be compared
// across runs (the schedules differ), so each (variable, goroutine) is compared as the sequence
// of values it took: the k-th assignment in A against the k-th in B. The difference reported is
// the one that happens earliest (by op in A, then in B).
import type { Recording } from '../model/recording';

export interface VariableSide {
  /** Op (cursor position) at which the differing value was set; null when this run never set it. */
  op: number | null;
  value: string | null;
}

export interface VariableDifference {
  name: string;
  /** Goroutine id. */
  thread: string;
  threadLabel: string;
  /** Which assignment (0-based) of this variable on this goroutine differs. */
  assignment: number;
  a: VariableSide;
  b: VariableSide;
}

export function firstVariableDifference(a: Recording, b: Recording): VariableDifference | null {
  const ha = a.histories;
  const hb = b.histories;
  if (!ha || !hb) return null;
  const namesB = new Set(hb.names);
  let best: VariableDifference | null = null;
  let bestKey: [number, number] = [Infinity, Infinity];
  for (const name of ha.names) {
    if (!namesB.has(name)) continue;
    const byThreadA = groupByThread(a, ha.entries(name));
    const byThreadB = groupByThread(b, hb.entries(name));
    for (const id of new Set([...byThreadA.keys(), ...byThreadB.keys()])) {
      const ea = byThreadA.get(id) ?? [];
      const eb = byThreadB.get(id) ?? [];
      const n = Math.max(ea.length, eb.length);
      for (let k = 0; k < n; k++) {
        const va = ea[k];
        const vb = eb[k];
        if (va && vb && va.value === vb.value) continue;
        const key: [number, number] = [va?.position ?? Infinity, vb?.position ?? Infinity];
        if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
          bestKey = key;
          const t = a.timeline.threadIndex(id);
          best = {
            name,
            thread: id,
            threadLabel: t >= 0 ? a.timeline.threads[t].label : (b.timeline.threads[b.timeline.threadIndex(id)]?.label ?? ''),
            assignment: k,
            a: { op: va?.position ?? null, value: va?.value ?? null },
            b: { op: vb?.position ?? null, value: vb?.value ?? null },
          };
        }
        break;
      }
    }
  }
  return best;
}

function groupByThread(rec: Recording, entries: ReturnType<NonNullable<Recording['histories']>['entries']>) {
  const out = new Map<string, Array<{ position: number; value: string }>>();
  for (const e of entries) {
    const id = rec.timeline.threads[e.thread]?.id ?? String(e.thread);
    let list = out.get(id);
    if (!list) out.set(id, (list = []));
    list.push({ position: e.position, value: e.value });
  }
  return out;
}
