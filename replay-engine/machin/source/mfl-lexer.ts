// machin 0.137.0's lexer (lexer.go), rebuilt with positions: identifiers and keywords, integer and
// float literals (0x/0b/0o, `_` separators, exponents), `"` strings with escapes, `//` comments,
// operators and punctuation. machin has no raw strings, runes or block comments: a backquote or a
// quote is reported where it stands, as machin itself would refuse the file.
//
// With `lenient` (the program's labels and names, which must survive a file machin would refuse)
// nothing is thrown: the first error goes to `lenient.error`, a backquote or quote string becomes a
// string token, an unterminated `"` string ends at its line's end, an unknown character is an op.

export type MflTokenKind = 'ident' | 'keyword' | 'int' | 'float' | 'string' | 'op' | 'punct' | 'eof';

export interface MflToken {
  kind: MflTokenKind;
  text: string;
  /** UTF-16 offset of the first character in the source text. */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

/** The lexer's and the statement model's one error: where, and what is wrong there. */
export class MflSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'MflSyntaxError';
  }
}

export const MFL_KEYWORDS: ReadonlySet<string> = new Set([
  'func', 'return', 'if', 'else', 'while', 'for', 'true', 'false', 'nil', 'var', 'go', 'type', 'struct',
  'chan', 'make', 'map', 'range', 'arena', 'extern', 'export', 'break', 'continue', 'select',
]);

const TWO_CHAR_OPS = new Set(['==', '!=', '<=', '>=', '&&', '||', ':=', '<-', '<<', '>>']);
const PUNCT = new Set(['(', ')', '{', '}', ',', ';', '[', ']', '.', ':']);
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '%', '<', '>', '!', '=', '&', '|', '^']);

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isAlpha = (c: string): boolean => c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAlnum = (c: string): boolean => isAlpha(c) || isDigit(c);

/** Where a lenient lexing keeps its first error (null: none). */
export interface LexProblems {
  error: MflSyntaxError | null;
}

export function lexMfl(src: string, lenient?: LexProblems): MflToken[] {
  const out: MflToken[] = [];
  const fail = (err: MflSyntaxError): void => {
    if (!lenient) throw err;
    lenient.error ??= err;
  };
  let i = 0;
  const push = (kind: MflTokenKind, start: number, end: number): void => {
    out.push({ kind, text: src.slice(start, end), start, end });
  };
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (isDigit(c)) {
      const start = i;
      let float = false;
      if (c === '0' && /[xXbBoO]/.test(src[i + 1] ?? '')) {
        i += 2;
        while (i < src.length && isAlnum(src[i])) i++;
      } else {
        while (i < src.length && (isDigit(src[i]) || src[i] === '.' || src[i] === '_')) {
          if (src[i] === '.') float = true;
          i++;
        }
        if (src[i] === 'e' || src[i] === 'E') {
          let j = i + 1;
          if (src[j] === '+' || src[j] === '-') j++;
          if (isDigit(src[j] ?? '')) {
            float = true;
            i = j;
            while (i < src.length && (isDigit(src[i]) || src[i] === '_')) i++;
          }
        }
      }
      push(float ? 'float' : 'int', start, i);
    } else if (isAlpha(c)) {
      const start = i;
      while (i < src.length && isAlnum(src[i])) i++;
      push(MFL_KEYWORDS.has(src.slice(start, i)) ? 'keyword' : 'ident', start, i);
    } else if (c === '"') {
      const start = i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' && i + 1 < src.length ? 2 : 1;
      if (i >= src.length) {
        fail(new MflSyntaxError(start, 'unterminated string: add the closing `"`'));
        const eol = src.indexOf('\n', start);
        i = eol < 0 ? src.length : eol;
      } else i++;
      push('string', start, i);
    } else if (c === '`' || c === "'") {
      fail(new MflSyntaxError(i, `machin 0.137.0 has no ${c === '`' ? 'raw strings' : 'rune literals'}: write a "..." string`));
      const start = i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' && c === "'" ? 2 : 1;
      if (src[i] === c) i++;
      push('string', start, Math.min(i, src.length));
    } else if (src.startsWith('...', i)) {
      push('punct', i, i + 3);
      i += 3;
    } else if (TWO_CHAR_OPS.has(src.slice(i, i + 2))) {
      push('op', i, i + 2);
      i += 2;
    } else if (PUNCT.has(c)) {
      push('punct', i, i + 1);
      i++;
    } else if (ONE_CHAR_OPS.has(c)) {
      push('op', i, i + 1);
      i++;
    } else {
      fail(new MflSyntaxError(i, `unexpected character ${JSON.stringify(c)}`));
      push('op', i, i + 1);
      i++;
    }
  }
  out.push({ kind: 'eof', text: '', start: src.length, end: src.length });
  return out;
}

/** 1-based line and column (UTF-16 units) of an offset. */
export function positionOf(src: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
