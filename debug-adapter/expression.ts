// A small, safe expression language for breakpoint conditions, log points and the debug console:
// `idx > 10`, `kind == "redis@1" && thread == "0.2"`, `!(a == b) || history(x)`. Parsed once into
// a tree and evaluated against a scope; never `eval` or `Function`. Values are the strings
// machin prints, so comparisons treat two numeric-looking operands as numbers.

export type Value = string | number | boolean | undefined;

export type Expr =
  | { type: 'literal'; value: Value }
  | { type: 'name'; name: string }
  | { type: 'call'; name: string; args: Expr[] }
  | { type: 'unary'; op: '!' | '-'; operand: Expr }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr };

type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/** Resolves names (and function calls, for the debug console) while evaluating. */
export interface Scope {
  lookup(name: string): Value;
  call?(name: string, args: Expr[]): Value;
}

export class ExpressionError extends Error {
  constructor(message: string, readonly column: number) {
    super(message);
  }
}

/**
 * How deeply an expression may nest: parentheses, `!` and `-`, calls, and operators chained
 * (`a + a + …` is one level per `+`). The parser, the evaluator and every walk over the tree
 * recurse once per level, so a condition nested thousands deep would otherwise end in the
 * engine's "Maximum call stack size exceeded"; it is refused with this limit instead.
 */
export const MAX_EXPRESSION_DEPTH = 200;

const PRECEDENCE: Record<BinaryOp, number> = {
  '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6,
};

interface Token {
  kind: 'num' | 'str' | 'name' | 'op' | 'end';
  text: string;
  value?: Value;
  at: number;
}

const OPERATORS = ['||', '&&', '==', '!=', '<=', '>=', '===', '!==', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', ','];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    const at = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)/.exec(src.slice(i))!;
      out.push({ kind: 'num', text: m[0], value: Number(m[0]), at });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) {
          const e = src[i + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          i += 2;
        } else s += src[i++];
      }
      if (i >= src.length) throw new ExpressionError(`unterminated string starting at column ${at + 1}`, at);
      i++;
      out.push({ kind: 'str', text: src.slice(at, i), value: s, at });
      continue;
    }
    // Names may hold dots and @ so that `sched.select@1` or `io.clock` read as one name.
    const name = /^[A-Za-z_$][A-Za-z0-9_$.@]*/.exec(src.slice(i));
    if (name) {
      out.push({ kind: 'name', text: name[0], at });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.filter((o) => src.startsWith(o, i)).sort((a, b) => b.length - a.length)[0];
    if (!op) throw new ExpressionError(`unexpected '${c}' at column ${at + 1}`, at);
    out.push({ kind: 'op', text: op === '===' ? '==' : op === '!==' ? '!=' : op, at });
    i += op.length;
  }
  out.push({ kind: 'end', text: '', at: src.length });
  return out;
}

/** Parse an expression; throws ExpressionError with the column of the problem. */
export function parseExpression(src: string): Expr {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const expectOp = (text: string) => {
    const t = next();
    if (t.kind !== 'op' || t.text !== text) throw new ExpressionError(`expected '${text}' at column ${t.at + 1}`, t.at);
  };
  // The depth of each node made, and of the parser's own recursion (checked before it recurses).
  const depths = new WeakMap<Expr, number>();
  let level = 0;
  const tooDeep = (at: number) =>
    new ExpressionError(
      `the expression nests too deeply at column ${at + 1}: at most ${MAX_EXPRESSION_DEPTH} levels of parentheses, \`!\` or \`-\`, calls and chained operators; split it or simplify it`,
      at,
    );
  const made = (e: Expr, at: number, ...parts: Expr[]): Expr => {
    let d = 0;
    for (const p of parts) d = Math.max(d, depths.get(p) ?? 1);
    if (d + 1 > MAX_EXPRESSION_DEPTH) throw tooDeep(at);
    depths.set(e, d + 1);
    return e;
  };
  const deeper = <T>(at: number, f: () => T): T => {
    if (++level > MAX_EXPRESSION_DEPTH) throw tooDeep(at);
    try {
      return f();
    } finally {
      level--;
    }
  };

  function primary(): Expr {
    const t = next();
    if (t.kind === 'num' || t.kind === 'str') return { type: 'literal', value: t.value };
    if (t.kind === 'name') {
      if (t.text === 'true') return { type: 'literal', value: true };
      if (t.text === 'false') return { type: 'literal', value: false };
      if (t.text === 'undefined' || t.text === 'null') return { type: 'literal', value: undefined };
      if (peek().kind === 'op' && peek().text === '(') {
        next();
        const args: Expr[] = [];
        if (!(peek().kind === 'op' && peek().text === ')')) {
          for (;;) {
            args.push(deeper(t.at, () => binary(0)));
            if (peek().kind === 'op' && peek().text === ',') { next(); continue; }
            break;
          }
        }
        expectOp(')');
        return made({ type: 'call', name: t.text, args }, t.at, ...args);
      }
      return { type: 'name', name: t.text };
    }
    if (t.kind === 'op' && t.text === '(') {
      const e = deeper(t.at, () => binary(0));
      expectOp(')');
      return e;
    }
    if (t.kind === 'op' && (t.text === '!' || t.text === '-')) {
      const operand = deeper(t.at, primary);
      return made({ type: 'unary', op: t.text, operand }, t.at, operand);
    }
    if (t.kind === 'end') throw new ExpressionError('the expression ends too early', t.at);
    throw new ExpressionError(`unexpected '${t.text}' at column ${t.at + 1}`, t.at);
  }

  function binary(minPrec: number): Expr {
    let left = primary();
    for (;;) {
      const t = peek();
      if (t.kind !== 'op' || !(t.text in PRECEDENCE)) break;
      const prec = PRECEDENCE[t.text as BinaryOp];
      if (prec <= minPrec) break;
      next();
      const right = deeper(t.at, () => binary(prec));
      left = made({ type: 'binary', op: t.text as BinaryOp, left, right }, t.at, left, right);
    }
    return left;
  }

  const e = binary(0);
  const rest = peek();
  if (rest.kind !== 'end') throw new ExpressionError(`unexpected '${rest.text}' at column ${rest.at + 1}`, rest.at);
  return e;
}

/**
 * A text longer than this is compared as text: a double holds no more digits (a 4,096-byte
 * effect's hex, or a 4-million-digit RESP number, was tested as a number by every term of a
 * condition, 195 terms in a row: issue 31, 4).
 */
const NUMBER_TEXT_LIMIT = 400;

function asNumber(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string' || v.length > NUMBER_TEXT_LIMIT) return undefined;
  const t = v.trim();
  // One way to match each number (linear time): `[0-9]*\.?[0-9]+` backtracked quadratically over a run of digits.
  if (t !== '' && /^[-+]?(?:0x[0-9a-f]+|(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:e[-+]?[0-9]+)?)$/i.test(t)) return Number(t);
  return undefined;
}

export function truthy(v: Value): boolean {
  if (v === undefined || v === false || v === 0 || v === '') return false;
  return true;
}

function compare(op: BinaryOp, a: Value, b: Value): boolean {
  if (a === undefined || b === undefined) {
    if (op === '==') return a === b;
    if (op === '!=') return a !== b;
    return false;
  }
  const x = asNumber(a);
  const y = asNumber(b);
  const numeric = x !== undefined && y !== undefined && typeof a !== 'boolean' && typeof b !== 'boolean';
  const l: string | number = numeric ? x! : String(a);
  const r: string | number = numeric ? y! : String(b);
  switch (op) {
    case '==': return l === r;
    case '!=': return l !== r;
    case '<': return l < r;
    case '<=': return l <= r;
    case '>': return l > r;
    default: return l >= r;
  }
}

export function evaluate(e: Expr, scope: Scope): Value {
  switch (e.type) {
    case 'literal': return e.value;
    case 'name': return scope.lookup(e.name);
    case 'call':
      if (!scope.call) throw new ExpressionError(`${e.name}(...) cannot be used here`, 0);
      return scope.call(e.name, e.args);
    case 'unary': {
      const v = evaluate(e.operand, scope);
      if (e.op === '!') return !truthy(v);
      const n = asNumber(v);
      return n === undefined ? undefined : -n;
    }
    case 'binary': {
      if (e.op === '||') { const l = evaluate(e.left, scope); return truthy(l) ? l : evaluate(e.right, scope); }
      if (e.op === '&&') { const l = evaluate(e.left, scope); return truthy(l) ? evaluate(e.right, scope) : l; }
      const a = evaluate(e.left, scope);
      const b = evaluate(e.right, scope);
      if (e.op === '==' || e.op === '!=' || e.op === '<' || e.op === '<=' || e.op === '>' || e.op === '>=') return compare(e.op, a, b);
      const x = asNumber(a);
      const y = asNumber(b);
      if (e.op === '+' && (x === undefined || y === undefined)) {
        return a === undefined || b === undefined ? undefined : String(a) + String(b);
      }
      if (x === undefined || y === undefined) return undefined;
      switch (e.op) {
        case '+': return x + y;
        case '-': return x - y;
        case '*': return x * y;
        case '/': return y === 0 ? undefined : x / y;
        default: return y === 0 ? undefined : x % y;
      }
    }
  }
}

/** Names an expression reads (so a condition over watched variables can say which it needs). */
export function namesIn(e: Expr, out = new Set<string>()): Set<string> {
  if (e.type === 'name') out.add(e.name);
  else if (e.type === 'call') e.args.forEach((a) => namesIn(a, out));
  else if (e.type === 'unary') namesIn(e.operand, out);
  else if (e.type === 'binary') { namesIn(e.left, out); namesIn(e.right, out); }
  return out;
}
