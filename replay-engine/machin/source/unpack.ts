// A program as the lexer reads it for labels and names: a line without whitespace that is a
// base64-packed declaration (`machin pack`) is decoded first, and everything it holds keeps that
// line's number. Other lines stay as they are, so for a readable file the text is the file's own.
import { lowerBound } from '../../model/lower-bound';

export interface UnpackedText {
  text: string;
  /** Whether any line was decoded (then offsets in `text` are not offsets in the file). */
  decoded: boolean;
  /** 1-based line in the file of an offset in `text`. */
  lineOf(offset: number): number;
}

export function unpackLines(source: string): UnpackedText {
  const lines = source.split('\n');
  // Where each file line starts in the unpacked text.
  const starts = new Array<number>(lines.length);
  const parts: string[] = [];
  let at = 0;
  let decoded = false;
  for (let n = 0; n < lines.length; n++) {
    let text = lines[n];
    const bare = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (bare.length > 0 && !/\s/.test(bare) && /^[A-Za-z0-9+/=]+$/.test(bare)) {
      const declaration = Buffer.from(bare, 'base64').toString('utf8');
      if (/^\s*(func|type|var|extern)\b/.test(declaration)) {
        text = declaration.replace(/\r?\n/g, ' ');
        decoded = true;
      }
    }
    starts[n] = at;
    parts.push(text);
    at += text.length + 1;
  }
  const text = decoded ? parts.join('\n') : source;
  // Asked in offset order (token after token): the line asked last, or the next, is checked first.
  let last = 1;
  const holds = (line: number, offset: number) => starts[line - 1] <= offset && (line >= starts.length || offset < starts[line]);
  const lineOf = (offset: number): number => {
    if (holds(last, offset)) return last;
    if (last < starts.length && holds(last + 1, offset)) return ++last;
    return (last = lowerBound(1, starts.length, (i) => starts[i] <= offset));
  };
  return { text, decoded, lineOf };
}
