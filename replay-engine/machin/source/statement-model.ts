// The statements of a `.mfl` program, found by following machin 0.137.0's own grammar
// (parser.go: parseStmt, parseIf, parseFor, parseSelect, precedence climbing for expressions).
// machin needs no separator between statements (`{ i := 1  for i <= n { out <- i  i = i + 1 } }`),
// so where a statement ends is only known by parsing its expressions; a statement is therefore an
// offset range, never a line. A program this parser cannot follow throws MflSyntaxError: the
// instrumenter then writes no copy at all rather than a wrong one.
import { lexMfl, MflSyntaxError, type LexProblems, type MflToken } from './mfl-lexer';

export type StatementKind = 'entry' | 'statement' | 'return' | 'exit';
export type StatementOp = 'receive' | 'send' | 'select' | 'print';

export interface MflStatement {
  /** Statement number, from 1, unique in the program. */
  id: number;
  kind: StatementKind;
  /** Index into MflStatementModel.functions. */
  fn: number;
  /** Source offsets: the statement's text (entry: the `func` keyword to the body's `{`; exit: the body's `}`). */
  start: number;
  end: number;
  /** A `go` statement: running it starts the goroutine's next child. */
  spawns?: true;
  /** The statement after it in the same block (its body, a case's body), if any. */
  next?: number;
  /** A loop (`for`, `while`): its body runs once per iteration after it. */
  loop?: true;
  /** An `if` (with any `else if` and `else`): which of its blocks runs, if any, is not fixed by the text. */
  branches?: true;
  /**
   * The schedule op a simple statement (or a `select`) waits its turn for: a receive (`x := <-ch`,
   * `println(str(<-done))`: the receive comes first), a send, a select, a print. Absent when it does
   * none (or is an `if`/`for`/`while`, whose ops are its body's statements').
   */
  op?: StatementOp;
  /**
   * For a return: how many calls of the program's functions its values make, each of which
   * enters a frame before this one is left; null when that is not fixed by the text (a call
   * through a variable, `&&`/`||` around a call).
   */
  returnCalls: number | null;
  /**
   * What running a simple statement, testing a loop's condition (once per iteration) or testing an
   * `if`'s conditions (all of its `else if`s' too: they run as the `if` does) can do
   * besides computing: `none`, nothing (names, literals, comparisons, logic, no call, index,
   * division, op or allocation: it cannot panic, block, or run another statement); `arith`, only
   * `+`, `-` or `*` besides, which panic on overflow in a `--safe` build; absent, anything.
   */
  effects?: 'none' | 'arith';
  /** A loop: just past its body's `{`, at its `}`, and whether the body's last statement leaves it (a return, break or continue). */
  body?: { open: number; close: number; leaves: boolean };
  /** A `continue`: the loop it goes back to. */
  continues?: number;
  /**
   * A simple statement whose only effect besides computing is one direct call of a top-level
   * function (`v := scale(i)`): the callee's name, and what the rest of the statement (its
   * arguments included) can do, as `effects` says.
   */
  call?: { callee: string; effects: 'none' | 'arith' };
}

export interface MflFunctionBody {
  /** `main`, or `main.func1` for the first function literal inside main. */
  name: string;
  /** Index of the function this literal is written in, or null for a top-level function. */
  parent: number | null;
  /** 0 for a top-level function, 1 for a literal inside it, and so on. */
  depth: number;
  /** Offsets of the `func` keyword, the body's `{` and its `}`. */
  funcStart: number;
  bodyOpen: number;
  bodyClose: number;
  entry: number;
  /** The exit statement (the body's `}`), or null when the body ends with a return. */
  exit: number | null;
  /** Its parameters, in order (not named results). */
  params: string[];
}

export interface MflStatementModel {
  functions: MflFunctionBody[];
  /** Indexed by id - 1. */
  statements: MflStatement[];
  /** Every identifier the program spells, for choosing names that cannot collide. */
  identifiers: Set<string>;
  /**
   * The names a `select` case binds (`case r := <-ch:`, `case v, ok := <-ch:`), with the offset
   * just past the case's `:` (where its body starts), and those a `for ... range` binds (`for v :=
   * range ch {`, `for i, x := range xs {`), with the offset just past the body's `{`. machin's
   * `--print` probes neither, so the instrumenter copies them there.
   */
  caseBindings: Array<{ fn: number; at: number; names: string[] }>;
  /** How many times each top-level function's name is spelled outside its declaration (calls, `go`, values). */
  references: Map<string, number>;
  /** Every name the program declares (functions, types) or binds in a function (parameters, `:=`, `var`, bindings of loops and cases). */
  bindings: Set<string>;
}

/** Operators and punctuation that cannot panic, block, call or allocate (`+` of strings allocates, but cannot fail). */
const PURE_OPS = new Set(['=', ':=', ',', '==', '!=', '<', '<=', '>', '>=', '&&', '||', '!']);

const PRECEDENCE: Record<string, number> = {
  '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4,
  '+': 5, '-': 5, '|': 5, '^': 5, '*': 6, '/': 6, '%': 6, '<<': 6, '>>': 6, '&': 6,
};

/** A file in `machin pack`'s distribution form: every non-empty line is base64, no whitespace. */
export function isPackedSource(src: string): boolean {
  const lines = src.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.length > 0 && lines.every((l) => !/[ \t]/.test(l));
}

/** The deepest nesting of statements and expressions the instrumenter reads (docs/source-level.md). */
export const MAX_PROGRAM_NESTING = 200;

/** `lexed`: the tokens of `src` from a lenient lexing (the program model lexes once), with its first error. */
export function parseStatements(src: string, lexed?: { tokens: MflToken[]; problems: LexProblems }): MflStatementModel {
  if (isPackedSource(src)) {
    throw new MflSyntaxError(0, 'this program is in machin pack form (base64 lines); open its readable .mfl source instead');
  }
  if (lexed?.problems.error) throw lexed.problems.error;
  return new StatementParser(lexed?.tokens ?? lexMfl(src)).file();
}

/** The calls a return's values make, counted while they are parsed. */
interface CallCount {
  calls: number;
  certain: boolean;
  shortCircuit: boolean;
}

class StatementParser {
  private pos = 0;
  private readonly functions: MflFunctionBody[] = [];
  private readonly statements: MflStatement[] = [];
  private readonly structs = new Set<string>();
  private readonly declared = new Set<string>();
  private readonly identifiers = new Set<string>();
  private readonly caseBindings: MflStatementModel['caseBindings'] = [];
  /** Per function being parsed (innermost last): the names it binds. */
  private readonly bound: Array<Set<string>> = [];
  private counting: CallCount | null = null;
  private literals = new Map<number, number>();
  /** How many statements and expressions the current token is inside (enter()). */
  private nesting = 0;
  /** The loops the current token is inside, in the function being parsed (innermost last). */
  private loops: MflStatement[] = [];
  /** The `break` and `continue` statements. */
  private readonly jumps = new Set<number>();
  /** MflStatementModel.references. */
  private readonly references = new Map<string, number>();
  /** MflStatementModel.bindings. */
  private readonly bindings = new Set<string>();

  constructor(private readonly toks: MflToken[]) {
    // machin parses type declarations first so that `T{` is known to open a struct literal.
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (t.kind === 'ident') this.identifiers.add(t.text);
      if (t.kind === 'keyword' && (t.text === 'type' || t.text === 'func') && toks[i + 1]?.kind === 'ident') {
        (t.text === 'type' ? this.structs : this.declared).add(toks[i + 1].text);
      }
    }
    // extern cstructs are struct types too (`extern "c" { cstruct P { ... } }`).
    for (let i = 0; i + 1 < toks.length; i++) {
      if (toks[i].text === 'cstruct' && toks[i + 1].kind === 'ident') this.structs.add(toks[i + 1].text);
    }
  }

  file(): MflStatementModel {
    while (this.peek().kind !== 'eof') {
      const t = this.peek();
      if (t.text === ';') this.next();
      else if (t.kind === 'keyword' && (t.text === 'type' || t.text === 'extern')) this.skipToBalancedBrace();
      else if (t.kind === 'keyword' && t.text === 'var') {
        this.next();
        this.expect('ident');
        this.expectText('=');
        this.expr();
      } else if (t.kind === 'keyword' && (t.text === 'func' || t.text === 'export')) {
        if (t.text === 'export') this.next();
        this.funcDecl();
      } else throw this.error(t, `expected a declaration (func, type, var, extern), found ${describe(t)}`);
    }
    return { functions: this.functions, statements: this.statements, identifiers: this.identifiers, caseBindings: this.caseBindings, references: this.references, bindings: new Set([...this.bindings, ...this.declared, ...this.structs]) };
  }

  // ---- tokens ----

  private peek(ahead = 0): MflToken {
    return this.toks[Math.min(this.pos + ahead, this.toks.length - 1)];
  }

  private next(): MflToken {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private at(text: string): boolean {
    const t = this.peek();
    return (t.kind === 'punct' || t.kind === 'op' || t.kind === 'keyword') && t.text === text;
  }

  private expectText(text: string): MflToken {
    if (!this.at(text)) throw this.error(this.peek(), `expected \`${text}\`, found ${describe(this.peek())}`);
    return this.next();
  }

  private expect(kind: 'ident'): MflToken {
    if (this.peek().kind !== kind) throw this.error(this.peek(), `expected a name, found ${describe(this.peek())}`);
    return this.next();
  }

  private lastEnd(): number {
    return this.toks[this.pos - 1]?.end ?? 0;
  }

  private error(t: MflToken, reason: string): MflSyntaxError {
    return new MflSyntaxError(t.start, reason);
  }

  private skipToBalancedBrace(): void {
    while (!this.at('{')) {
      if (this.peek().kind === 'eof') throw this.error(this.peek(), 'expected `{`, found the end of the file');
      this.next();
    }
    this.skipBalanced();
  }

  /** Skips a bracketed group starting at the current token, function literals included. */
  private skipBalanced(): void {
    const open = this.next();
    const close = { '(': ')', '[': ']', '{': '}' }[open.text];
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.kind === 'eof') throw this.error(open, `\`${open.text}\` is never closed`);
      if (t.text === open.text && t.kind === 'punct') depth++;
      else if (t.text === close && t.kind === 'punct') depth--;
    }
  }

  private add(kind: StatementKind, fn: number, start: number, end: number, returnCalls: number | null = null): MflStatement {
    const s: MflStatement = { id: this.statements.length + 1, kind, fn, start, end, returnCalls };
    this.statements.push(s);
    return s;
  }

  // ---- functions and blocks ----

  private funcDecl(): void {
    const func = this.expectText('func');
    const name = this.expect('ident').text;
    const params = this.paramList();
    const args = [...params];
    if (this.at('(')) for (const r of this.paramList()) params.add(r);
    // contract clauses: `requires EXPR` / `ensures EXPR`
    while (this.peek().kind === 'ident' && (this.peek().text === 'requires' || this.peek().text === 'ensures')) {
      this.next();
      this.expr();
    }
    this.functionBody(name, null, func.start, params, args);
  }

  private paramList(): Set<string> {
    const names = new Set<string>();
    this.expectText('(');
    while (!this.at(')')) {
      names.add(this.expect('ident').text);
      if (this.at('...')) this.next();
      if (this.at(',')) this.next();
      else break;
    }
    this.expectText(')');
    return names;
  }

  /** `params`: every name the signature binds (results too); `args`: the parameters alone. */
  private functionBody(name: string, parent: number | null, funcStart: number, params: Set<string>, args = [...params]): number {
    const open = this.expectText('{');
    const index = this.functions.length;
    const body: MflFunctionBody = {
      name, parent, depth: parent === null ? 0 : this.functions[parent].depth + 1,
      funcStart, bodyOpen: open.start, bodyClose: -1, entry: 0, exit: null, params: args,
    };
    this.functions.push(body);
    body.entry = this.add('entry', index, funcStart, open.end).id;
    this.bound.push(params);
    for (const p of params) this.bindings.add(p);
    const saved = this.counting;
    this.counting = null; // a literal's calls happen when it is called, not when it is written
    const savedLoops = this.loops;
    this.loops = []; // a literal's `continue` is of its own loops
    let last: MflStatement | null = null;
    while (!this.at('}')) {
      if (this.peek().kind === 'eof') throw this.error(open, 'this function body is never closed');
      last = this.follow(last, this.statement(index));
      while (this.at(';')) this.next();
    }
    const close = this.next();
    this.counting = saved;
    this.loops = savedLoops;
    this.bound.pop();
    body.bodyClose = close.start;
    if (last?.kind !== 'return') body.exit = this.add('exit', index, close.start, close.end).id;
    return index;
  }

  /** A `{ ... }` block: where its inside starts and its `}` is, and its last statement. */
  private block(fn: number): { open: number; close: number; last: MflStatement | null } {
    const open = this.expectText('{');
    let last: MflStatement | null = null;
    while (!this.at('}')) {
      if (this.peek().kind === 'eof') throw this.error(open, 'this block is never closed');
      last = this.follow(last, this.statement(fn));
      while (this.at(';')) this.next();
    }
    const close = this.next();
    return { open: open.end, close: close.start, last };
  }

  /** A loop's body, parsed with the loop as the one its `continue`s go back to. */
  private loopBody(fn: number, loop: MflStatement): void {
    this.loops.push(loop);
    const { open, close, last } = this.block(fn);
    this.loops.pop();
    loop.body = { open, close, leaves: last !== null && (last.kind === 'return' || this.jumps.has(last.id)) };
  }

  /**
   * What toks[from, to) can do when run (MflStatement.effects). `allowCall`: one direct call of
   * the function of this name is let through (its effects are the callee's: MflStatement.call).
   */
  private effectsOf(from: number, to: number, allowCall?: string): 'none' | 'arith' | undefined {
    let arith = false;
    let allowed = false;
    for (let i = from; i < to; i++) {
      const t = this.toks[i];
      switch (t.kind) {
        case 'ident':
          if (this.toks[i + 1]?.text === '(' && i + 1 < to) {
            if (allowed || t.text !== allowCall) return undefined;
            allowed = true;
            i++; // its `(`
          }
          continue;
        case 'int':
        case 'float':
        case 'string':
          continue;
        case 'keyword':
          if (t.text === 'true' || t.text === 'false' || t.text === 'nil' || t.text === 'var') continue;
          return undefined;
        case 'op':
        case 'punct':
          if (PURE_OPS.has(t.text)) continue;
          if (t.text === '+' || t.text === '-' || t.text === '*') {
            arith = true;
            continue;
          }
          // a grouping `(` (not a call of what comes before it), and any `)`
          if (t.text === ')') continue;
          if (t.text === '(') {
            const before = i > from ? this.toks[i - 1] : null;
            if (before && (before.kind === 'ident' || before.text === ')' || before.text === ']' || before.text === '}')) return undefined;
            continue;
          }
          // a division or remainder by a non-zero integer literal cannot fail (`-1`, the one that
          // overflows, is `-` then `1`, so not this)
          if ((t.text === '/' || t.text === '%') && i + 1 < to && this.toks[i + 1].kind === 'int' && Number(this.toks[i + 1].text) !== 0) {
            i++;
            continue;
          }
          return undefined;
        default:
          return undefined;
      }
    }
    if (allowCall !== undefined && !allowed) return undefined;
    return arith ? 'arith' : 'none';
  }

  /** `s` comes after `prev` in one block. */
  private follow(prev: MflStatement | null, s: MflStatement): MflStatement {
    if (prev) prev.next = s.id;
    return s;
  }

  /** The op a simple statement whose tokens are toks[from, to) waits for: a receive or send first, else a print. */
  private opOf(from: number, to: number): StatementOp | undefined {
    let print = false;
    for (let i = from; i < to; i++) {
      const t = this.toks[i];
      if ((t.kind === 'op' || t.kind === 'punct') && t.text === '<-') {
        const before = i > from ? this.toks[i - 1] : null;
        const operand = before !== null && (before.kind === 'ident' || before.kind === 'int' || before.kind === 'float' || before.kind === 'string' || (before.kind === 'punct' && (before.text === ')' || before.text === ']' || before.text === '}')));
        return operand ? 'send' : 'receive';
      }
      if (t.kind === 'ident' && (t.text === 'println' || t.text === 'print') && this.toks[i + 1]?.text === '(') print = true;
    }
    return print ? 'print' : undefined;
  }

  private bind(name: string): void {
    this.bound[this.bound.length - 1]?.add(name);
    this.bindings.add(name);
  }

  // ---- statements ----

  /** One statement at the current token; its number is taken before its parts are parsed. */
  private statement(fn: number): MflStatement {
    this.enter();
    try {
      return this.statementAt(fn);
    } finally {
      this.nesting--;
    }
  }

  private statementAt(fn: number): MflStatement {
    const t = this.peek();
    const from = this.pos;
    const s = this.add('statement', fn, t.start, t.end);
    let simple = true;
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'return':
          this.next();
          s.kind = 'return';
          if (!this.at('}') && !this.at(';')) {
            const count: CallCount = { calls: 0, certain: true, shortCircuit: false };
            this.counting = count;
            this.exprList();
            this.counting = null;
            s.returnCalls = count.certain && !(count.shortCircuit && count.calls > 0) ? count.calls : null;
          } else s.returnCalls = 0;
          break;
        case 'break':
          this.next();
          this.jumps.add(s.id);
          break;
        case 'continue':
          this.next();
          this.jumps.add(s.id);
          if (this.loops.length > 0) s.continues = this.loops[this.loops.length - 1].id;
          break;
        case 'if': {
          simple = false;
          s.branches = true;
          const effects = this.ifChain(fn);
          if (effects) s.effects = effects;
          break;
        }
        case 'while': {
          simple = false;
          s.loop = true;
          this.next();
          const test = this.pos;
          this.expr();
          const effects = this.effectsOf(test, this.pos);
          if (effects) s.effects = effects;
          this.loopBody(fn, s);
          break;
        }
        case 'for':
          simple = false;
          s.loop = true;
          this.forLoop(fn, s);
          break;
        case 'arena':
          simple = false;
          this.next();
          this.block(fn);
          break;
        case 'go':
          this.next();
          this.postfix();
          s.spawns = true;
          break;
        case 'select':
          simple = false;
          s.op = 'select';
          this.select(fn);
          break;
        case 'var':
          this.next();
          this.bind(this.expect('ident').text);
          this.expectText('=');
          this.expr();
          break;
        default:
          this.simpleStatement();
      }
    } else this.simpleStatement();
    s.end = this.lastEnd();
    if (simple) {
      const op = this.opOf(from, this.pos);
      if (op) s.op = op;
      // (a return's: of the values it returns)
      const effects = s.kind === 'statement' && !s.spawns ? this.effectsOf(from, this.pos) : s.kind === 'return' ? this.effectsOf(from + 1, this.pos) : undefined;
      if (effects) s.effects = effects;
      if (s.kind === 'statement' && !s.spawns && !op && !effects) {
        const callee = this.onlyCall(from, this.pos);
        const rest = callee === null ? undefined : this.effectsOf(from, this.pos, callee);
        if (callee !== null && rest) s.call = { callee, effects: rest };
      }
    }
    return s;
  }

  /** The one top-level function toks[from, to) calls by name, when it calls exactly one thing (else null). */
  private onlyCall(from: number, to: number): string | null {
    let callee: string | null = null;
    for (let i = from; i + 1 < to; i++) {
      if (this.toks[i + 1].text !== '(' || this.toks[i].kind !== 'ident') continue;
      if (callee !== null || !this.declared.has(this.toks[i].text) || this.bound[this.bound.length - 1]?.has(this.toks[i].text)) return null;
      callee = this.toks[i].text;
    }
    return callee;
  }

  private simpleStatement(): void {
    if (this.peek().kind === 'ident' && this.peek(1).text === ':=') {
      this.bind(this.next().text);
      this.next();
      this.expr();
      return;
    }
    const first = this.peek();
    this.exprForStatement();
    if (this.at(',')) {
      if (first.kind === 'ident') this.bind(first.text);
      while (this.at(',')) {
        this.next();
        const t = this.peek();
        this.exprForStatement();
        if (t.kind === 'ident') this.bind(t.text);
      }
      if (!this.at(':=') && !this.at('=')) throw this.error(this.peek(), `expected := or = after a list of names, found ${describe(this.peek())}`);
      this.next();
      this.exprList();
    } else if (this.at('<-') || this.at('=')) {
      this.next();
      this.expr();
    }
  }

  /** `if c {..} else if d {..} else {..}`: one statement; an `else if` is part of it, as in machin's tree. */
  /** An `if` and its `else if`s and `else`: what testing its conditions can do (`effects`: all of them, as one). */
  private ifChain(fn: number): 'none' | 'arith' | undefined {
    this.expectText('if');
    const test = this.pos;
    this.expr();
    let effects = this.effectsOf(test, this.pos);
    this.block(fn);
    if (this.at('else')) {
      this.next();
      if (this.at('if')) {
        const more = this.ifChain(fn);
        effects = effects === undefined || more === undefined ? undefined : effects === 'arith' || more === 'arith' ? 'arith' : 'none';
      } else this.block(fn);
    }
    return effects;
  }

  private forLoop(fn: number, loop: MflStatement): void {
    this.expectText('for');
    if (this.at('{')) {
      loop.effects = 'none';
      return this.loopBody(fn, loop);
    }
    if (this.peek().kind === 'ident' && (this.peek(1).text === ':=' || this.peek(1).text === ',')) {
      const names = [this.next().text];
      if (this.at(',')) {
        this.next();
        names.push(this.expect('ident').text);
      }
      for (const n of names) this.bind(n);
      this.expectText(':=');
      this.expectText('range');
      this.expr();
      // The range-bound names, copied where the body starts (each iteration), as a select case's.
      const bound = names.filter((n) => n !== '_');
      if (bound.length && this.at('{')) this.caseBindings.push({ fn, at: this.peek().end, names: bound });
      // (a range over a channel receives, an op, at each iteration: never `effects`)
      return this.loopBody(fn, loop);
    }
    const test = this.pos;
    this.expr();
    const effects = this.effectsOf(test, this.pos);
    if (effects) loop.effects = effects;
    this.loopBody(fn, loop);
  }

  private select(fn: number): void {
    this.expectText('select');
    this.expectText('{');
    while (!this.at('}')) {
      const kw = this.peek();
      if (kw.kind === 'eof') throw this.error(kw, 'this select is never closed');
      const names: string[] = [];
      if (kw.text === 'default') {
        this.next();
      } else if (kw.text === 'case') {
        this.next();
        if (this.at('<-')) {
          this.next();
          this.expr();
        } else if (this.peek().kind === 'ident' && (this.peek(1).text === ':=' || this.peek(1).text === ',')) {
          names.push(this.next().text);
          if (this.at(',')) {
            this.next();
            names.push(this.expect('ident').text);
          }
          for (const n of names) this.bind(n);
          this.expectText(':=');
          this.expectText('<-');
          this.expr();
        } else {
          this.exprForStatement();
          this.expectText('<-');
          this.expr();
        }
      } else throw this.error(kw, `select: expected \`case\` or \`default\`, found ${describe(kw)}`);
      const colon = this.expectText(':');
      const bound = names.filter((n) => n !== '_');
      if (bound.length) this.caseBindings.push({ fn, at: colon.end, names: bound });
      for (;;) {
        const v = this.peek();
        if (v.text === 'case' || v.text === 'default' || v.text === '}' || v.kind === 'eof') break;
        this.statement(fn);
        while (this.at(';')) this.next();
      }
    }
    this.next();
  }

  // ---- expressions (only to find where they end, and the calls a return makes) ----

  private exprList(): void {
    this.expr();
    while (this.at(',')) {
      this.next();
      this.expr();
    }
  }

  private expr(): void {
    this.unary();
    this.binary(1);
  }

  /** A statement's leading expression stops before `<-`: it may be a send's channel. */
  private exprForStatement(): void {
    this.unary();
    if (!this.at('<-')) this.binary(1);
  }

  private binary(minPrec: number): void {
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op') return;
      // `x<-1` is `x < -1` in an expression (machin issue #208).
      const prec = t.text === '<-' ? PRECEDENCE['<'] : PRECEDENCE[t.text];
      if (prec === undefined || prec < minPrec) return;
      if ((t.text === '&&' || t.text === '||') && this.counting) this.counting.shortCircuit = true;
      this.next();
      this.unary();
      this.binary(prec + 1);
    }
  }

  private unary(): void {
    this.enter();
    try {
      const t = this.peek();
      if (t.kind === 'op' && (t.text === '-' || t.text === '!' || t.text === '^' || t.text === '<-')) {
        this.next();
        this.unary();
        return;
      }
      this.postfix();
    } finally {
      this.nesting--;
    }
  }

  /**
   * One level deeper (a statement, which may hold a block, or an expression, which may hold a
   * parenthesis, a call or a literal): past MAX_PROGRAM_NESTING the program is refused with the
   * place and the limit, before this parser's recursion runs out of stack.
   */
  private enter(): void {
    if (++this.nesting <= MAX_PROGRAM_NESTING) return;
    this.nesting = 0; // the error unwinds every level
    throw this.error(this.peek(), `the program nests too deeply here: more than ${MAX_PROGRAM_NESTING} levels of blocks and expressions inside one another, the most Frozen Run's instrumenter reads`);
  }

  private postfix(): void {
    this.primary();
    for (;;) {
      if (this.at('.')) {
        this.next();
        this.expect('ident');
      } else if (this.at('(')) {
        if (this.counting) this.counting.certain = false; // a call of a computed function value
        this.callArgs();
      } else if (this.at('[')) {
        this.next();
        if (!this.at(':')) this.expr();
        if (this.at(':')) {
          this.next();
          if (!this.at(']')) this.expr();
        }
        this.expectText(']');
      } else return;
    }
  }

  private primary(): void {
    const t = this.peek();
    switch (t.kind) {
      case 'int':
      case 'float':
      case 'string':
        this.next();
        return;
      case 'keyword':
        if (t.text === 'true' || t.text === 'false' || t.text === 'nil') {
          this.next();
          return;
        }
        if (t.text === 'make') {
          this.next();
          if (!this.at('(')) throw this.error(this.peek(), 'expected `(` after make');
          this.skipBalanced();
          return;
        }
        if (t.text === 'func') return this.funcLiteral();
        throw this.error(t, `unexpected keyword \`${t.text}\``);
      case 'ident':
        this.next();
        if (this.declared.has(t.text)) this.references.set(t.text, (this.references.get(t.text) ?? 0) + 1);
        if (this.at('(')) {
          this.countCall(t.text);
          this.callArgs();
        } else if (this.at('{') && this.structs.has(t.text)) this.structLiteral();
        return;
      case 'punct':
        if (t.text === '(') {
          this.next();
          this.expr();
          this.expectText(')');
          return;
        }
        if (t.text === '[') return this.sliceLiteral();
    }
    throw this.error(t, `unexpected ${describe(t)}`);
  }

  private countCall(callee: string): void {
    if (!this.counting) return;
    const local = this.bound[this.bound.length - 1]?.has(callee);
    if (local) this.counting.certain = false; // a function value held in a variable
    else if (this.declared.has(callee)) this.counting.calls++;
    // anything else is a builtin (println, len, str, ...): no frame of the program
  }

  private callArgs(): void {
    this.expectText('(');
    while (!this.at(')')) {
      if (this.peek().kind === 'eof') throw this.error(this.peek(), 'a call is never closed: add `)`');
      this.expr();
      if (this.at('...')) this.next();
      if (this.at(',')) this.next();
      else break;
    }
    this.expectText(')');
  }

  private structLiteral(): void {
    this.expectText('{');
    while (!this.at('}')) {
      if (this.peek().kind === 'ident' && this.peek(1).text === ':') {
        this.next();
        this.next();
      }
      this.expr();
      if (this.at(',')) this.next();
      else break;
    }
    this.expectText('}');
  }

  private sliceLiteral(): void {
    this.expectText('[');
    this.expectText(']');
    const elem = this.next();
    if (elem.kind !== 'ident' && !(elem.kind === 'keyword' && elem.text === 'func')) {
      throw this.error(elem, `a slice literal's element type must be a name, found ${describe(elem)}`);
    }
    this.expectText('{');
    while (!this.at('}')) {
      this.expr();
      if (this.at(',')) this.next();
      else break;
    }
    this.expectText('}');
  }

  private funcLiteral(): void {
    const func = this.expectText('func');
    const parent = this.currentFunction();
    const k = (this.literals.get(parent) ?? 0) + 1;
    this.literals.set(parent, k);
    const params = this.paramList();
    const name = `${this.functions[parent]?.name ?? 'global'}.func${k}`;
    this.functionBody(name, parent < 0 ? null : parent, func.start, params);
  }

  /** The innermost function whose body is open (the last one not yet closed). */
  private currentFunction(): number {
    for (let i = this.functions.length - 1; i >= 0; i--) if (this.functions[i].bodyClose < 0) return i;
    return -1;
  }
}

function describe(t: MflToken): string {
  return t.kind === 'eof' ? 'the end of the file' : `\`${t.text}\``;
}
