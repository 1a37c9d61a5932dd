// What the extension offers the editor's agents (extension/mcp-launch.ts): in a trusted workspace
// the server may run machin, within the workspace's program roots; in Restricted Mode it may not.
// The definition it describes starts a server the SDK's client can use; no key is ever in it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpLaunch } from '../../extension/mcp-launch';
import { MACHIN_FIXTURES } from '../support/paths';
import { buildServer, CLI, cleanEnv, MACHIN } from '../mcp/support';

const root = join(__dirname, '..', '..');
before(() => buildServer());

test('Restricted Mode: the server runs no toolchain; trusted: machin, the time limit and the program roots', () => {
  const base = { execPath: '/opt/code/code', cliPath: '/ext/dist/cli.js', machinPath: '/usr/bin/machin', programRoots: ['/work/app', '/work/lib'], timeLimitMs: 30_000 };
  const restricted = mcpLaunch({ ...base, trusted: false });
  assert.deepEqual(restricted.args, ['/ext/dist/cli.js', 'mcp']);
  assert.equal(restricted.command, '/opt/code/code');
  assert.equal(restricted.env.ELECTRON_RUN_AS_NODE, '1');
  const trusted = mcpLaunch({ ...base, trusted: true });
  assert.deepEqual(trusted.args, ['/ext/dist/cli.js', 'mcp', '--toolchain', '--time-limit', '30', '--machin', '/usr/bin/machin', '--program-root', '/work/app', '--program-root', '/work/lib']);
  assert.ok(!JSON.stringify(trusted).match(/key/i), 'no key option or variable');
  assert.equal(trusted.env.FROZEN_RUN_CAPSULE_LIMIT_MB, undefined);
  assert.equal(mcpLaunch({ ...base, trusted: false, capsuleSizeLimitMB: 64 }).env.FROZEN_RUN_CAPSULE_LIMIT_MB, '64', 'the capsule size limit setting reaches the server');
  assert.equal(trusted.env.FROZEN_RUN_MACHIN_CORES, undefined);
  assert.equal(mcpLaunch({ ...base, trusted: true, machinReplayCores: 'any' }).env.FROZEN_RUN_MACHIN_CORES, 'any', 'the replay CPUs setting reaches the server');
});

test('the definition starts a server an MCP client can use (trusted: machin runs, on a program in the roots)', async () => {
  const trace = join(MACHIN_FIXTURES, 'crash', 'crash.mflrr');
  for (const [roots, panics] of [[[MACHIN_FIXTURES], true], [['/nowhere'], false]] as const) {
    const launch = mcpLaunch({ execPath: process.execPath, cliPath: CLI, trusted: true, machinPath: MACHIN, programRoots: [...roots], timeLimitMs: 60_000 });
    const transport = new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...cleanEnv(), ...launch.env }, stderr: 'pipe' });
    const client = new Client({ name: 'frozen-run-tests', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: 'open_recording', arguments: { path: trace } });
      const summary = JSON.parse((r.content as Array<{ text: string }>)[0].text);
      // A program outside the roots is not run: no one is there to say yes.
      assert.equal(summary.panic !== null, panics, JSON.stringify(summary.warnings));
    } finally {
      await client.close();
    }
  }
});

test('the contributed provider id is the one the extension registers', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const ids = (pkg.contributes.mcpServerDefinitionProviders as Array<{ id: string; label: string }>).map((p) => p.id);
  const code = readFileSync(join(root, 'extension', 'mcp-provider.ts'), 'utf8');
  const registered = /MCP_PROVIDER_ID = '([^']+)'/.exec(code)?.[1];
  assert.deepEqual(ids, [registered]);
});
