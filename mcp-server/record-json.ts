// One record as an agent reads it: where it is (record, line, step, position), whose it is, and
// the engine's own one-line summary; the decoded value tree only when asked for.
import { cutText } from '../replay-engine/model/cut-text';
import type { DecodedValue, Recording } from '../replay-engine/model/recording';
import { pageBytes } from './fit-answer';

export interface RecordJson {
  record: number;
  line: number;
  kind: string;
  thread: string;
  /** Step number (schedule op or effect), or null for a record that is not a step (an I/O line). */
  step: number | null;
  /** The cursor position at which this record is done. */
  position: number;
  summary: string;
  value?: ValueJson;
  /** Where in the program the record's thread runs, when known. */
  source?: { path: string; line: number; name: string };
}

export function recordJson(rec: Recording, r: number, detail = false): RecordJson {
  const view = rec.describe(r);
  const tl = rec.timeline;
  const out: RecordJson = {
    record: r,
    line: view.line,
    kind: view.kind,
    thread: tl.threads[view.thread].id,
    step: view.step < 0 ? null : view.step,
    position: view.position,
    summary: view.summary,
  };
  // Half the page for the tree, so the record's other fields and the page around it fit too.
  if (detail) out.value = valueJson(view.value, { left: pageBytes() / 2 });
  const where = rec.sourceLocation?.(r);
  if (where) out.source = { path: where.path, line: where.line, name: where.name };
  return out;
}

/** A decoded value tree as JSON: texts cut (cutText), children while they fit the page. */
export interface ValueJson {
  text: string;
  type: string;
  children?: Array<{ name: string; value: ValueJson }>;
  /** A long list: how many children it has in all (`children` holds the first ones). */
  more?: { count: number };
  /** Children left out to keep the answer within the page bound. */
  childrenOmitted?: number;
}

/**
 * Depth first, each node's text cut, so a tree of 64 nested levels costs its nodes once each (the
 * engine's texts are already cut per level) and the walk stops once the page's bytes are spent.
 */
export function valueJson(v: DecodedValue, budget: { left: number }): ValueJson {
  const text = cutText(v.text);
  budget.left -= text.length + v.type.length + 24;
  const out: ValueJson = { text, type: v.type };
  const kids = v.children;
  if (kids && kids.length) {
    const shown: Array<{ name: string; value: ValueJson }> = [];
    for (const c of kids) {
      if (budget.left <= 0) break;
      const name = cutText(c.name);
      budget.left -= name.length + 20;
      shown.push({ name, value: valueJson(c.value, budget) });
    }
    out.children = shown;
    if (shown.length < kids.length) out.childrenOmitted = kids.length - shown.length;
  }
  if (v.more) out.more = { count: v.more.count };
  return out;
}
