// The MCP server: `frozen-run mcp` (the CLI loads this bundle, dist/mcp-server.js) or
// `node dist/mcp-server.js`, speaking the Model Context Protocol over stdin/stdout. It is a peer of
// the debug adapter: the same engine and the same replay runtime, holding recordings open between
// tool calls. Nothing but protocol goes to stdout; a usage error is one line on stderr, exit 2.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../package.json';
import { UsageError } from '../replay-engine/model/errors';
import { killAllProcessesNow, stopAllProcesses } from '../replay-engine/toolchain/run-process';
import { oneLine } from './answer';
import { ClientRoots } from './client-roots';
import { setPageBytes } from './fit-answer';
import { HeldRecordings } from './held-recordings';
import { registerRecordingResources } from './resources';
import { MCP_USAGE, parseServerOptions } from './server-options';
import { LineTransport } from './stdio-transport';
import { registerTools } from './tools';

const INSTRUCTIONS =
  'Frozen Run holds recorded runs (machin traces .mflrr, Tin capsules .tcap) open so you can read a crash instead of re-running it. ' +
  'Start with open_recording (the panic, causal chain and threads), then get_state at a position, move to step or run both ways, ' +
  'variable_history and find_value_change for values, list_records for the records themselves. Positions count completed schedule ops (or effects).';

/** Resolves when the server has stopped (it then exits the process). */
let resolveStopped: () => void = () => undefined;
const stopped = new Promise<void>((r) => (resolveStopped = r));

/** Start the server on stdio; resolves once it is connected. */
export async function startMcpServer(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${MCP_USAGE}\n`);
    return;
  }
  const options = parseServerOptions(argv);
  setPageBytes(options.pageBytes);
  const server = new McpServer(
    { name: 'frozen-run', version },
    { instructions: INSTRUCTIONS, capabilities: { resources: { listChanged: true } } },
  );
  const roots = new ClientRoots(options.roots, options.programRoots);
  const held = new HeldRecordings(options.open, roots);
  registerTools(server, held, options.toolchain);
  registerRecordingResources(server, held, options.toolchain);
  askRootsWhenReady(server, roots);
  const transport = new LineTransport();
  // The client went away (stdin ended) or a signal came: machin's groups end, copies go, then exit.
  transport.onclose = () => void shutDown(held, 0, 'the client closed the connection');
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
    process.on(signal, () => void shutDown(held, code, `stopped by ${signal}`));
  }
  await server.connect(transport);
  // The SDK logs transport errors nowhere; one line on stderr says what was refused.
  transport.onerror = (err) => process.stderr.write(`frozen-run mcp: ${oneLine(err.message)}\n`);
}

/** Roots bound the opens: asked once the client is initialized and again whenever it says they changed. */
function askRootsWhenReady(server: McpServer, roots: ClientRoots): void {
  const low = server.server;
  const ask = async () => {
    if (!low.getClientCapabilities()?.roots) return roots.setClientRoots(null);
    try {
      const r = await low.listRoots(undefined, { timeout: 10_000 });
      roots.setClientRoots(r.roots.map((x) => x.uri));
    } catch {
      roots.setClientRoots(null);
    }
  };
  low.oninitialized = () => void (roots.asking = ask());
  low.setNotificationHandler(RootsListChangedNotificationSchema, () => void (roots.asking = ask()));
}

let stopping = false;

/**
 * Ends the server: every open under way is cancelled (machin's process group gets SIGTERM, then
 * SIGKILL after 500 ms), waited for until its temporary copies are removed, then the process
 * exits. A second signal, or a stop that takes more than 5 s, kills the groups at once.
 */
async function shutDown(held: HeldRecordings, code: number, why: string): Promise<void> {
  if (stopping) {
    killAllProcessesNow();
    process.exit(code);
  }
  stopping = true;
  const late = setTimeout(() => {
    killAllProcessesNow();
    process.stderr.write(`frozen-run mcp: ${why}: stopping took over 5 s, so machin's process groups were killed at once\n`);
    process.exit(code);
  }, 5_000);
  const busy = held.opening;
  try {
    await Promise.all([held.stopAll(), stopAllProcesses()]);
  } finally {
    clearTimeout(late);
    if (busy > 0) process.stderr.write(`frozen-run mcp: ${why}: machin and every process it started were stopped, and the temporary copies removed\n`);
    resolveStopped();
    process.exit(code);
  }
}

/**
 * The CLI's `mcp` command: usage errors as the CLI reports them (exit 2). It resolves only when
 * the server has stopped, so the CLI's own signal handling waits for the server's cleanup (machin
 * ended, copies removed) rather than exiting under it.
 */
export function runMcpCommand(argv: string[]): Promise<number> {
  const help = argv.includes('--help') || argv.includes('-h');
  return startMcpServer(argv).then(
    () => (help ? 0 : stopped.then(() => 0)),
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
