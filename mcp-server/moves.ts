// move: the debugger's moves on the held runtime (debug-adapter/runtime.ts), so an agent steps
// exactly as a developer does in VS Code: over records, per thread or globally, both ways, and
// continue / reverse continue stop at the panic, at a divergence, or where a condition holds.
import { basename, resolve } from 'node:path';
import { BreakpointTable } from '../debug-adapter/breakpoints';
import { noStatementsWhy } from '../debug-adapter/statement-place';
import { RuntimeRefusal, type Stop } from '../debug-adapter/runtime';
import type { StepKind } from '../replay-engine/model/source-level';
import { RecordingError } from '../replay-engine/model/errors';
import type { HeldRecording } from './held-recordings';
import { recordJson } from './record-json';
import { refusalText, stopJson, threadIndexOf } from './state';

export const MOVES = [
  'step_in', 'step_back_in', 'next', 'step_back', 'step_out', 'step_back_out',
  'continue', 'reverse_continue', 'goto', 'to_panic', 'to_start', 'to_end',
] as const;
export type MoveAction = (typeof MOVES)[number];

export interface Until {
  /** A function breakpoint: a record kind (`sched`, `redis`, `http@1`), `goroutine ID`, `task N` or `panic`. */
  breakpoint?: string;
  /** An expression over the record and the variables (`idx > 10`, `kind == "io"`). */
  condition?: string;
  /**
   * A line breakpoint: a line of the program (`.mfl`, met at every arrival at its statement, both
   * ways) when `path` names the program, or when it is left out and the statements are known;
   * else a line of the trace text (or of the capsule's decoded document).
   */
  line?: number;
  /** The file `line` is in: the program (its path or file name) or the recording. */
  path?: string;
  /** A data breakpoint: stop where this variable's value changes... */
  variable?: string;
  /** ...on this thread (default: the thread of the last stop). */
  thread?: string;
}

/**
 * A run that looks at many candidates (a condition on every record of a 10M-op trace) pauses after
 * this long, where it got to, rather than outlive the client's request timeout; calling continue
 * again goes on from there. A cancelled request pauses it at once.
 */
export const MOVE_TIME_BUDGET_MS = 10_000;

export interface MoveRequest {
  action: MoveAction;
  thread?: string;
  position?: number;
  record?: number;
  count?: number;
  until?: Until;
}

/** The runtime's step of each step action (debug-adapter/runtime.ts step kinds). */
const STEP_KIND: Partial<Record<MoveAction, StepKind>> = {
  step_in: 'into', step_back_in: 'backInto', next: 'over', step_back: 'backOver', step_out: 'out', step_back_out: 'backOut',
};

/** The move a request names, made by the runtime (the same rules and stops as the debug adapter's); this only translates. */
/** `resolvePath`: where a path the agent gives points (a file:// URI, `~`, relative to the client's first root: client-roots.ts). */
export async function move(held: HeldRecording, req: MoveRequest, signal?: AbortSignal, progress?: (message: string) => void, resolvePath: (path: string) => string = resolve): Promise<object> {
  const { runtime, recording: rec } = held;
  const tl = rec.timeline;
  const thread = (): number => (req.thread !== undefined ? threadIndexOf(held, req.thread) : runtime.lastStop.thread);
  if (req.until && req.action !== 'continue' && req.action !== 'reverse_continue') {
    throw new RecordingError('usage', `\`until\` goes with continue or reverse_continue, not ${req.action}`);
  }
  if (req.count !== undefined && !STEP_KIND[req.action]) throw new RecordingError('usage', `\`count\` goes with the steps (${Object.keys(STEP_KIND).join(', ')}), not ${req.action}`);
  let stop: Stop;
  let description: string | undefined;
  try {
    switch (req.action) {
      case 'goto':
        if (req.position === undefined && req.record === undefined) throw new RecordingError('usage', 'goto needs a position (schedule ops or effects done) or a record');
        stop = runtime.goto({ position: req.position, record: req.record });
        break;
      case 'to_panic':
        stop = runtime.toPanic();
        break;
      case 'to_start':
        stop = runtime.toStart();
        break;
      case 'to_end':
        stop = runtime.toEnd();
        break;
      case 'continue':
      case 'reverse_continue':
        stop = await withUntil(held, req.until, resolvePath, () => budgeted(held, signal, progress, () => runtime.run(req.action === 'continue')));
        if (req.until?.condition && req.until.breakpoint === undefined && req.until.line === undefined && req.until.variable === undefined && stop.reason === 'function breakpoint') {
          // The condition rode on one breakpoint per kind: say what the agent asked for.
          description = `Condition \`${req.until.condition}\` holds (${rec.describe(runtime.record).summary})`;
        }
        break;
      default:
        stop = await runtime.step(STEP_KIND[req.action]!, req.count ?? 1, thread());
    }
  } catch (err) {
    throw asToolError(held, err, req.action);
  }
  const m = runtime.record;
  return {
    stop: stopJson(held, description),
    position: runtime.position,
    record: m,
    atStart: m < 0,
    atEnd: m >= tl.recordCount,
    justDone: m >= 0 && m < tl.recordCount ? recordJson(rec, m) : null,
    ...(stop.reason === 'end' && stop.text ? { end: stop.text } : {}),
    ...(stop.reason === 'pause' ? { note: `paused after ${MOVE_TIME_BUDGET_MS / 1000} s (or on cancel) with no stop met yet; ${req.action} again to go on from here` } : {}),
  };
}

/** A runtime refusal (no panic, nothing ahead, a bad target) is a tool error worded by the runtime. */
function asToolError(held: HeldRecording, err: unknown, action: MoveAction): unknown {
  if (!(err instanceof RuntimeRefusal)) return err;
  const tl = held.recording.timeline;
  const hint = action === 'to_panic' && tl.traits.toolchain !== null && !held.recording.verify ? ' (machin gives the panic: start the server with --toolchain, and have the program at hand)' : '';
  const text = refusalText(err);
  return new RecordingError('usage', `${text.startsWith(basename(tl.file)) ? text : `${tl.file}: ${text}`}${hint}`, { file: tl.file });
}

/** Run a move with the time budget and the request's cancel: both pause the runtime. */
/** (A long one reports progress each second.) */
async function budgeted(held: HeldRecording, signal: AbortSignal | undefined, progress: ((message: string) => void) | undefined, go: () => Promise<Stop>): Promise<Stop> {
  const pause = () => held.runtime.pause();
  const timer = setTimeout(pause, MOVE_TIME_BUDGET_MS);
  const started = Date.now();
  const beat = progress ? setInterval(() => progress(`searching for a stop: ${Math.round((Date.now() - started) / 1000)} s of at most ${MOVE_TIME_BUDGET_MS / 1000} s`), 1000) : undefined;
  signal?.addEventListener('abort', pause);
  try {
    return await go();
  } finally {
    clearTimeout(timer);
    if (beat) clearInterval(beat);
    signal?.removeEventListener('abort', pause);
  }
}

/** Run `go` with the breakpoints `until` names set, and cleared again afterwards. */
async function withUntil(held: HeldRecording, until: Until | undefined, resolvePath: (path: string) => string, go: () => Promise<Stop>): Promise<Stop> {
  const bps = held.runtime.breakpoints;
  const tl = held.recording.timeline;
  if (until?.thread !== undefined && until.variable === undefined) throw new RecordingError('usage', '`until.thread` goes with `until.variable` (the thread whose variable is watched)');
  if (until?.path !== undefined && until.line === undefined) throw new RecordingError('usage', '`until.path` goes with `until.line` (the file the line is in)');
  if (!until || (until.breakpoint === undefined && until.condition === undefined && until.line === undefined && until.variable === undefined)) return go();
  const condition = until.condition;
  try {
    if (until.variable !== undefined) {
      if (!held.recording.histories) {
        throw new RecordingError('toolchain-missing', `${tl.file}: no value histories, so no value can be watched: they come from machin (start the server with --toolchain)`, { file: tl.file });
      }
      const t = until.thread !== undefined ? threadIndexOf(held, until.thread) : held.runtime.lastStop.thread;
      const [res] = bps.setDataBreakpoints([{ dataId: BreakpointTable.dataId(tl.threads[t].id, until.variable), condition }]);
      if (!res.verified) throw new RecordingError('usage', `${tl.file}: ${res.message}`, { file: tl.file });
      if (!held.recording.histories.entries(until.variable).some((e) => e.thread === t)) {
        throw new RecordingError('usage', `${tl.file}: \`${until.variable}\` takes no value on ${tl.threads[t].id} (variables: ${held.recording.histories.names.slice(0, 20).join(', ')})`, { file: tl.file });
      }
    }
    if (until.line !== undefined && inProgram(held, until.path, resolvePath)) {
      const s = held.runtime.statements!;
      const [res] = held.runtime.sourceBreakpoints.set([{ line: until.line, condition }]);
      if (!res.verified) throw new RecordingError('usage', `${s.file}:${until.line}: ${res.message}`, { file: s.file, line: until.line });
    } else if (until.line !== undefined) {
      const [res] = bps.setLineBreakpoints([{ line: until.line, condition }]);
      if (!res.verified) throw new RecordingError('usage', `${tl.file}: ${res.message}`, { file: tl.file, line: until.line });
    }
    if (until.breakpoint !== undefined || (until.line === undefined && until.variable === undefined && condition !== undefined)) {
      // A condition alone is checked on every record: one function breakpoint per kind.
      const names = until.breakpoint !== undefined ? [until.breakpoint] : tl.kinds.filter((_, k) => hasKind(tl.kind, k));
      const results = bps.setFunctionBreakpoints(names.map((name) => ({ name, condition })));
      const bad = results.find((x) => !x.verified);
      if (bad) throw new RecordingError('usage', `${tl.file}: ${bad.message}`, { file: tl.file });
    }
    return await go();
  } finally {
    held.runtime.sourceBreakpoints.set([]);
    bps.setLineBreakpoints([]);
    bps.setFunctionBreakpoints([]);
    bps.setDataBreakpoints([]);
  }
}

/**
 * Whether `until.line` is a line of the program: `path` names it (its path or file name), or no
 * path and the statements are known. A path naming neither file is an error that names both.
 */
function inProgram(held: HeldRecording, path: string | undefined, resolvePath: (path: string) => string): boolean {
  const s = held.runtime.statements;
  const tl = held.recording.timeline;
  if (path === undefined) return s !== null;
  if (s && path === basename(s.file)) return true;
  if (path === basename(tl.file)) return false;
  const file = resolvePath(path);
  if (s && held.runtime.sourceBreakpoints.isProgram(file)) return true;
  if (file === resolve(tl.file)) return false;
  if (!s && /\.mfl$/i.test(path)) {
    throw new RecordingError('usage', `${tl.file}: no line breakpoint in ${path}: the program's statements are not known (${noStatementsWhy(held.recording)}); a line of the trace has no path`, { file: tl.file });
  }
  throw new RecordingError('usage', `${path}: \`until.path\` names the program${s ? ` (${s.file})` : ''} or the recording (${tl.file}), not this file`);
}

function hasKind(kinds: Uint8Array, k: number): boolean {
  return kinds.includes(k);
}
