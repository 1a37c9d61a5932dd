// Statements of a goroutine that did no op of its own, kept by causality. By the own-op rule
// (probe-position.ts) everything such a goroutine runs races with the run's end, so it would be
// left out. But a goroutine's `go` statement surely ran when the goroutine it started surely did
// something (an op the run surely reaches, or, the same way, a `go` of its own): its statements up
// to that `go` happened in every replay. machin numbers a goroutine's children in the order it
// runs its `go` statements (`0.1` runs `go` twice: `0.1.1`, `0.1.2`), so the probes say which
// child each `go` started.
import type { StatementTable } from './instrument';

/** A goroutine's statement probes, as the instrumented replay's parse keeps them (StatementProbes). */
export interface ProbeColumns {
  goroutines: readonly string[];
  goroutine: { view(): Int32Array };
  statement: { view(): Int32Array };
}

/**
 * For each goroutine of `probes` (by its index there) with no op of its own (`hasOps` false):
 * how many of its first statement events surely ran (through its last `go` whose child surely did
 * something); 0 when none did. Goroutines with ops are left to the own-op rule (0).
 * `didSureOp(id)`: whether goroutine `id` (a thread of the timeline) did an op the run surely reaches.
 */
export function causallySureEvents(probes: ProbeColumns, table: StatementTable, hasOps: (id: string) => boolean, didSureOp: (id: string) => boolean): Uint32Array {
  const n = probes.goroutines.length;
  const count = new Uint32Array(n);
  /** Per goroutine: the event index of each `go` it ran, in order. */
  const spawnAt: number[][] = Array.from({ length: n }, () => []);
  const goroutine = probes.goroutine.view();
  const statement = probes.statement.view();
  for (let k = 0; k < goroutine.length; k++) {
    const g = goroutine[k];
    if (table.rows[statement[k] - 1]?.spawns) spawnAt[g].push(count[g]);
    count[g]++;
  }
  const index = new Map(probes.goroutines.map((id, g) => [id, g]));
  const sure = new Uint32Array(n);
  // Children before parents: a child's `.k` makes its id longer.
  const order = [...probes.goroutines.keys()].sort((a, b) => depth(probes.goroutines[b]) - depth(probes.goroutines[a]));
  const childSure = (id: string): boolean => {
    const c = index.get(id);
    if (c !== undefined && !hasOps(id)) return sure[c] > 0;
    return didSureOp(id);
  };
  for (const g of order) {
    const id = probes.goroutines[g];
    if (hasOps(id)) continue;
    const spawns = spawnAt[g];
    for (let j = spawns.length - 1; j >= 0; j--) {
      if (childSure(`${id}.${j + 1}`)) {
        sure[g] = spawns[j] + 1;
        break;
      }
    }
  }
  return sure;
}

function depth(id: string): number {
  let d = 0;
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) === 0x2e) d++;
  return d;
}
