// get_source and evaluate: the program around a statement, with the lines that ran marked, and
// an expression answered as the debug console answers it (debug-adapter/evaluate.ts, the one
// evaluator), at the cursor or at another position, on a thread and a frame of its stack.
import { z } from 'zod';
import { evaluateInThread } from '../debug-adapter/evaluate';
import { noStatementsWhy, sourceAround, statementPlace } from '../debug-adapter/statement-place';
import { VariableStore } from '../debug-adapter/variables';
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { runtimeAt } from './runtime-at';
import { threadIndexOf } from './state';

/** Children of a structured answer (a decoded record, a history) listed at most. */
const CHILDREN_SHOWN = 50;

export interface SourceQuery {
  line?: number;
  thread?: string;
  position?: number;
  record?: number;
  around: number;
}

/** get_source: the program's lines around `line`, or around the thread's statement (default: the last stop's thread at the cursor). */
export function sourceJson(held: HeldRecording, q: SourceQuery): object {
  const rec = held.recording;
  const why = noStatementsWhy(rec);
  if (why) throw new RecordingError('usage', `${rec.timeline.file}: the program's statements are not known (${why}), so there are no source lines to show`, { file: rec.timeline.file });
  const rt = runtimeAt(held, q);
  const t = q.thread !== undefined ? threadIndexOf(held, q.thread) : held.runtime.lastStop.thread;
  const location = q.line === undefined ? statementPlace(rt, t) : null;
  const line = q.line ?? location?.line;
  if (line === undefined) {
    throw new RecordingError('usage', `${rec.timeline.file}: goroutine ${rec.timeline.threads[t].id} has run no statement at position ${rt.position}; give a line`, { file: rec.timeline.file });
  }
  const around = sourceAround(rt, line, q.around, rt.passedStatements())!;
  if (line > around.lineCount) throw new RecordingError('usage', `${around.path}: line ${line} is past the end (the program has ${around.lineCount} lines)`, { file: around.path, line });
  return {
    path: around.path,
    line,
    position: rt.position,
    ...(location ? { thread: rec.timeline.threads[t].id, location } : {}),
    lineCount: around.lineCount,
    lines: around.lines,
    ran: 'per line: arrivals at its statement in the whole run (ran) and before this position (ranBefore); code: false where no statement starts',
  };
}

export const sourceOutput = {
  path: z.string(),
  line: z.number().int(),
  position: z.number().int(),
  thread: z.string().optional(),
  location: z.object({ path: z.string(), line: z.number(), column: z.number(), endLine: z.number(), endColumn: z.number(), function: z.string(), text: z.string() }).optional(),
  lineCount: z.number().int(),
  lines: z.array(z.object({ line: z.number().int(), text: z.string(), code: z.boolean(), ran: z.number().int(), ranBefore: z.number().int(), here: z.literal(true).optional() })),
  ran: z.string(),
};

export interface EvaluateQuery {
  expression: string;
  thread?: string;
  frame?: number;
  position?: number;
  record?: number;
}

/** evaluate: the debug console's answer to `expression` on a thread (default: the last stop's) and a frame of its stack, at the cursor or a position. */
export function evaluateJson(held: HeldRecording, q: EvaluateQuery): object {
  const rt = runtimeAt(held, q);
  const t = q.thread !== undefined ? threadIndexOf(held, q.thread) : held.runtime.lastStop.thread;
  const frame = q.frame ?? 0;
  const e = rt.statements ? rt.statementOf(t) : -1;
  const depth = e >= 0 ? rt.statements!.stack(t, e).length : 1;
  if (frame >= depth) {
    const tl = held.recording.timeline;
    throw new RecordingError('usage', `${tl.file}: goroutine ${tl.threads[t].id} has ${depth} frame${depth === 1 ? '' : 's'} at position ${rt.position} (0 is the innermost), not ${frame}`, { file: tl.file });
  }
  const vars = new VariableStore(rt);
  const res = evaluateInThread(rt, vars, q.expression, t, 'repl', frame);
  if (!res.ok) throw new RecordingError('usage', res.message);
  const children = res.variablesReference > 0 ? vars.variables(res.variablesReference) : [];
  return {
    expression: q.expression,
    result: res.result,
    ...(res.type ? { type: res.type } : {}),
    ...(children.length ? { children: children.slice(0, CHILDREN_SHOWN).map((c) => ({ name: c.name, value: c.value })), ...(children.length > CHILDREN_SHOWN ? { childrenTotal: children.length } : {}) } : {}),
    thread: held.recording.timeline.threads[t].id,
    frame,
    function: rt.values.frameFunction(t, frame),
    position: rt.position,
  };
}

export const evaluateOutput = {
  expression: z.string(),
  result: z.string(),
  type: z.string().optional(),
  children: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  childrenTotal: z.number().int().optional(),
  thread: z.string(),
  frame: z.number().int(),
  function: z.string().nullable(),
  position: z.number().int(),
};
