// What the kept lines (line-memo.ts) and the decoded keys (decoded-keys.ts) share: a hash of
// byte runs, a compare of them, and the judgement, per kind, of whether its effects repeat enough
// to be looked up: a kind is judged after its first MEASURE lookups, and no longer looked up when
// fewer than a quarter of them hit.

const MEASURE = 512;

export class RepeatJudge {
  private readonly tries = new Uint32Array(256);
  private readonly hits = new Uint32Array(256);
  private readonly off = new Uint8Array(256);

  /** Whether effects of this kind are still looked up. */
  on(kind: number): boolean {
    return this.off[kind] === 0;
  }

  /** Counts a lookup of this kind, found or not. */
  looked(kind: number, hit: boolean): void {
    const n = ++this.tries[kind];
    if (hit) this.hits[kind]++;
    else if (n === MEASURE && this.hits[kind] < n >> 2) this.off[kind] = 1;
  }
}

/** h folded with b[from, to) (FNV-1a steps). */
export function hashRun(h: number, b: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i], 16777619);
  return h;
}

/** Whether a[at, at + n) and b[from, from + n) hold the same bytes. */
export function sameRun(a: Uint8Array, at: number, b: Uint8Array, from: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[at + i] !== b[from + i]) return false;
  return true;
}
