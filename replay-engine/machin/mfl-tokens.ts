// A tokenizer for machin's `.mfl` source (SPEC.md §2-3): identifiers, numbers, strings, operators,
// `//` comments. Enough to find functions, assignments and `go` statements; not a full parser.
// A line without whitespace is a base64-packed declaration (`machin pack`): it is decoded first
// and its tokens keep that line number.

export type TokenKind = 'ident' | 'number' | 'string' | 'op';

export interface Token {
  kind: TokenKind;
  text: string;
  /** 1-based line in the source file. */
  line: number;
}

const OPERATORS = ['...', ':=', '<-', '<<', '>>', '==', '!=', '<=', '>=', '&&', '||'];

export function tokenizeMfl(source: string): Token[] {
  const tokens: Token[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  for (let n = 0; n < lines.length; n++) {
    let text = lines[n];
    if (text.length > 0 && !/\s/.test(text) && /^[A-Za-z0-9+/=]+$/.test(text)) {
      const decoded = Buffer.from(text, 'base64').toString('utf8');
      if (/^\s*(func|type|var|extern)\b/.test(decoded)) text = decoded;
    }
    tokenizeLine(text, n + 1, tokens);
  }
  return tokens;
}

function tokenizeLine(text: string, line: number, out: Token[]): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      return;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j])) j++;
      out.push({ kind: 'ident', text: text.slice(i, j), line });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[0-9A-Za-z_.]/.test(text[j])) {
        // `1..` never occurs; stop before `...` (a spread after a number is not valid anyway)
        if (text[j] === '.' && text[j + 1] === '.') break;
        if ((text[j] === '+' || text[j] === '-') && /[eE]/.test(text[j - 1]) && !/^0[xX]/.test(text.slice(i, j))) j++;
        j++;
      }
      out.push({ kind: 'number', text: text.slice(i, j), line });
      i = j;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' && c === '"' ? 2 : 1;
      out.push({ kind: 'string', text: text.slice(i, Math.min(j + 1, text.length)), line });
      i = j + 1;
    } else if (c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      out.push({ kind: 'string', text: text.slice(i, Math.min(j + 1, text.length)), line });
      i = j + 1;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i)) ?? c;
      out.push({ kind: 'op', text: op, line });
      i += op.length;
    }
  }
}
