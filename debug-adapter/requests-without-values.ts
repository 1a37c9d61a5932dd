// While machin's second replay still prints the values (Replay to Panic stops before they are in),
// the session holds every request that needs them until the runtime has taken them; these are
// answered at once.
import { REQUEST } from './contract';

/** DAP and custom requests that need no variable values. */
export const ANSWERED_WITHOUT_VALUES: ReadonlySet<string> = new Set([
  'initialize', 'launch', 'configurationDone', 'disconnect', 'terminate', 'pause', 'cancel', 'threads', 'stackTrace', 'source',
  'loadedSources', 'exceptionInfo', 'setBreakpoints', 'setFunctionBreakpoints', 'setExceptionBreakpoints',
  REQUEST.setKey, REQUEST.timeline,
]);
