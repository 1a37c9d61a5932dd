// Every answer fits the page bound (about 32 kB of JSON by default, `--page-bytes`): an agent's
// client refuses a message over 10 MB and closes the session, and a page of that size fills its
// context anyway. Tools page by count and by size themselves (list_records, get_state); this is the
// net under every answer. Over the bound, on a copy (the engine's decoded values are cached and
// never changed): every string longer than VALUE_TEXT_LIMIT is cut (cutText, as the debugger's
// Variables), then the largest list that carries its own cursor loses its last items and the cursor
// says where to go on: a page (`items`/`threads`/`entries` with `offset` and `nextOffset`), the
// records of list_records (`nextRecord`), a decoded value's children (`childrenOmitted`); any other
// list says how many items it lost in `<name>Omitted` (a request's `headersOmitted`).
import { cutText } from '../replay-engine/model/cut-text';
import { RecordingError } from '../replay-engine/model/errors';

export const DEFAULT_PAGE_BYTES = 32 * 1024;
let bound = DEFAULT_PAGE_BYTES;

/** The server's page bound in bytes of answer JSON (server option --page-bytes). */
export function setPageBytes(bytes: number): void {
  bound = bytes;
}

export function pageBytes(): number {
  return bound;
}

type Json = Record<string, unknown>;

export interface Fitted {
  value: Json;
  text: string;
}

export function fitAnswer(value: Json, limit: number): Fitted {
  const copy = cutStrings(value) as Json;
  let text = '';
  for (let round = 0; round < 200; round++) {
    text = JSON.stringify(copy);
    if (text.length <= limit) return { value: copy, text };
    const lists = trimmable(copy);
    if (!lists.length) break;
    let best = lists[0];
    let bestSize = -1;
    for (const l of lists) {
      const size = JSON.stringify(l.items).length;
      if (size > bestSize) [best, bestSize] = [l, size];
    }
    const over = text.length - limit;
    // Drop items from the end until about `over` bytes (and a little more) are gone.
    let drop = 0;
    let gone = 0;
    for (let i = best.items.length - 1; i >= best.keep && gone <= over + 64; i--) {
      gone += JSON.stringify(best.items[i]).length + 1;
      drop++;
    }
    if (drop === 0) {
      // This list cannot lose more: take it out of the running.
      best.exhausted();
      continue;
    }
    best.cut(best.items.length - drop);
  }
  throw new RecordingError(
    'usage',
    `the answer would be ${text.length} bytes, more than the server's page bound of ${limit} bytes even with every value cut to 400 characters and every list cut to one item: ask for less (a smaller limit, no detail, one thread)`,
  );
}

function cutStrings(v: unknown): unknown {
  if (typeof v === 'string') return cutText(v);
  if (Array.isArray(v)) return v.map(cutStrings);
  if (v && typeof v === 'object') {
    const out: Json = {};
    for (const [k, x] of Object.entries(v)) if (typeof x !== 'function') out[k] = cutStrings(x);
    return out;
  }
  return v;
}

interface Trimmable {
  items: unknown[];
  /** Items that must stay (a page keeps one, so the cursor moves on). */
  keep: number;
  cut(kept: number): void;
  exhausted(): void;
}

const done = new WeakSet<object>();

/** The lists of `v` that may be cut, each with how its cursor is set after the cut. */
function trimmable(v: unknown, out: Trimmable[] = []): Trimmable[] {
  if (Array.isArray(v)) {
    for (const x of v) trimmable(x, out);
    return out;
  }
  if (!v || typeof v !== 'object') return out;
  const o = v as Json;
  const add = (key: string, keep: number, after: (kept: number, removed: unknown[]) => void) => {
    const items = o[key] as unknown[];
    if (done.has(items) || items.length <= keep) return;
    out.push({
      items,
      keep,
      cut: (kept) => {
        const removed = items.splice(kept);
        after(kept, removed);
      },
      exhausted: () => done.add(items),
    });
  };
  const pageKey = ['items', 'threads', 'entries'].find((k) => Array.isArray(o[k]));
  let cursored: string | null = null;
  if (pageKey && typeof o.offset === 'number' && 'nextOffset' in o) {
    cursored = pageKey;
    add(pageKey, 1, (kept) => {
      // A run-length entry of the causal chain ({thread, repeat}) stands for `repeat` steps.
      const items = o[pageKey] as unknown[];
      let steps = 0;
      for (let i = 0; i < kept; i++) {
        const x = items[i] as { repeat?: unknown } | null;
        steps += x && typeof x === 'object' && typeof x.repeat === 'number' ? x.repeat : 1;
      }
      o.nextOffset = (o.offset as number) + steps;
      o.cutToFit = true;
    });
  } else if (Array.isArray(o.records) && 'nextRecord' in o) {
    cursored = 'records';
    add('records', 1, (_kept, removed) => {
      const first = removed[0] as { record?: number } | undefined;
      if (first && typeof first.record === 'number') {
        o.nextRecord = first.record;
        o.cutToFit = true;
      }
    });
  } else if (Array.isArray(o.children) && typeof o.text === 'string') {
    cursored = 'children';
    add('children', 0, (_kept, removed) => {
      o.childrenOmitted = ((o.childrenOmitted as number | undefined) ?? 0) + removed.length;
    });
  }
  // Any other list (a capsule request's 100,000 headers, its query): cut, with `<name>Omitted` saying how many went.
  for (const key of Object.keys(o)) {
    if (!Array.isArray(o[key]) || key === cursored) continue;
    add(key, 0, (_kept, removed) => {
      o[`${key}Omitted`] = ((o[`${key}Omitted`] as number | undefined) ?? 0) + removed.length;
    });
  }
  for (const x of Object.values(o)) trimmable(x, out);
  return out;
}
