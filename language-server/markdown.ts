// Text from a recording inside a markdown hover: always as a code span, so a value holding `*`,
// `[link](...)`, `<img ...>` or backticks shows as the characters it is, never as markup.

export function code(text: string, max = 2000): string {
  const shown = (text.length > max ? `${text.slice(0, max)}…` : text).replace(/[\r\n]+/g, ' ');
  let longest = 0;
  for (const m of shown.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  // A space inside the fence when the text starts or ends with a backtick (CommonMark strips one).
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Plain text (a label a session sent) with markdown's punctuation escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}
