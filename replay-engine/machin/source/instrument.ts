// The instrumented copy of a `.mfl` program: a fresh integer local at the top of every function
// body (`fr_stmt0 := 12;`), an assignment of a statement number to it before every statement
// (`fr_stmt0 = 13;`) and at the end of a body that does not end with a return, so that
// `machin replay --print fr_stmt0,...` reports per goroutine every statement executed, in order
// (toolchains/machin/README.md: machin accepts such a copy and replays it with the same verdict).
// Nothing is inserted on a line of its own, so the copy keeps the program's line numbers. A
// function literal gets a local of its own (`fr_stmt1` one level in), so a closure never writes
// the local of the function it is written in. The `;` after each probe stops machin reading a
// statement that starts with `<-` or `(` as the rest of the probe's expression.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { mflProgram, readMflProgram, type MflProgram } from '../mfl-program';
import { makePrivateDir, removePrivateDir } from '../private-temp';
import { MflSyntaxError, positionOf } from './mfl-lexer';
import { parseStatements, type MflStatement, type MflStatementModel, type StatementKind, type StatementOp } from './statement-model';
import { lowerBound } from '../../model/lower-bound';

/** One row of the statement table; positions are 1-based, `end` just past the statement's text. */
export interface StatementRow {
  id: number;
  kind: StatementKind;
  /** Index into StatementTable.functions. */
  fn: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** For a return: calls of program functions its values make, or null when not fixed. */
  returnCalls: number | null;
  /** A `go` statement (it starts the goroutine's next child). */
  spawns?: true;
  /** The next statement in the same block (MflStatement.next). */
  next?: number;
  /** The schedule op it waits its turn for (MflStatement.op). */
  op?: StatementOp;
  /** A loop statement (MflStatement.loop). */
  loop?: true;
  /**
   * In a statements-only copy: the statements its call runs, in order, printed by nobody (the
   * callee is straight-line and quiet, and every use of its name is such a call): instrumentStatementsOnly.
   */
  expands?: number[];
  /**
   * In a statements-only copy, a function whose calls are not printed around (quiet, but not
   * straight-line: splicedCalls): `entry` and `end` (a return, or the body's end) of such a
   * function, whose runs are held until the caller prints; `call`, a statement that calls one,
   * after which the held run of that call goes (CallSplicer).
   */
  splice?: 'entry' | 'end' | 'call';
}

export interface StatementTable {
  /** Function names (`worker`, `main.func1`), indexed by StatementRow.fn. */
  functions: Array<{ name: string; parent: number | null; entry: number; exit: number | null; line: number }>;
  /** Indexed by id - 1. */
  rows: StatementRow[];
  /** The probe local of each function-literal depth: index 0 for top-level functions. */
  probeNames: string[];
  /**
   * machin prints no parameter (`--print` shows what is assigned): each function's body starts
   * by copying them to probe locals (`fr_arg_n := n;`), printed under `probe` and read as `param`;
   * the names a `select` case binds likewise, where the case's body starts.
   */
  paramProbes: Array<{ probe: string; param: string }>;
  /**
   * A statements-only copy (instrumentStatementsOnly): a probe prints the statements its goroutine
   * ran since the one before, as the digits of a number in this base (a statement number is one
   * digit; the first statement is the most significant).
   */
  base?: number;
  /**
   * A statements-only copy made with panic marks (instrumentStatementsOnly): the mark local of each
   * function-literal depth, paired with probeNames. Printed by machin, held by the stderr library.
   */
  panicMarks?: string[];
  /**
   * A statements-only copy with panic marks whose straight-line callees can fail an overflow check
   * (instrumentStatementsOnly, "Panic cuts"): the cut local, one for every such callee. Printed by
   * machin, held by the stderr library.
   */
  panicCuts?: string[];
}

/** What a statements-only copy's replay prints (`--print`): its statement probes, then its panic marks and cuts. */
export function statementsOnlyPrinted(table: Pick<StatementTable, 'probeNames' | 'panicMarks' | 'panicCuts'>): string[] {
  return [...table.probeNames, ...(table.panicMarks ?? []), ...(table.panicCuts ?? [])];
}

export interface InstrumentedProgram {
  /** The instrumented text. */
  text: string;
  table: StatementTable;
}

/** A program the instrumenter cannot read: where, and why; no copy is written. */
export class InstrumentError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: ${reason} (Frozen Run cannot step through it by statement: stepping stays at record level)`);
    this.name = 'InstrumentError';
  }
}

// A statement probe's local holds text, not an integer: machin prints a string local as it is,
// while an integer is first made text by its runtime (`mfl_str_i`: a malloc of 40 bytes, never
// freed, per line printed), and on this project's virtual machine memory first written costs
// ~3 ms a MB. The lines printed are the same bytes. In the per-statement copy every probe is a
// literal (`fr_stmt0 = "14";`); in the statements-only copy a probe that prints no statement
// kept before it is a literal too (`if fr_acc0 == 0 { fr_stmt0 = "14" } else { fr_stmt0 =
// str(fr_acc0 * B + 14) }`: in a --safe trace five lines in six), the others go through `str`
// (an integer local where the program binds the name `str` itself). Measured
// on the 600k-op one-core helper trace (docs/source-level.md, "Statement probes as text").
const PROBE_BASE = 'fr_stmt';
const ACCUMULATOR_BASE = 'fr_acc';
const MARK_BASE = 'fr_mark';
const CUT_BASE = 'fr_cut';
/** A printed run of statements stays below this (15 digits: the probe readers' bound, exact in a double). */
const PRINTED_BELOW = 1e15;

/** The instrumented text of `src` (the file `file`), for tests and tools; the bridge instruments its MflProgram. */
export function instrumentSource(src: string, file: string): InstrumentedProgram {
  return instrumentProgram(mflProgram(src, file));
}

/** The instrumented copy's text and table, from the program's statement model. */
export function instrumentProgram(program: MflProgram): InstrumentedProgram {
  const { src, model, probeNames } = readModel(program);
  // Parameters, select-bound and range-bound names: machin prints none of them, so each is copied to a probe local.
  const params = [...new Set([...model.functions.flatMap((f) => f.params), ...model.caseBindings.flatMap((c) => c.names)])].filter((p) => p !== '_');
  const paramProbe = chooseParamProbes(model.identifiers, params);

  // Insertions at source offsets; several may share an offset (an exit after the last statement).
  const inserts: Array<{ at: number; order: number; text: string }> = [];
  for (const s of model.statements) {
    const fn = model.functions[s.fn];
    const name = probeNames[fn.depth];
    if (s.kind === 'entry') {
      const copies = fn.params.filter((p) => paramProbe.has(p)).map((p) => `${paramProbe.get(p)} := ${p}; `).join('');
      inserts.push({ at: fn.bodyOpen + 1, order: 0, text: ` ${name} := "${s.id}"; ${copies}` });
    }
    else if (s.kind === 'exit') inserts.push({ at: fn.bodyClose, order: 2, text: ` ${name} = "${s.id}"; ` });
    else inserts.push({ at: s.start, order: 1, text: `${name} = "${s.id}"; ` });
  }
  // A select case's or a range loop's bound names, copied where its body starts (stored by the `select`'s,
  // or the `for`'s or the previous iteration's last, statement event: before the body's first statement).
  for (const c of model.caseBindings) inserts.push({ at: c.at, order: 0, text: ` ${c.names.map((n) => `${paramProbe.get(n)} := ${n};`).join(' ')}` });
  return { text: applyInserts(src, inserts), table: { ...tableOf(src, model, probeNames), paramProbes: params.map((param) => ({ probe: paramProbe.get(param)!, param })) } };
}

/**
 * The program's statement model, for either copy (InstrumentError, with nothing written, where the
 * model cannot read it), the function-literal depths and the probe local of each depth.
 */
function readModel(program: MflProgram): { src: string; model: MflStatementModel; depths: number; probeNames: string[] } {
  const src = program.text;
  const model = program.statements();
  if (model instanceof MflSyntaxError) {
    const { line, column } = positionOf(src, model.offset);
    throw new InstrumentError(program.path, line, column, model.reason);
  }
  const depths = model.functions.reduce((m, f) => Math.max(m, f.depth), 0) + 1;
  return { src, model, depths, probeNames: chooseProbeNames(model.identifiers, depths) };
}

/** `src` with each insertion at its offset (several at one offset in `order`). */
function applyInserts(src: string, inserts: Array<{ at: number; order: number; text: string }>): string {
  inserts.sort((a, b) => a.at - b.at || a.order - b.order);
  let text = '';
  let from = 0;
  for (const ins of inserts) {
    text += src.slice(from, ins.at) + ins.text;
    from = ins.at;
  }
  return text + src.slice(from);
}

/** The statement table of the model of `src` (no parameter probes). */
function tableOf(src: string, model: MflStatementModel, probeNames: string[]): StatementTable {
  const lineStarts = [0];
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') lineStarts.push(i + 1);
  const at = (offset: number): { line: number; column: number } => {
    const lo = lowerBound(1, lineStarts.length, (i) => lineStarts[i] <= offset) - 1; // the line holding offset
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };
  const rows = model.statements.map((s): StatementRow => {
    const start = at(s.start);
    const end = at(s.end);
    const row: StatementRow = { id: s.id, kind: s.kind, fn: s.fn, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, returnCalls: s.returnCalls };
    if (s.spawns) row.spawns = true;
    if (s.next) row.next = s.next;
    if (s.op) row.op = s.op;
    if (s.loop) row.loop = true;
    return row;
  });
  const functions = model.functions.map((f) => ({ name: f.name, parent: f.parent, entry: f.entry, exit: f.exit, line: at(f.funcStart).line }));
  return { functions, rows, probeNames, paramProbes: [] };
}


/**
 * The statements-only copy: no values, and a statement probe printed only where the order of a
 * goroutine's statements and its ops, calls and other goroutines could tell otherwise. Every
 * function keeps the statements it ran since its last printed probe in an integer local
 * (`fr_acc0 = fr_acc0 * B + 13;`, not printed); a statement that can block, call, spawn, return
 * or panic, or one that finds the local full, prints them and itself at once (`fr_stmt0 = fr_acc0
 * * B + 14; fr_acc0 = 0;`), and so does a loop body's end when the loop's test can do any of
 * these. So machin prints a line per op, call and return rather than per statement, and each
 * statement is printed with the @op of a point with the same ops of its own goroutine completed.
 * `safe`: the trace's build is `--safe`, where `+`, `-` and `*` can panic.
 *
 * Panic marks (`panicMarks`, for a --safe build, where the replay loads the stderr library): a
 * statement whose only way to fail is machin's overflow check is not printed before but kept, and
 * what would be printed is assigned to the function's mark local instead (`fr_acc0 = fr_acc0 * B
 * + 14; fr_mark0 = str(fr_acc0);`). machin prints that assignment; the stderr library holds the line
 * instead of writing it, drops it at the thread's next probe, and writes it as the statement probe
 * it pairs with when the thread panics (stderr-buffer-source.ts). So a panic at such a statement
 * prints exactly what printing before it would, and a run that does not panic prints none of it:
 * in a --safe build most statements compute with `+`, `-` or `*`. Every point where a kept
 * statement can panic is marked just before it (a loop's test, which can panic too, at the
 * body's end), so a mark left over is never the one written.
 *
 * Panic cuts (with panic marks): a straight-line helper whose statements can fail only an overflow
 * check is left unprinted like a quiet one (its callers' runs say what it ran: StatementRow.expands),
 * and each calling statement is marked. Before each of the helper's statements that can fail, a
 * literal goes to the cut local (`fr_cut0 = "3";`): machin prints it, and the stderr library holds
 * it beside the thread's mark (a mark drops it, any other probe drops both) and writes it, just
 * before the mark, when the thread panics. So a panic inside the helper prints its caller's run up
 * to the call, and how far the helper got (the reader ends that call's run at the cut's statement);
 * a run that does not panic prints no line for the helper at all.
 */
export function instrumentStatementsOnly(program: MflProgram, safe: boolean, panicMarks = false): InstrumentedProgram {
  const { src, model, depths, probeNames } = readModel(program);
  const accumulators = chooseNames(ACCUMULATOR_BASE, model.identifiers, depths);
  const marks = panicMarks && safe ? chooseNames(MARK_BASE, model.identifiers, depths) : null;
  const marked = (effects: 'none' | 'arith' | undefined) => marks !== null && effects === 'arith';
  const marking = new Set<number>(); // functions with a mark
  const entries: MflStatement[] = [];
  const base = model.statements.length + 1;
  const limit = Math.floor((PRINTED_BELOW - base) / base); // an accumulator at most this takes one more statement
  const quiet = (effects: 'none' | 'arith' | undefined) => effects === 'none' || (effects === 'arith' && !safe);
  const asText = !model.bindings.has('str') && !program.globals.includes('str');
  // (with marks, a straight-line callee may compute with + - *: panic cuts)
  const expansions = straightLineCalls(model, quiet, marks === null ? quiet : (e) => quiet(e) || e === 'arith');
  const cut = expansions.cutAt.size > 0 ? chooseNames(CUT_BASE, model.identifiers, 1)[0] : '';
  const cutDeclared = new Set<number>(); // cutting callees whose cut local is declared (at its first cut)
  const spliced = splicedCalls(model, quiet, expansions);
  const inserts: Array<{ at: number; order: number; text: string }> = [];
  for (const s of model.statements) {
    // (a straight-line callee is not instrumented: its callers' statements say what it ran; one
    // that can fail an overflow check says how far it got, in its cut local: the body is one block)
    if (expansions.silent.has(s.fn)) {
      if (expansions.cutAt.has(s.id)) {
        const declare = !cutDeclared.has(s.fn);
        cutDeclared.add(s.fn);
        inserts.push({ at: s.start, order: 1, text: `${cut} ${declare ? ':=' : '='} "${s.id}"; ` });
      }
      continue;
    }
    const depth = model.functions[s.fn].depth;
    const [p, a] = [probeNames[depth], accumulators[depth]];
    // (the probe local holds text where `str` is machin's: see the note at PROBE_BASE)
    const printed = (n: string) => (asText ? `str(${n})` : n);
    const room = `if ${a} > ${limit} { ${p} = ${printed(a)}; ${a} = 0 } `;
    const print = (id: number) =>
      asText ? `${room}if ${a} == 0 { ${p} = "${id}" } else { ${p} = str(${a} * ${base} + ${id}) }; ${a} = 0; ` : `${room}${p} = ${a} * ${base} + ${id}; ${a} = 0; `;
    const m = marks?.[depth] ?? '';
    if (s.kind === 'entry') {
      entries.push(s);
      continue;
    }
    if (s.kind === 'exit') {
      inserts.push({ at: model.functions[s.fn].bodyClose, order: 2, text: ` ${print(s.id)}` });
      continue;
    }
    const plain = s.kind === 'statement' && !s.op && !s.spawns;
    const effects = runEffects(model, s);
    const kept = plain && (quiet(effects) || expansions.sites.has(s.id) || spliced.sites.has(s.id));
    const keep = `${room}${a} = ${a} * ${base} + ${s.id}; `;
    if ((!kept && plain && marked(effects)) || expansions.cutSites.has(s.id)) {
      // kept, and marked: what printing before it would print (the run so far and itself; for a
      // call of a cutting callee, with the callee's cut after it when the callee panics)
      marking.add(s.fn);
      const mark = asText ? `if ${a} == ${s.id} { ${m} = "${s.id}" } else { ${m} = str(${a}) }; ` : `${m} = ${a}; `;
      inserts.push({ at: s.start, order: 1, text: keep + mark });
    } else {
      inserts.push({ at: s.start, order: 1, text: kept ? keep : print(s.id) });
    }
    // the test before each next iteration: what ran in the body is printed first when the test can do
    // more than compute (marked when it can only fail an overflow check)
    if (s.loop && s.body && !quiet(s.effects) && !s.body.leaves) {
      if (marked(s.effects)) marking.add(s.fn);
      const before = marked(s.effects) ? `${m} = ${printed(a)}` : `${p} = ${printed(a)}; ${a} = 0`;
      inserts.push({ at: s.body.close, order: 0, text: ` if ${a} > 0 { ${before} } ` });
    }
  }
  // (one assignment of several names, which machin does not print; a mark local where the function has a mark)
  const empty = asText ? '""' : '0';
  for (const s of entries) {
    const depth = model.functions[s.fn].depth;
    const [p, a] = [probeNames[depth], accumulators[depth]];
    const text = marking.has(s.fn) ? ` ${p}, ${a}, ${marks![depth]} := ${empty}, ${s.id}, ${empty}; ` : ` ${p}, ${a} := ${empty}, ${s.id}; `;
    inserts.push({ at: model.functions[s.fn].bodyOpen + 1, order: 0, text });
  }
  const table = tableOf(src, model, probeNames);
  table.base = base;
  if (marks !== null && marking.size > 0) table.panicMarks = marks;
  if (cut) table.panicCuts = [cut];
  for (const [site, ids] of expansions.sites) table.rows[site - 1].expands = ids;
  for (const site of spliced.sites) table.rows[site - 1].splice = 'call';
  for (const row of table.rows) {
    if (!spliced.callees.has(row.fn)) continue;
    if (row.kind === 'entry') row.splice = 'entry';
    else if (row.kind === 'return' || row.kind === 'exit') row.splice = 'end';
  }
  return { text: applyInserts(src, inserts), table };
}

/** What running statement `s` can do (MflStatement.effects): a `continue` runs its loop's test next. */
function runEffects(model: MflStatementModel, s: MflStatement): 'none' | 'arith' | undefined {
  return s.continues !== undefined ? model.statements[s.continues - 1].effects : s.effects;
}

/**
 * The functions whose calls a statements-only copy may leave unprinted: top-level ones other than
 * main with no function literal inside (a literal's body could run from anywhere).
 */
function helperFunctions(model: MflStatementModel): number[] {
  const hasLiteral = new Set(model.functions.flatMap((f) => (f.parent === null ? [] : [f.parent])));
  return model.functions.flatMap((f, fn) => (f.parent === null && f.name !== 'main' && !hasLiteral.has(fn) ? [fn] : []));
}

/**
 * The calls a statements-only copy need not print before, though the callee prints its own: a
 * call of a top-level function that can do nothing but compute and make such calls (no op, `go`,
 * panic or other call; its tests and returns only compute, a return calls nothing), from a
 * statement that is otherwise quiet, where every use of the function's name is such a call. The
 * callee's own ops are none, so the caller's statements before and after the call have the same
 * own ops done, and the caller prints them later with the call's statement; the callee's printed
 * runs (at its return, or where its local is full) are put after that statement when it comes
 * (CallSplicer: a printed run's calls are the latest runs ended and not yet put). Nothing in such a
 * callee can panic, so no run is left waiting when a goroutine panics. `sites`: the calling
 * statements; `callees`: the functions (indexes). Found as a fixed point: a function stays only
 * while every statement of it is quiet or calls one that stays (recursion is fine).
 */
function splicedCalls(model: MflStatementModel, quiet: (effects: 'none' | 'arith' | undefined) => boolean, expansions: StraightLineCalls): { sites: Set<number>; callees: Set<number> } {
  const candidates = new Map<string, number>();
  for (const fn of helperFunctions(model)) if (!expansions.silent.has(fn)) candidates.set(model.functions[fn].name, fn);
  const isSite = (s: MflStatement) => s.kind === 'statement' && s.call !== undefined && candidates.has(s.call.callee) && !s.op && !s.spawns && !s.loop && quiet(s.call.effects);
  const quietStatement = (s: MflStatement): boolean => {
    if (s.kind === 'entry' || s.kind === 'exit') return true;
    if (s.op || s.spawns) return false;
    if (s.kind === 'return') return s.returnCalls === 0 && quiet(s.effects);
    return (expansions.sites.has(s.id) && !expansions.cutSites.has(s.id)) || isSite(s) || quiet(runEffects(model, s));
  };
  for (let changed = true; changed; ) {
    changed = false;
    const sitesOf = new Map<string, number>();
    for (const s of model.statements) if (isSite(s)) sitesOf.set(s.call!.callee, (sitesOf.get(s.call!.callee) ?? 0) + 1);
    for (const [name, fn] of candidates) {
      const every = (model.references.get(name) ?? 0) === (sitesOf.get(name) ?? 0);
      if (every && model.statements.every((s) => s.fn !== fn || quietStatement(s))) continue;
      candidates.delete(name);
      changed = true;
    }
  }
  const sites = new Set(model.statements.filter(isSite).map((s) => s.id));
  return { sites, callees: new Set(candidates.values()) };
}

/**
 * The calls a statements-only copy need not print around: a call of a top-level function whose
 * body is straight-line and quiet (each statement only computes, the last returns what only
 * computes, or the body just ends; no loop, branch, call, op or literal function), so that what it
 * runs is fixed by the text; from a simple statement that is otherwise quiet too; and every use of
 * the function's name is such a call (no `go`, no function value), so the callee itself need not
 * be instrumented at all. `sites`: statement -> the statements its call runs (the callee's entry,
 * body, and return or end); `silent`: the callees (function indexes). `bodyQuiet` says which of the
 * callee's statements pass (with panic marks, also those only an overflow check can fail: `cutAt`,
 * each given a cut, and the calls of their callees `cutSites`); the calling statement's rest must be `quiet`.
 */
function straightLineCalls(
  model: MflStatementModel,
  quiet: (effects: 'none' | 'arith' | undefined) => boolean,
  bodyQuiet: (effects: 'none' | 'arith' | undefined) => boolean,
): StraightLineCalls {
  const sites = new Map<number, number[]>();
  const silent = new Set<number>();
  const cutAt = new Set<number>();
  const cutSites = new Set<number>();
  const runs = new Map<string, { fn: number; ids: number[]; cuts: number[] }>();
  for (const fn of helperFunctions(model)) {
    const f = model.functions[fn];
    const body = model.statements.filter((s) => s.fn === fn);
    const ok = body.every((s, k) => {
      if (s.kind === 'entry' || s.kind === 'exit') return true;
      if (s.op || s.spawns || s.loop || s.branches || !bodyQuiet(s.effects)) return false;
      // a return ends the body (nothing after it but the body's end), and makes no call
      if (s.kind === 'return') return s.returnCalls === 0 && body.slice(k + 1).every((x) => x.kind === 'exit');
      return s.kind === 'statement';
    });
    if (!ok) continue;
    const ids = body.filter((s, k) => !(s.kind === 'exit' && body[k - 1]?.kind === 'return')).map((s) => s.id);
    const cuts = body.filter((s) => (s.kind === 'statement' || s.kind === 'return') && !quiet(s.effects)).map((s) => s.id);
    runs.set(f.name, { fn, ids, cuts });
  }
  const calls = new Map<string, number[]>();
  for (const s of model.statements) {
    if (!s.call || !runs.has(s.call.callee) || s.kind !== 'statement' || s.op || s.spawns || s.loop || !quiet(s.call.effects)) continue;
    const list = calls.get(s.call.callee) ?? [];
    list.push(s.id);
    calls.set(s.call.callee, list);
  }
  for (const [name, at] of calls) {
    if ((model.references.get(name) ?? 0) !== at.length) continue;
    const run = runs.get(name)!;
    silent.add(run.fn);
    for (const id of run.cuts) cutAt.add(id);
    for (const site of at) {
      sites.set(site, run.ids);
      if (run.cuts.length > 0) cutSites.add(site);
    }
  }
  return { sites, silent, cutAt, cutSites };
}

interface StraightLineCalls {
  sites: Map<number, number[]>;
  silent: Set<number>;
  /** Statements of silent callees that only an overflow check can fail: a cut goes before each. */
  cutAt: Set<number>;
  /** Calls of callees with such statements: marked. */
  cutSites: Set<number>;
}

/** `fr_arg_n` for parameter n; a suffix is added to the prefix until no name is one the program spells. */
function chooseParamProbes(identifiers: Set<string>, params: string[]): Map<string, string> {
  for (let k = 0; ; k++) {
    const prefix = k === 0 ? 'fr_arg_' : `fr_arg${k}_`;
    if (params.every((p) => !identifiers.has(prefix + p))) return new Map(params.map((p) => [p, prefix + p]));
  }
}

/** `fr_stmt0`, `fr_stmt1`, ...; a suffix is added to the base until no name is one the program spells. */
function chooseProbeNames(identifiers: Set<string>, depths: number): string[] {
  return chooseNames(PROBE_BASE, identifiers, depths);
}

/** `${prefix}0`, `${prefix}1`, ... (one a function-literal depth), none a name the program spells. */
function chooseNames(prefix: string, identifiers: Set<string>, depths: number): string[] {
  for (let k = 0; ; k++) {
    const base = k === 0 ? prefix : `${prefix}_${k}_`;
    const names = Array.from({ length: depths }, (_, d) => `${base}${d}`);
    if (names.every((n) => !identifiers.has(n))) return names;
  }
}

export interface InstrumentedCopy extends InstrumentedProgram {
  /** The program's text the copy was made from (the statement table's lines and columns are of it). */
  source: string;
  /** The private folder (mode 0700) holding the copy. */
  dir: string;
  /** The instrumented `.mfl` file, named as the program is. */
  file: string;
  /** The statements-only copy (instrumentStatementsOnly), in a folder of its own inside `dir`, when asked for. */
  statementsOnly: { file: string; table: StatementTable } | null;
  remove(): Promise<void>;
}

/**
 * Writes the program's instrumented copy into a fresh private temporary folder (the program is
 * never written), and its statements-only copy beside it when `statementsOnly` says whether the
 * trace's build is `--safe` (and whether its replay loads the stderr library: panic marks). Given a path, the program is read first (readMflProgram: a regular
 * file only, a FIFO or a device is refused by name). Throws InstrumentError, with nothing
 * written, for a program it cannot read.
 */
export async function writeInstrumentedCopy(program: MflProgram | string, statementsOnly?: { safe: boolean; panicMarks?: boolean }): Promise<InstrumentedCopy> {
  const mfl = typeof program === 'string' ? await readMflProgram(program) : program;
  const instrumented = instrumentProgram(mfl);
  const only = statementsOnly ? instrumentStatementsOnly(mfl, statementsOnly.safe, statementsOnly.panicMarks) : null;
  const dir = await makePrivateDir();
  const remove = () => removePrivateDir(dir);
  try {
    const file = path.join(dir, path.basename(mfl.path));
    await fs.writeFile(file, instrumented.text, { mode: 0o600 });
    let copy: InstrumentedCopy['statementsOnly'] = null;
    if (only) {
      // (its own folder: machin builds a program beside it, and the copy keeps the program's name)
      await fs.mkdir(path.join(dir, 'statements'), { mode: 0o700 });
      copy = { file: path.join(dir, 'statements', path.basename(mfl.path)), table: only.table };
      await fs.writeFile(copy.file, only.text, { mode: 0o600 });
    }
    return { ...instrumented, source: mfl.text, dir, file, statementsOnly: copy, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
