// The MCP server: `frozen-run mcp` (the CLI loads this bundle, dist/mcp-server.js) or
// `node dist/mcp-server.js`, speaking the Model Context Protocol over stdin/stdout. It is a peer of
// the debug adapter: the same engine and the same replay runtime, holding recordings open between
// tool calls. Nothing but protocol goes to stdout; a usage error is one line on stderr, exit 2.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../package.json';
import { UsageError } from '../replay-engine/cli/args';
import { oneLine } from './answer';
import { HeldRecordings } from './held-recordings';
import { MCP_USAGE, parseServerOptions } from './server-options';
import { registerTools } from './tools';

const INSTRUCTIONS =
  'Frozen Run holds recorded runs (machin traces .mflrr, Tin capsules .tcap) open so you can read a crash instead of re-running it. ' +
  'Start with open_recording (the panic, causal chain and threads), then get_state at a position, move to step or run both ways, ' +
  'variable_history and find_value_change for values, list_records for the records themselves. Positions count completed schedule ops (or effects).';

/** Start the server on stdio; resolves once it is connected. */
export async function startMcpServer(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${MCP_USAGE}\n`);
    return;
  }
  const options = parseServerOptions(argv);
  const server = new McpServer(
    { name: 'frozen-run', version },
    { instructions: INSTRUCTIONS },
  );
  registerTools(server, new HeldRecordings(options.open), options.toolchain);
  await server.connect(new StdioServerTransport());
}

/** The CLI's `mcp` command: usage errors as the CLI reports them (exit 2). */
export function runMcpCommand(argv: string[]): Promise<number> {
  return startMcpServer(argv).then(
    () => 0,
    (err: unknown) => {
      if (err instanceof UsageError) {
        process.stderr.write(`frozen-run mcp: ${oneLine(err.message)}\n${MCP_USAGE}\n`);
        return 2;
      }
      process.stderr.write(`frozen-run mcp: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
      return 1;
    },
  );
}

if (require.main === module) {
  void runMcpCommand(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exitCode = code;
  });
}
