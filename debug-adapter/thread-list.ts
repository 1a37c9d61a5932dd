// The `threads` answer for a recording with more goroutines than a Threads view can show. DAP has
// no paging for threads and VS Code lists every one it is given (750,000 goroutines made a
// 23.8 MB answer), so at most MAX_LISTED_THREADS are listed: the thread the cursor stopped on,
// the one that panicked, then the others in the recording's order. Every thread id stays valid
// in every other request; the rest are reached by a goroutine breakpoint or from the timeline.
import type { Recording } from '../replay-engine/model/recording';
import { groupDigits } from '../replay-engine/model/group-digits';

export const MAX_LISTED_THREADS = 1000;

/** Thread indices to list, ascending: `first` (when valid) and then the lowest indices, at most max. */
export function listedThreads(rec: Recording, first: Array<number | undefined>, max = MAX_LISTED_THREADS): number[] {
  const n = rec.timeline.threads.length;
  if (n <= max) return Array.from({ length: n }, (_, t) => t);
  const chosen = new Set<number>();
  for (const t of first) if (t !== undefined && t >= 0 && t < n && chosen.size < max) chosen.add(t);
  for (let t = 0; t < n && chosen.size < max; t++) chosen.add(t);
  return Array.from(chosen).sort((a, b) => a - b);
}

/** Said once in the console when the list is cut. */
export function listedThreadsNote(rec: Recording, max = MAX_LISTED_THREADS): string | null {
  const n = rec.timeline.threads.length;
  if (n <= max) return null;
  const what = rec.timeline.units.threads;
  return `${groupDigits(n)} ${what}: the Threads view lists ${groupDigits(max)} of them (the one stopped on, the one that panicked, then the first in order). The others are still there: stop on one with a function breakpoint such as \`goroutine 0.1\`, or go to its ops from the timeline.\n`;
}
