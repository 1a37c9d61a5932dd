// Paging for answers that can be large (threads of a big run, a long history, a causal chain of
// 10M steps): an agent gets a small page and the offset of the next one.
import { z } from 'zod';

export const offsetParam = z.number().int().min(0).optional().describe('index of the first item to return (default 0)');
export const limitParam = (def: number, max: number) =>
  z.number().int().min(1).max(max).optional().describe(`how many items to return (default ${def}, at most ${max})`);

export interface Page<T> {
  total: number;
  offset: number;
  items: T[];
  /** Offset of the next page, or null when this page is the last. */
  nextOffset: number | null;
}

/** A page of a list of `total` items, produced by `take(from, to)`. */
export function page<T>(total: number, offset: number | undefined, limit: number, take: (from: number, to: number) => T[]): Page<T> {
  const from = Math.min(offset ?? 0, total);
  const to = Math.min(total, from + limit);
  return { total, offset: from, items: take(from, to), nextOffset: to < total ? to : null };
}
