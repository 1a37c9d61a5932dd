// Which variables can be data breakpoints: a watched variable (values from machin replay --print)
// of a thread that takes values, with a data id that stays valid across sessions.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { readyStatements } from '../replay-engine/model/recording';
import { pickVariable, variablesNamed } from '../replay-engine/model/statement-histories';
import { BreakpointTable } from './breakpoints';
import type { ReplayRuntime } from './runtime';
import { threadName } from './timeline-data';

/**
 * `thread` is -1 when the request named a variables container that is not a "Watched variables"
 * scope. `fn`: that scope's frame's function at source level; the data id then names that
 * function's variable (`0.2|gather.lo`), not every function's `lo` (data-changes.ts).
 */
export function dataBreakpointInfo(rt: ReplayRuntime | undefined, name: string, thread: number, fn?: string): DebugProtocol.DataBreakpointInfoResponse['body'] {
  const h = rt?.recording.histories;
  if (!rt || !h || !h.names.includes(name) || thread < 0) {
    return {
      dataId: null,
      description: h ? 'Only watched variables (their values come from machin replay --print) can be data breakpoints.' : 'No variable values are known for this recording (machin did not run).',
    };
  }
  if (!h.entries(name).some((e) => e.thread === thread)) {
    return { dataId: null, description: `${name} takes no values in ${threadName(rt.recording, thread)} (machin printed none there).` };
  }
  const s = readyStatements(rt.recording);
  const split = s && fn ? variablesNamed(h, s, name) : null;
  const picked = split ? pickVariable(split, name, fn) : null;
  const key = picked && 'variable' in picked && picked.variable.function ? picked.variable.key : name;
  return {
    dataId: BreakpointTable.dataId(rt.timeline.threads[thread].id, key),
    description: `${key} in ${threadName(rt.recording, thread)}: stop where its value changes`,
    accessTypes: ['write'],
    canPersist: true,
  };
}
