// A condition (`until.condition` of move) is checked before the run: over the size cap it is
// refused (a 17 KB condition evaluated on each of 300k effects kept the server busy for 96 s), and a
// name no record and no variable has is an error that lists the names there are, where the
// debugger's rule (an unknown name is undefined, so the condition never holds) would run to the
// end without a word.
import { RECORD_FIELDS } from '../debug-adapter/record-scope';
import { ExpressionError, namesIn, parseExpression } from '../debug-adapter/expression';
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';

/** The longest condition a move takes, in characters (docs/mcp.md, SECURITY.md). */
export const CONDITION_MAX = 4096;
/** Names listed in the error. */
const LISTED = 60;

export function checkConditionNames(held: HeldRecording, condition: string): void {
  let names: Set<string>;
  try {
    names = namesIn(parseExpression(condition));
  } catch (err) {
    if (err instanceof ExpressionError) return; // the breakpoint table words the syntax error
    if (err instanceof RangeError) {
      throw new RecordingError('usage', `condition: nested too deeply to be read (${condition.length} characters); write it with fewer parentheses`);
    }
    throw err;
  }
  const known = knownNames(held);
  const unknown = [...names].filter((n) => !known.has(n.startsWith('record.') ? n.slice(7) : n));
  if (!unknown.length) return;
  const list = [...known];
  throw new RecordingError(
    'usage',
    `condition: no record field, variable or decoded part is named ${unknown.map((n) => `\`${n}\``).join(', ')}; names here: ${list.slice(0, LISTED).join(', ')}${list.length > LISTED ? `, … (${list.length} in all)` : ''}`,
  );
}

const cache = new WeakMap<HeldRecording['recording'], Set<string>>();

/** Record fields, the variables with a value history, and the decoded parts of one record of each kind. */
function knownNames(held: HeldRecording): Set<string> {
  const rec = held.recording;
  let known = cache.get(rec);
  if (known) return known;
  known = new Set(RECORD_FIELDS);
  for (const n of rec.histories?.names ?? []) known.add(n);
  const tl = rec.timeline;
  const seen = new Set<number>();
  for (let r = 0; r < tl.recordCount && seen.size < tl.kinds.length; r++) {
    if (seen.has(tl.kind[r])) continue;
    seen.add(tl.kind[r]);
    for (const c of rec.describe(r).value.children ?? []) known.add(c.name);
  }
  cache.set(rec, known);
  return known;
}
