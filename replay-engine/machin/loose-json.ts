// machin's `--json` lines as it prints them: it escapes only `"` and `\` in a message, so a
// message with a newline or a tab spans lines and is not valid JSON as printed.

/** JSON.parse after escaping control characters; undefined when it is still no JSON. */
export function parseLooseJson(text: string): unknown {
  const escaped = text.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  try {
    return JSON.parse(escaped);
  } catch {
    return undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
