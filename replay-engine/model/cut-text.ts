// The one cut for a value's text wherever a view shows it on one line: the MCP server's answers,
// the debug adapter's Variables, a capsule effect's summary (SECURITY.md: at most 400 characters,
// then how long the whole text is). The decoded bytes themselves are never cut.

/** Longest value text a view shows (SECURITY.md, *large decoded values*). */
export const VALUE_TEXT_LIMIT = 400;

const CUT_MARK = /… \(\d+ chars\)$/;
/** Room for a short prefix (`GET cart:7 → `) before a text cut already, so its length stays told. */
const PREFIX_ROOM = 64;

/** `text`, or its first `limit` characters and `… (N chars)`; a text cut already is kept as it is. */
export function cutText(text: string, limit = VALUE_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  if (text.length <= limit + PREFIX_ROOM + 24 && CUT_MARK.test(text)) return text;
  return `${text.slice(0, limit)}… (${text.length} chars)`;
}
