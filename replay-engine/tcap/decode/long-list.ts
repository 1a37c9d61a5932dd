// Lists of any length in a decoded value (a pipeline of a million Redis commands, a million SQL
// arguments, millions of request headers): only the first PREVIEW_CHILDREN children are made;
// the others are made a page at a time when a view pages to them (`more.page`), and one-line
// texts are built from the first few items, with the count.
import type { ChildPages, DecodedChild } from '../../model/recording';

export const PREVIEW_CHILDREN = 100;
/** Longest one-line text built from a list's items before it says how many there are. */
export const LIST_TEXT_LIMIT = 200;

export function longList(count: number, make: (i: number) => DecodedChild): { children: DecodedChild[]; more?: ChildPages } {
  const shown = Math.min(count, PREVIEW_CHILDREN);
  const children = new Array<DecodedChild>(shown);
  for (let i = 0; i < shown; i++) children[i] = make(i);
  if (count <= PREVIEW_CHILDREN) return { children };
  const page = (from: number, to: number): DecodedChild[] => {
    const out: DecodedChild[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, count); i++) out.push(make(i));
    return out;
  };
  return { children, more: { count, page } };
}

/** Items' texts joined by `sep` while they fit LIST_TEXT_LIMIT, then `… (N what)`. */
export function joinedText(count: number, text: (i: number) => string, sep: string, what: string): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const t = text(i);
    const next = i === 0 ? t : `${out}${sep}${t}`;
    if (next.length > LIST_TEXT_LIMIT) {
      const shown = i === 0 ? `${t.slice(0, LIST_TEXT_LIMIT)}…` : `${out}${sep}…`;
      return `${shown} (${count.toLocaleString('en')} ${what})`;
    }
    out = next;
  }
  return out;
}
