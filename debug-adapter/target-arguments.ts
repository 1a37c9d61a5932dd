// Where a run-to or goto request goes (contract.ts's TargetArguments), as the client sent it,
// in the runtime's lines and paths; a goto's statement only when it is well formed.
import type { StatementTarget, TargetArguments } from './contract';
import type { PlaceConversion } from './place-conversion';
import type { RunToward } from './runtime';

export function targetArguments(a: TargetArguments, toward: RunToward, toDebugger: PlaceConversion): TargetArguments {
  return {
    record: a.record,
    position: a.position,
    line: typeof a.line === 'number' ? toDebugger.line(a.line) : undefined,
    path: typeof a.path === 'string' ? toDebugger.path(a.path) : undefined,
    statement: toward === 'goto' ? statementTarget(a.statement) : undefined,
  };
}

/** A goto's `statement` as a client sent it: a goroutine id and an event index, else undefined. */
function statementTarget(v: unknown): StatementTarget | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if ((typeof o.thread !== 'string' && typeof o.thread !== 'number') || typeof o.event !== 'number') return undefined;
  return { thread: String(o.thread), event: o.event, after: o.after === true };
}
