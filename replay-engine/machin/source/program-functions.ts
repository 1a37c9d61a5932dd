// The functions of a machin program (with their lines),
// every variable each binds (for `machin replay --print`), and the `go` statements each executes,
// which name the goroutines of a trace: `0` is main; `0.k` runs the function of the k-th `go`
// statement its parent executes (machin numbers spawns per goroutine at run time, codegen.go
// `_cidx = ++mfl_spawn_ctr`), so `0.k` is known statically only while every `go` before it, and
// every call that spawns before it, runs exactly once: none in a loop or a branch.
//
// Read from the one lexer's tokens (mfl-lexer.ts, lenient: a file machin would refuse still gets
// its labels), seen here as words, numbers, strings and symbols with their file lines.
import type { MflToken } from './mfl-lexer';

/** A token as this reader sees it: keywords are words, punctuation is an op. */
interface Token {
  kind: 'ident' | 'number' | 'string' | 'op';
  text: string;
  /** 1-based line in the source file. */
  line: number;
}

export interface MflFunction {
  /** `worker`, or `main.func1` for the first function literal inside main (Go's naming). */
  name: string;
  /** 1-based line of its `func` keyword. */
  line: number;
  params: string[];
  /** Every name the function binds (parameters, results, `:=`, `=`, `var`, `for`, `case`), first binding first. */
  assigned: string[];
  /** What it spawns and calls, in source order; see SpawnEvent. */
  events: SpawnEvent[];
}

/**
 * `go f(...)` (target f, or null when it is not a plain function name), a call of a function of
 * the program (which may spawn on the caller's count), a function of the program used as a
 * value (`ref`: if it spawns, it may be called from anywhere), or a function literal that spawns
 * and may be called from anywhere (`opaque`). After a spawning `ref` or an `opaque`, nothing can
 * be known. `definite`: not inside a loop, a branch or a select case.
 */
export type SpawnEvent =
  | { kind: 'go'; target: string | null; line: number; definite: boolean }
  | { kind: 'call'; callee: string; line: number; definite: boolean }
  | { kind: 'ref'; callee: string; line: number }
  | { kind: 'opaque'; line: number };

/** What the program's functions tell: labels, assigned names, spawns. */
export interface ProgramFunctions {
  functions: Map<string, MflFunction>;
  /** Package globals (`var x = ...` at top level). */
  globals: string[];
}

const KEYWORDS = new Set([
  'func', 'return', 'if', 'else', 'while', 'for', 'range', 'true', 'false', 'nil', 'var', 'go', 'type',
  'struct', 'chan', 'make', 'map', 'arena', 'extern', 'export', 'break', 'continue', 'select', 'case', 'default',
]);
const CONTROL = new Set(['if', 'else', 'for', 'while', 'select']);

type BlockKind = 'control' | 'plain' | 'composite';

const KIND: Record<MflToken['kind'], Token['kind'] | null> = {
  ident: 'ident', keyword: 'ident', int: 'number', float: 'number', string: 'string', op: 'op', punct: 'op', eof: null,
};

/** The functions of the program lexed into `lexed`; `lineOf` gives an offset's line in the file. */
export function readProgramFunctions(lexed: MflToken[], lineOf: (offset: number) => number): ProgramFunctions {
  const tokens: Token[] = [];
  for (const t of lexed) {
    const kind = KIND[t.kind];
    if (kind) tokens.push({ kind, text: t.text, line: lineOf(t.start) });
  }
  const program: ProgramFunctions = { functions: new Map(), globals: [] };
  const structs = new Set<string>();
  const declared = new Set<string>();
  // Pre-pass: names of top-level functions and struct types.
  forEachTopLevel(tokens, (i) => {
    const t = tokens[i];
    if (t.text === 'func' && tokens[i + 1]?.kind === 'ident') declared.add(tokens[i + 1].text);
    if (t.text === 'type' && tokens[i + 1]?.kind === 'ident') structs.add(tokens[i + 1].text);
  });
  const parser = new BodyParser(tokens, structs, declared, program);
  forEachTopLevel(tokens, (i) => {
    const t = tokens[i];
    if (t.text === 'func' && tokens[i + 1]?.kind === 'ident') parser.topLevelFunction(i);
    else if (t.text === 'var' && tokens[i + 1]?.kind === 'ident') addOnce(program.globals, tokens[i + 1].text);
  });
  return program;
}

/** Every variable the program binds, each name once: the `--print` list. */
export function assignedVariables(program: ProgramFunctions): string[] {
  const names: string[] = [];
  for (const g of program.globals) addOnce(names, g);
  for (const fn of program.functions.values()) for (const n of fn.assigned) addOnce(names, n);
  return names;
}

/** The function goroutine `id` runs, when the source determines it. */
export function goroutineFunction(program: ProgramFunctions, id: string): MflFunction | undefined {
  const parts = id.split('.');
  if (parts[0] !== '0') return undefined;
  let fn = program.functions.get('main');
  for (let d = 1; d < parts.length && fn; d++) {
    const k = Number(parts[d]);
    const { targets } = spawnSequence(program, fn.name, new Set());
    const target = Number.isInteger(k) && k >= 1 && k <= targets.length ? targets[k - 1] : null;
    fn = target === null ? undefined : program.functions.get(target);
  }
  return fn;
}

/** Labels (function names) for the goroutine ids the source determines. */
export function goroutineLabels(program: ProgramFunctions, ids: Iterable<string>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const id of ids) {
    const fn = goroutineFunction(program, id);
    if (fn) labels.set(id, fn.name);
  }
  return labels;
}

/**
 * The functions a goroutine running `name` spawns, in spawn order, as far as that order is fixed
 * by the source; `complete` is false when a later spawn may exist but cannot be placed.
 */
export function spawnSequence(
  program: ProgramFunctions,
  name: string,
  visiting: Set<string>,
): { targets: Array<string | null>; complete: boolean } {
  const fn = program.functions.get(name);
  const targets: Array<string | null> = [];
  if (!fn || visiting.has(name)) return { targets, complete: false };
  visiting.add(name);
  try {
    for (const e of fn.events) {
      if (e.kind === 'opaque') return { targets, complete: false };
      if (e.kind === 'go') {
        if (!e.definite) return { targets, complete: false };
        targets.push(e.target);
        continue;
      }
      const inner = spawnSequence(program, e.callee, visiting);
      if (inner.targets.length === 0 && inner.complete) continue; // spawns nothing: harmless anywhere
      if (e.kind === 'ref' || !e.definite) return { targets, complete: false };
      for (const t of inner.targets) targets.push(t);
      if (!inner.complete) return { targets, complete: false };
    }
    return { targets, complete: true };
  } finally {
    visiting.delete(name);
  }
}

function forEachTopLevel(tokens: Token[], visit: (i: number) => void): void {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i].text;
    if (tokens[i].kind === 'op' && (t === '{' || t === '(' || t === '[')) depth++;
    else if (tokens[i].kind === 'op' && (t === '}' || t === ')' || t === ']')) depth = Math.max(0, depth - 1);
    else if (depth === 0 && tokens[i].kind === 'ident') visit(i);
  }
}

function addOnce(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

class BodyParser {
  constructor(
    private readonly tokens: Token[],
    private readonly structs: Set<string>,
    private readonly declared: Set<string>,
    private readonly program: ProgramFunctions,
  ) {}

  /** `func NAME(params) [(results)] { body }` starting at token i. */
  topLevelFunction(i: number): void {
    const name = this.tokens[i + 1].text;
    this.functionAt(i, i + 2, name);
  }

  /**
   * Parses the parameter list at `open` (a `(`), optional named results, and the body. Returns
   * the index of the body's closing `}` (or the last token examined when the source is cut).
   */
  private functionAt(funcToken: number, open: number, name: string): number {
    const t = this.tokens;
    const fn: MflFunction = { name, line: t[funcToken].line, params: [], assigned: [], events: [] };
    let i = open;
    if (t[i]?.text !== '(') return i;
    const paramsEnd = this.matching(i);
    for (let j = i + 1; j < paramsEnd; j++) if (t[j].kind === 'ident' && !KEYWORDS.has(t[j].text)) fn.params.push(t[j].text);
    i = paramsEnd + 1;
    if (t[i]?.text === '(') {
      const resultsEnd = this.matching(i);
      for (let j = i + 1; j < resultsEnd; j++) if (t[j].kind === 'ident' && !KEYWORDS.has(t[j].text)) fn.params.push(t[j].text);
      i = resultsEnd + 1;
    }
    for (const p of fn.params) if (p !== '_') addOnce(fn.assigned, p);
    // A result type after the parameters (`func f(x) int {`): skip to the body.
    while (i < t.length && t[i].text !== '{') i++;
    if (!this.program.functions.has(name)) this.program.functions.set(name, fn);
    return this.body(fn, i);
  }

  /** Walks a body from its `{` at `open`; returns the index of the matching `}`. */
  private body(fn: MflFunction, open: number): number {
    const t = this.tokens;
    const stack: BlockKind[] = [];
    let pending: BlockKind | null = null;
    let literals = 0;
    for (let i = open; i < t.length; i++) {
      const tok = t[i];
      const text = tok.text;
      if (tok.kind === 'op' && text === '{') {
        if (i === open) stack.push('plain');
        else if (this.isComposite(i, stack)) stack.push('composite');
        else {
          stack.push(pending ?? 'plain');
          pending = null;
        }
      } else if (tok.kind === 'op' && text === '}') {
        stack.pop();
        if (stack.length === 0) return i;
      } else if (tok.kind === 'ident' && CONTROL.has(text)) {
        pending = 'control';
      } else if (tok.kind === 'ident' && text === 'arena') {
        pending = 'plain';
      } else if (tok.kind === 'ident' && text === 'func' && t[i + 1]?.text === '(') {
        const name = `${fn.name}.func${++literals}`;
        const end = this.functionAt(i, i + 1, name);
        const literal = this.program.functions.get(name);
        const launched = t[i - 1]?.text === 'go';
        if (launched) fn.events.push({ kind: 'go', target: name, line: tok.line, definite: definite(stack) });
        else if (literal && literal.events.length > 0) fn.events.push({ kind: 'opaque', line: tok.line });
        i = end;
      } else if (tok.kind === 'ident' && text === 'go') {
        if (t[i + 1]?.text === 'func') continue; // handled with the literal
        const target = t[i + 1]?.kind === 'ident' && t[i + 2]?.text === '(' ? t[i + 1].text : null;
        fn.events.push({ kind: 'go', target, line: tok.line, definite: definite(stack) });
        if (target) i++; // the callee is not a plain call on this goroutine's count
      } else if (tok.kind === 'ident' && this.declared.has(text) && t[i - 1]?.text !== '.') {
        // A call, or a function used as a value (`run(worker)`): it may be called from anywhere.
        if (t[i + 1]?.text === '(') fn.events.push({ kind: 'call', callee: text, line: tok.line, definite: definite(stack) });
        else fn.events.push({ kind: 'ref', callee: text, line: tok.line });
      } else if (tok.kind === 'op' && (text === ':=' || text === '=')) {
        for (const name of boundNames(t, i)) addOnce(fn.assigned, name);
      }
    }
    return t.length - 1;
  }

  /** Index of the bracket closing the one at `open`. */
  private matching(open: number): number {
    const t = this.tokens;
    const close = { '(': ')', '[': ']', '{': '}' }[t[open].text as '(' | '[' | '{'];
    let depth = 0;
    for (let i = open; i < t.length; i++) {
      if (t[i].kind !== 'op') continue;
      if (t[i].text === t[open].text) depth++;
      else if (t[i].text === close && --depth === 0) return i;
    }
    return t.length - 1;
  }

  /** A `{` that opens a composite literal (`[]int{`, `map[K]V{`, `Point{`, nested `{` in one) rather than a block. */
  private isComposite(i: number, stack: BlockKind[]): boolean {
    const prev = this.tokens[i - 1];
    const before = this.tokens[i - 2];
    if (stack[stack.length - 1] === 'composite' && (prev.text === '{' || prev.text === ',' || prev.text === ':')) return true;
    if (prev.kind !== 'ident') return false;
    return before?.text === ']' || this.structs.has(prev.text);
  }
}

/** The names bound by the `:=` or `=` at token i: `a`, `a, b`, never `x[i]` or `x.f`. */
function boundNames(t: Token[], i: number): string[] {
  const names: string[] = [];
  let j = i - 1;
  for (;;) {
    const tok = t[j];
    if (!tok || tok.kind !== 'ident' || KEYWORDS.has(tok.text)) break;
    if (t[j - 1]?.text === '.') break;
    names.unshift(tok.text);
    if (t[j - 1]?.text !== ',') break;
    j -= 2;
  }
  return names.filter((n) => n !== '_');
}

function definite(stack: BlockKind[]): boolean {
  return !stack.includes('control');
}
