// Capsules grouped by failure signature: groups largest first (then the most recent), capsules in a
// group newest first, the unreadable ones apart. Capsules can be added and removed one at a time
// (a spool that grows while it is watched); the sorted views are made when asked for.
import type { CapsuleSummary, SpoolCapsule, UnreadableCapsule } from './capsule-summary';
import type { FailureSignature } from './signature';

export interface SpoolGroup {
  key: string;
  signature: FailureSignature;
  /** Newest first. */
  capsules: CapsuleSummary[];
  count: number;
  /** Earliest and latest wall clock of the group's capsules (ns), null when none has one. */
  first: bigint | null;
  last: bigint | null;
}

/** Newest first: by wall clock, then by name (the per-core counter), capsules without a time last. */
export function newestFirst(a: { wall: bigint | null; name: string }, b: { wall: bigint | null; name: string }): number {
  if (a.wall !== b.wall) {
    if (a.wall === null) return 1;
    if (b.wall === null) return -1;
    return a.wall > b.wall ? -1 : 1;
  }
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

export class SpoolGroups {
  private readonly byFile = new Map<string, SpoolCapsule>();

  get size(): number {
    return this.byFile.size;
  }

  /** Adds a capsule, or replaces the one of the same file. */
  add(c: SpoolCapsule): void {
    this.byFile.set(c.file, c);
  }

  delete(file: string): boolean {
    return this.byFile.delete(file);
  }

  get(file: string): SpoolCapsule | undefined {
    return this.byFile.get(file);
  }

  all(): IterableIterator<SpoolCapsule> {
    return this.byFile.values();
  }

  clear(): void {
    this.byFile.clear();
  }

  /** Largest group first; equal counts: the one that failed last first. */
  groups(): SpoolGroup[] {
    const byKey = new Map<string, SpoolGroup>();
    for (const c of this.byFile.values()) {
      if (!c.readable) continue;
      let g = byKey.get(c.key);
      if (!g) byKey.set(c.key, (g = { key: c.key, signature: c.signature, capsules: [], count: 0, first: null, last: null }));
      g.capsules.push(c);
      g.count++;
      if (c.wall !== null) {
        if (g.first === null || c.wall < g.first) g.first = c.wall;
        if (g.last === null || c.wall > g.last) g.last = c.wall;
      }
    }
    const groups = [...byKey.values()];
    for (const g of groups) g.capsules.sort(newestFirst);
    return groups.sort((a, b) => b.count - a.count || newestFirst({ wall: a.last, name: a.key }, { wall: b.last, name: b.key }));
  }

  /** The capsules that could not be read, newest first. */
  unreadable(): UnreadableCapsule[] {
    return [...this.byFile.values()].filter((c): c is UnreadableCapsule => !c.readable).sort(newestFirst);
  }
}

/** Reads a whole spool into groups (the CLI; the view adds capsules as they arrive). */
export async function groupSpool(capsules: AsyncIterable<SpoolCapsule>): Promise<SpoolGroups> {
  const groups = new SpoolGroups();
  for await (const c of capsules) groups.add(c);
  return groups;
}
