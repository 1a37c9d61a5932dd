// The op words of one statement (model/program-words.ts), from the program's own tokens: a
// `select` is one op; receives (`<-` as a prefix) are operands, so they run first, in text order;
// then the statement's own op (a send: `<-` after an operand; `close(`, `print(`, `println(`),
// which takes their values. `op` when the text shows none (e.g. a `for v := range ch` receive,
// which machin does not probe per iteration, so the statement before it is its performer).
import { OP_WORDS } from '../../model/program-words';
import type { MflToken } from './mfl-lexer';

const WORD = new Map<string, number>(OP_WORDS.map((w, i) => [w, i]));

/** The ops of the statement made of `tokens[from..to)`. */
export function statementOps(tokens: readonly MflToken[], from: number, to: number): number[] {
  if (from < to && tokens[from].kind === 'keyword' && tokens[from].text === 'select') return [WORD.get('select')!];
  const first: number[] = [];
  const last: number[] = [];
  for (let i = from; i < to; i++) {
    const tok = tokens[i];
    const prev = i > from ? tokens[i - 1] : undefined;
    if (tok.kind === 'op' && tok.text === '<-') {
      const afterOperand = prev !== undefined && isOperandEnd(prev);
      (afterOperand ? last : first).push(WORD.get(afterOperand ? 'send' : 'recv')!);
    } else if (tok.kind === 'ident' && i + 1 < to && tokens[i + 1].text === '(' && (prev === undefined || prev.text !== '.')) {
      if (tok.text === 'close' || tok.text === 'print' || tok.text === 'println') last.push(WORD.get(tok.text)!);
    }
  }
  return [...first, ...last];
}

function isOperandEnd(t: MflToken): boolean {
  if (t.kind === 'ident' || t.kind === 'int' || t.kind === 'float' || t.kind === 'string') return true;
  if (t.kind === 'keyword') return t.text === 'true' || t.text === 'false' || t.text === 'nil';
  return t.text === ')' || t.text === ']';
}
