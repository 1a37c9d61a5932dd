// While machin's replays still print the statements and the values (Replay to Panic stops before
// they are in), the session holds every request that needs them until the runtime has taken them;
// these are answered at once. A source-level launch takes the statements first and the values after
// (enrich.ts): once the statements are in, the moves are answered too, unless a breakpoint reads
// values (runtime.movesReadValues).
import { REQUEST } from './contract';

/** DAP and custom requests that need no variable values. */
export const ANSWERED_WITHOUT_VALUES: ReadonlySet<string> = new Set([
  'initialize', 'launch', 'configurationDone', 'disconnect', 'terminate', 'pause', 'cancel', 'threads', 'stackTrace', 'source',
  'loadedSources', 'exceptionInfo', 'setBreakpoints', 'setFunctionBreakpoints', 'setExceptionBreakpoints',
  REQUEST.setKey, REQUEST.timeline,
]);

/** Requests that need the statements but no variable values (when no breakpoint reads values). */
export const ANSWERED_WITH_STATEMENTS: ReadonlySet<string> = new Set([
  'continue', 'next', 'stepIn', 'stepOut', 'stepBack', 'reverseContinue', 'goto', 'gotoTargets',
  REQUEST.stepBackIn, REQUEST.stepBackOut, REQUEST.runTo, REQUEST.runBackTo, REQUEST.goto, REQUEST.gotoStatement, REQUEST.lineCounts,
]);
