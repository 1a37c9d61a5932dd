// Which lanes the timeline shows, top to bottom: every lane (row r is lane r), or the lanes a
// "Find goroutine" filter matched, in lane order, plus the lanes the view had to keep in sight
// (the debug cursor's goroutine, the selection's). The canvas, the lane list and the keyboard
// work in rows; only rows on screen are ever laid out, so 750,000 lanes cost what 30 do.
import { lowerBound } from '../../replay-engine/model/lower-bound';
import type { ThreadMsg } from '../protocol';

export class LaneRows {
  /** The lanes shown, ascending; null: every lane. */
  private shown: Uint32Array | null = null;
  private query = '';

  constructor(readonly laneCount: number) {}

  get count(): number {
    return this.shown ? this.shown.length : this.laneCount;
  }

  get filtered(): boolean {
    return this.shown !== null;
  }

  /** The filter text in effect ('' when every lane is shown). */
  get filter(): string {
    return this.query;
  }

  laneAt(row: number): number {
    return this.shown ? this.shown[row] : row;
  }

  /** The row lane L is drawn in, or -1 when the filter hides it. */
  rowOf(lane: number): number {
    const s = this.shown;
    if (!s) return lane >= 0 && lane < this.laneCount ? lane : -1;
    const i = lowerBound(0, s.length, (k) => s[k] < lane);
    return i < s.length && s[i] === lane ? i : -1;
  }

  /**
   * Show only the lanes whose thread matches `text` (see matcher); '' shows every lane again.
   * Returns how many lanes match. Lanes kept in sight stay shown.
   */
  setFilter(text: string, threads: readonly ThreadMsg[], keep: readonly number[] = []): number {
    const q = text.trim();
    this.query = q;
    if (q === '') {
      this.shown = null;
      return this.laneCount;
    }
    const match = matcher(q);
    const out = new Uint32Array(this.laneCount);
    let n = 0;
    for (let lane = 0; lane < this.laneCount; lane++) if (match(threads[lane])) out[n++] = lane;
    const matched = n;
    this.shown = out.slice(0, n);
    for (const lane of keep) this.keep(lane);
    return matched;
  }

  /** Make sure lane L is shown (the debug cursor moved there); returns its row. */
  keep(lane: number): number {
    const row = this.rowOf(lane);
    if (row >= 0 || lane < 0 || lane >= this.laneCount || !this.shown) return row;
    const s = this.shown;
    const at = lowerBound(0, s.length, (k) => s[k] < lane);
    const grown = new Uint32Array(s.length + 1);
    grown.set(s.subarray(0, at));
    grown[at] = lane;
    grown.set(s.subarray(at), at + 1);
    this.shown = grown;
    return at;
  }
}

/**
 * What a filter text matches. Digits and dots are a goroutine (or task) path: `0.1` matches 0.1
 * and every goroutine it spawned, directly or not (0.1.3, 0.1.3.2), but not 0.10; a trailing `.`
 * or `.*` means the same. Anything else matches ids and labels that contain it, ignoring case.
 */
export function matcher(text: string): (t: ThreadMsg) => boolean {
  const path = /^[0-9]+(\.[0-9]+)*(\.\*?|\*)?$/.test(text) ? text.replace(/\.?\*$|\.$/, '') : null;
  if (path !== null) {
    const below = `${path}.`;
    return (t) => t.id === path || t.id.startsWith(below);
  }
  const needle = text.toLowerCase();
  return (t) => t.id.toLowerCase().includes(needle) || t.label.toLowerCase().includes(needle);
}
