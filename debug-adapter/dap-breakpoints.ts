// A setBreakpoints request's breakpoints as the runtime takes them (the debugger's lines and
// columns), and the runtime's answers (breakpoint-routing.ts) as the client's DAP breakpoints.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { BreakpointFile, PlacedBreakpoint, WantedBreakpoint } from './breakpoint-routing';
import type { PlaceConversion } from './place-conversion';

export function wantedBreakpoints(args: DebugProtocol.SetBreakpointsArguments, toDebugger: PlaceConversion): WantedBreakpoint[] {
  const wanted = (args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }))) as DebugProtocol.SourceBreakpoint[];
  return wanted.map((b) => ({ ...b, line: toDebugger.line(b.line), column: b.column === undefined ? undefined : toDebugger.column(b.column) }));
}

/** A breakpoint the runtime answered, in the client's lines and columns; `source`: the file it went to (none when it waits or went nowhere). */
export function dapBreakpoint(b: PlacedBreakpoint, toClient: PlaceConversion, source?: BreakpointFile): DebugProtocol.Breakpoint {
  const line = b.line !== undefined ? toClient.line(b.line) : undefined;
  // (Each kind with its fields in the order the adapter has always sent them.)
  if (!source) return { ...(b.id !== undefined ? { id: b.id } : {}), verified: b.verified, line, message: b.message };
  return { id: b.id, verified: b.verified, message: b.message, line, ...(b.column !== undefined ? { column: toClient.column(b.column) } : {}), source };
}
