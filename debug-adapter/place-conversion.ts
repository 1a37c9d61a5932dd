// Lines, columns and paths between the client's conventions and the debugger's (1-based lines and
// columns, plain paths): DebugSession's conversions, handed to the modules that read DAP
// arguments or build DAP bodies.
export interface PlaceConversion {
  line(line: number): number;
  column(column: number): number;
  path(path: string): string;
}
