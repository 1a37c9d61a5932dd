// Text output that cannot drive the terminal. Strings in a recording or a toolchain's output (a
// panic message, a trace's `program` line, I/O values, machin's panic text) are the sender's: an
// ESC or CSI sequence could recolour or clear the screen, an OSC set the title or plant a
// hyperlink, a CR or a bidi override make one line read as another. Every control character but
// the line end and tab, every C1 control and every bidi control is shown as an escape (`\x1b`,
// `\u009b`, `\u202e`). JSON output is never passed through here: it stays exact.

// C0 but \t and \n, DEL, C1, the bidi embeddings/overrides/isolates and marks, the line and paragraph separators.
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/** Writes text for a person (never JSON) to stdout or stderr, made printable. */
export function writeText(stream: NodeJS.WriteStream, text: string): void {
  stream.write(printable(text));
}
