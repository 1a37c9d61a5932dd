// The whole-run questions over DAP (issue 30): log point hits (paged), how often each line ran,
// where a value came from, and going to a statement event. Custom requests answered from the
// runtime's recording (contract.ts names them); no DAP types here but the argument records.
import { lineCounts, type LineCounts } from '../replay-engine/model/line-counts';
import { OriginError, ValueOrigins, type OriginChain } from '../replay-engine/machin/source/value-origin';
import { hitLine, LogPoint, LogPointError, type LogHit, type LogHitPage } from './log-point-hits';
import { RuntimeRefusal, type ReplayRuntime, type Stop } from './runtime';

/** Hits a log point prints to the Debug Console at once; the rest are in the Hits view (paged). */
export const CONSOLE_HITS = 1000;
/** A page of the Hits view. */
export const HITS_PAGE = 200;

export interface LogPointHitsBody extends LogHitPage {
  line: number;
}

function statementsOf(rt: ReplayRuntime) {
  const s = rt.statements;
  if (!s) throw new RuntimeRefusal(1074, 'The statements of the program are not known (machin has not replayed it against its instrumented copy): these questions need them.');
  return s;
}

/** `frozenRun/logPointHits { line, column?, logMessage, condition?, hitCondition?, offset?, limit?, goroutine?, text? }`. */
export function logPointHits(rt: ReplayRuntime, a: Record<string, unknown>): LogPointHitsBody {
  const s = statementsOf(rt);
  if (typeof a.line !== 'number' || typeof a.logMessage !== 'string') throw new RuntimeRefusal(1100, 'logPointHits needs { line } (1-based, of the program) and { logMessage }.');
  try {
    const lp = new LogPoint(rt.recording, s, { line: a.line, column: typeof a.column === 'number' ? a.column : undefined, logMessage: a.logMessage, condition: str(a.condition), hitCondition: str(a.hitCondition) });
    const offset = typeof a.offset === 'number' ? a.offset : 0;
    const limit = typeof a.limit === 'number' ? Math.max(1, Math.min(a.limit, 10_000)) : HITS_PAGE;
    return { line: a.line, ...lp.page(offset, limit, { goroutine: str(a.goroutine), text: str(a.text) }) };
  } catch (e) {
    if (e instanceof LogPointError) throw new RuntimeRefusal(1101, `Log point: ${e.message}`);
    throw e;
  }
}

/** The first hits of a log point for the Debug Console, and a closing line when there are more. */
export function consoleHits(rt: ReplayRuntime, spec: { line: number; column?: number; logMessage: string; condition?: string; hitCondition?: string }): { hits: LogHit[]; lines: string[]; more: string | null } {
  const s = rt.statements;
  if (!s) return { hits: [], lines: [], more: null };
  try {
    const lp = new LogPoint(rt.recording, s, spec);
    const page = lp.page(0, CONSOLE_HITS);
    const unknown = page.conditionProblems.length ? `; the condition has no value at some: ${page.conditionProblems.join('; ')}` : '';
    const more = page.next < page.arrivals ? `log point on line ${spec.line}: the first ${page.hits.length} hits are above; ${page.arrivals - page.next} more arrivals at the line are in the Hits view (Frozen Run: Show Log Point Hits)${unknown}` : page.hits.length === 0 ? `log point on line ${spec.line}: no hit in this run${page.arrivals ? ` (${page.arrivals} arrivals, none passed the condition or hit count${unknown})` : ' (the run never reaches this line)'}` : unknown ? `log point on line ${spec.line}: the condition left out the arrivals where it has no value${unknown}` : null;
    return { hits: page.hits, lines: page.hits.map((h) => hitLine(h, rt.timeline.stepCount)), more };
  } catch (e) {
    return { hits: [], lines: [], more: `log point on line ${spec.line}: ${(e as Error).message}` };
  }
}

/** `frozenRun/lineCounts`: how often each line of the program ran, per goroutine. */
export function lineCountsBody(rt: ReplayRuntime): LineCounts {
  return lineCounts(statementsOf(rt), rt.timeline);
}

/** `frozenRun/valueOrigin { variable, threadId?, frame? }`: the chain of the variable's value at the cursor. */
export function valueOriginBody(rt: ReplayRuntime, a: Record<string, unknown>): OriginChain {
  const s = statementsOf(rt);
  if (typeof a.variable !== 'string' || !a.variable) throw new RuntimeRefusal(1102, 'valueOrigin needs { variable }.');
  const t = rt.checkThread(typeof a.threadId === 'number' ? a.threadId - 1 : rt.lastStop.thread);
  const e = rt.values.frameEvent(t, typeof a.frame === 'number' ? a.frame : 0);
  if (e === null) throw new RuntimeRefusal(1103, `${rt.timeline.units.thread} ${rt.timeline.threads[t].id} has run no statement at the cursor.`);
  try {
    return new ValueOrigins(rt.recording, s).chain(a.variable, t, e, rt.position);
  } catch (err) {
    if (err instanceof OriginError) throw new RuntimeRefusal(1104, err.message);
    throw err;
  }
}

/** `frozenRun/gotoStatement { seq }`: the cursor goes to that statement event (a hit, a link of a chain). */
export function gotoStatement(rt: ReplayRuntime, a: Record<string, unknown>): Stop {
  const s = statementsOf(rt);
  const seq = a.seq;
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq >= s.eventCount) throw new RuntimeRefusal(1105, `gotoStatement needs { seq } in 0..${s.eventCount - 1}.`);
  rt.ready();
  return rt.gotoSeq(seq);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
