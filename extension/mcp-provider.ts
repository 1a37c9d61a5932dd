// Offers the MCP server to the editor's agents (Copilot's agent mode) through
// vscode.lm.registerMcpServerDefinitionProvider, where the running VS Code has it (final in 1.101).
// Where it has not, or has it only as a proposal (code-server 4.100 = VS Code 1.100 throws for
// extensions that did not enable the proposal), this says nothing: nothing else depends on it.
// @types/vscode is pinned at 1.91, so the small shape used here is declared here.
import * as vscode from 'vscode';
import { readConfig } from './config';
import { mcpLaunch } from './mcp-launch';

export const MCP_PROVIDER_ID = 'frozenRun.mcpServer';

interface McpServerDefinitionProvider {
  onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
}

type McpStdioServerDefinitionClass = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => { cwd?: vscode.Uri };

export function offerMcpServer(context: vscode.ExtensionContext): void {
  const api = vscode as unknown as { lm?: Partial<McpApi>; McpStdioServerDefinition?: McpStdioServerDefinitionClass };
  const register = api.lm?.registerMcpServerDefinitionProvider;
  const Definition = api.McpStdioServerDefinition;
  if (typeof register !== 'function' || typeof Definition !== 'function') return;
  const changed = new vscode.EventEmitter<void>();
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '');
  const provider: McpServerDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const cfg = readConfig();
      const launch = mcpLaunch({
        execPath: process.execPath,
        cliPath: context.asAbsolutePath('dist/cli.js'),
        trusted: vscode.workspace.isTrusted,
        machinPath: cfg.machinPath,
        programRoots: cfg.programRoots,
        timeLimitMs: cfg.timeLimitMs,
        capsuleSizeLimitMB: cfg.capsuleSizeLimitMB,
        machinReplayCores: cfg.machinReplayCores,
      });
      const definition = new Definition('Frozen Run', launch.command, launch.args, launch.env, version);
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (folder) definition.cwd = folder.uri;
      return [definition];
    },
  };
  try {
    context.subscriptions.push(register.call(api.lm, MCP_PROVIDER_ID, provider));
  } catch {
    changed.dispose();
    return; // a proposed API in this VS Code: say nothing
  }
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('frozenRun')) changed.fire();
    }),
  );
}
