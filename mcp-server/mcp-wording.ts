// The engine's messages name the ways the editor and the CLI give things (a VS Code command, a
// setting, `--key HEX`, `--program`); an agent talking to this server has other ways: the server's
// environment and flags, and open_recording's `program` argument. Each phrase is said for MCP here,
// in errors and in the warnings of an answer.
const PHRASES: Array<[RegExp, string]> = [
  [/run "Frozen Run: Set Capsule Key", set the TIN_REPLAY_KEY environment variable, or pass --key HEX \(or --key-file FILE\)\./g,
    'start this MCP server with TIN_REPLAY_KEY in its environment or with --key-file FILE (no tool takes a key).'],
  [/set `frozenRun\.machinPath` \(CLI: --machin PATH\) or the MACHIN environment variable to its path/g,
    'start this MCP server with --machin PATH or with MACHIN in its environment'],
  [/\(setting frozenRun\.machinPath \/ --machin\)/g, '(--machin)'],
  [/raise the setting frozenRun\.timeLimitSeconds \(on the command line, --time-limit SECONDS\)/g, 'start this MCP server with a larger --time-limit SECONDS'],
  [/is outside the workspace and was not confirmed/g, 'is outside the program roots (--program-root, the client\'s roots) and was not confirmed'],
  [/open its folder, or name it as the program \(CLI: --program PATH\) to (run|use) it/g, "give it as open_recording's `program` argument (inside the client's roots) to $1 it (outside the trace's folder, the server needs --program-root for it)"],
  [/Step Back or Reverse Continue to go earlier\./g, 'move with step_back, step_back_in or reverse_continue to go earlier.'],
  [/set program \(launch configuration `program`, CLI --program\) to its \.mfl source/g, "give open_recording's `program` argument: the path of its .mfl source"],
  [/\(set program to choose another\)/g, "(give open_recording's `program` argument to choose another)"],
  [/ and in the workspace for /g, ' and in the program roots for '],
  [/in the workspace; using/g, 'in the program roots; using'],
  [/open it in the workspace or set program/g, "give open_recording's `program` argument (the path of the .mfl)"],
];

export function forMcp(text: string): string {
  let out = text;
  for (const [from, to] of PHRASES) out = out.replace(from, to);
  return out;
}
