// Evaluate for watch, hover and the debug console: any condition expression in a thread as of the
// cursor, `value` / `record` as the decoded record's tree, and `history(name[, thread])`.
import { evaluate, parseExpression, type Expr } from './expression';
import { RecordScope } from './record-scope';
import type { ReplayRuntime } from './runtime';
import { threadName } from './timeline-data';
import { THIS_REPLAY_ONLY, type VariableStore } from './variables';

export type EvaluateResult =
  | { ok: true; result: string; type?: string; variablesReference: number }
  | { ok: false; message: string };

/** `frame`: the selected frame of the thread (0: the innermost); at source level names are that frame's values. */
export function evaluateInThread(rt: ReplayRuntime, vars: VariableStore, expression: string, thread: number, context: string | undefined, frame = 0): EvaluateResult {
  let expr: Expr;
  try {
    expr = parseExpression(expression);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  // Hovering over `0.1` or a hex payload in the trace is not a question: no hover for literals.
  if (context === 'hover' && expr.type === 'literal') return { ok: false, message: 'not an expression to show' };
  const r = rt.currentRecordOf(thread);
  if (expr.type === 'call' && expr.name === 'history') return history(rt, vars, expr, rt.values.frameFunction(thread, frame));
  if (expr.type === 'name' && (expr.name === 'value' || expr.name === 'record') && r >= 0) {
    const v = vars.decoded(expr.name, rt.recording.describe(r).value);
    return { ok: true, result: v.value, type: v.type, variablesReference: v.variablesReference };
  }
  let value;
  // Whether a value it read is this replay's only (machin may not print it in another): said in the type.
  let marked = false;
  const read = (name: string, t: number) => {
    const e = rt.values.entriesInFrame(t, t === thread ? frame : 0, [name]).get(name);
    if (e?.thisReplayOnly) marked = true;
    return e?.value;
  };
  try {
    value = evaluate(expr, new RecordScope(rt.recording, read).at(r, rt.position, thread));
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  if (value === undefined) {
    const who = threadName(rt.recording, thread);
    return { ok: false, message: `${expression}: not known in ${who} as of ${rt.position}/${rt.timeline.stepCount} ${rt.timeline.units.steps} done (not a watched variable of this thread nor a record field)` };
  }
  return { ok: true, result: String(value), ...(marked ? { type: THIS_REPLAY_ONLY } : {}), variablesReference: 0 };
}

/** `frameFn`: the selected frame's function, whose variable a bare name means at source level. */
function history(rt: ReplayRuntime, vars: VariableStore, expr: Extract<Expr, { type: 'call' }>, frameFn: string | null): EvaluateResult {
  const word = (e: Expr | undefined) => (e?.type === 'name' ? e.name : e?.type === 'literal' && e.value !== undefined ? String(e.value) : '');
  const name = word(expr.args[0]);
  if (!name) return { ok: false, message: 'history(name): give a variable name.' };
  let thread: number | undefined;
  if (expr.args[1]) {
    thread = rt.timeline.threadIndex(word(expr.args[1]));
    if (thread < 0) return { ok: false, message: `history(${name}, thread): no thread ${word(expr.args[1])}.` };
  }
  const v = vars.history(name, thread, frameFn);
  return { ok: true, result: v.value, variablesReference: v.variablesReference };
}
