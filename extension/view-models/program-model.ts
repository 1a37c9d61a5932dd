// The program side of the timeline model (issue 14, point 5): for each schedule step the statement
// that performed it (line and column, 0 = unknown) and the op it did there, in typed arrays, from
// the engine's statement index (`recording.statements`, ready once machin replayed the trace
// against the instrumented copy). vscode-free, like timeline-model.ts.
//
// The op word: a trace's `S` line says only which goroutine took a turn (kinds `sched`, `io`), not
// what it did. The word therefore comes from the performing statement's own text, named as machin's
// AST names the ops (ast.go: `Recv` for `<-ch`, `SendStmt` for `ch <- v`, `SelectStmt`, and the
// builtins `close`, `print`, `println`): `recv`, `send`, `select`, `close`, `print`, `println`;
// `op` when the text shows none (e.g. a `for v := range ch` receive, which machin does not probe
// per iteration, so the statement before it is its performer).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { lexMfl, type MflToken } from '../../replay-engine/machin/source/mfl-lexer';
import type { Recording } from '../../replay-engine/model/recording';
import type { ProgramMsg } from '../../webview-ui/protocol';

/** opWords[0]: the op is not known from the text. */
export const OP_WORDS = ['op', 'recv', 'send', 'select', 'close', 'print', 'println'] as const;
const WORD = new Map<string, number>(OP_WORDS.map((w, i) => [w, i]));

/** The program's statements of each step, or undefined without source level. `readSource` is for tests. */
export function programModel(recording: Recording, readSource: (file: string) => string = (f) => readFileSync(f, 'utf8')): ProgramMsg | undefined {
  const s = recording.statements;
  if (!s || recording.sourceLevel?.state !== 'ready') return undefined;
  const tl = recording.timeline;
  const steps = tl.stepCount;
  const line = new Uint32Array(steps);
  const column = new Uint32Array(steps);
  const op = new Uint8Array(steps);
  let text: string | null = null;
  try {
    text = readSource(s.file);
  } catch {
    text = null; // the program moved: lines still known, ops not
  }
  const ops = new StatementOps(text);
  // A statement doing several ops (`println(<-ch)`) does them one after the other: the same
  // performer for consecutive own steps of its goroutine; nth counts them.
  const threads = tl.threads.length;
  const lastEvent = new Int32Array(threads).fill(-1);
  const nth = new Uint32Array(threads);
  let maxLine = 0;
  let maxColumn = 0;
  for (let k = 0; k < steps; k++) {
    const who = s.performerOfStep(k);
    if (!who) continue;
    const loc = s.location(who.thread, who.event);
    line[k] = loc.line;
    column[k] = loc.column;
    if (loc.line > maxLine) maxLine = loc.line;
    if (loc.column > maxColumn) maxColumn = loc.column;
    const t = who.thread;
    nth[t] = lastEvent[t] === who.event ? nth[t] + 1 : 0;
    lastEvent[t] = who.event;
    op[k] = ops.word(loc.line, loc.column, loc.endLine, loc.endColumn, nth[t]);
  }
  return {
    fileName: basename(s.file),
    path: s.file,
    stepLine: maxLine < 0x10000 ? Uint16Array.from(line) : line,
    stepColumn: maxColumn < 0x10000 ? Uint16Array.from(column) : column,
    stepOp: op,
    opWords: [...OP_WORDS],
  };
}

/** The ops a statement's text does, in the order they happen, read once per statement. */
class StatementOps {
  private readonly lineStarts: number[] = [0];
  private readonly cache = new Map<string, number[]>();

  constructor(private readonly text: string | null) {
    if (text) for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  word(line: number, column: number, endLine: number, endColumn: number, nth: number): number {
    if (this.text === null) return 0;
    const key = `${line}:${column}`;
    let ops = this.cache.get(key);
    if (!ops) {
      ops = opsOf(this.slice(line, column, endLine, endColumn));
      this.cache.set(key, ops);
    }
    // More ops than the text shows (a call's own ops are its callee's statements): the last one.
    return ops.length === 0 ? 0 : ops[Math.min(nth, ops.length - 1)];
  }

  private slice(line: number, column: number, endLine: number, endColumn: number): string {
    const at = (l: number, c: number) => (this.lineStarts[l - 1] ?? this.text!.length) + c - 1;
    return this.text!.slice(at(line, column), at(endLine, endColumn));
  }
}

/**
 * The op words of one statement's text in the order they run: a `select` is one op; receives
 * (`<-` as a prefix) are operands, so they run first, in text order; then the statement's own op
 * (a send: `<-` after an operand; `close(`, `print(`, `println(`), which takes their values.
 */
export function opsOf(statement: string): number[] {
  let tokens: MflToken[];
  try {
    tokens = lexMfl(statement);
  } catch {
    return [];
  }
  if (tokens[0]?.kind === 'keyword' && tokens[0].text === 'select') return [WORD.get('select')!];
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    const prev = tokens[i - 1];
    if (tok.kind === 'op' && tok.text === '<-') {
      const afterOperand = prev !== undefined && isOperandEnd(prev);
      (afterOperand ? last : first).push(WORD.get(afterOperand ? 'send' : 'recv')!);
    } else if (tok.kind === 'ident' && tokens[i + 1]?.text === '(' && (prev === undefined || prev.text !== '.')) {
      const w = WORD.get(tok.text);
      if (w !== undefined && (tok.text === 'close' || tok.text === 'print' || tok.text === 'println')) last.push(w);
    }
  }
  return [...first, ...last];
}

function isOperandEnd(t: MflToken): boolean {
  if (t.kind === 'ident' || t.kind === 'int' || t.kind === 'float' || t.kind === 'string') return true;
  if (t.kind === 'keyword') return t.text === 'true' || t.text === 'false' || t.text === 'nil';
  return t.text === ')' || t.text === ']';
}
