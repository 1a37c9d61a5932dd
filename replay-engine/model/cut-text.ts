// The one cut for a value's text wherever a view shows it on one line: the MCP server's answers,
// the debug adapter's Variables, a capsule effect's summary (SECURITY.md: at most 400 characters,
// then how long the whole text is). The decoded bytes themselves are never cut.

/** Longest value text a view shows (SECURITY.md, *large decoded values*). */
export const VALUE_TEXT_LIMIT = 400;

/** `text`, or its first `limit` characters and `… (N chars)`. */
export function cutText(text: string, limit = VALUE_TEXT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}
