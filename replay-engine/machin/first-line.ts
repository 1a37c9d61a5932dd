// The first line of a toolchain's message, for a one-line warning (cut at 300 characters).

export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
