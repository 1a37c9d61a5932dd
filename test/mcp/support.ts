// Drives the MCP server as an agent's client does: the SDK's own Client over stdio
// (StdioClientTransport), spawning `node dist/cli.js mcp`. Both bundles are built once with the
// options of scripts/build.mjs. Also runs the CLI, so answers can be held against it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths';
import { ensureBuilt } from '../support/built';
import { machinPath } from '../support/machin';

export const CLI = join(REPO_ROOT, 'dist', 'cli.js');
/** The real machin 0.137.0 (built once per checkout by test/support/machin.ts). */
export const MACHIN = machinPath();

/** dist/cli.js and dist/mcp-server.js as `npm run build` makes them (test/support/built.ts). */
export async function buildServer(): Promise<void> {
  ensureBuilt();
}

/** An environment with no key and no machin unless given. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TIN_REPLAY_KEY' && k !== 'MACHIN') env[k] = v;
  return { ...env, ...extra };
}

export interface ToolReply {
  isError: boolean;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export class McpSession {
  /** The roots the client answers roots/list with (file:// URIs), when it was started with roots. */
  roots: string[] = [];

  private constructor(readonly client: Client, readonly transport: StdioClientTransport, readonly stderr: () => string) {}

  /** `options.roots`: the client declares the roots capability and answers roots/list with these. */
  static async start(args: string[] = [], env: Record<string, string> = cleanEnv(), options: { roots?: string[] } = {}): Promise<McpSession> {
    await buildServer();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env, stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const client = new Client({ name: 'frozen-run-tests', version: '1.0.0' }, options.roots ? { capabilities: { roots: { listChanged: true } } } : {});
    let session: McpSession | undefined;
    if (options.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: (session?.roots ?? options.roots!).map((uri) => ({ uri })) }));
    await client.connect(transport);
    // Listing the tools makes the client check every structuredContent against its outputSchema.
    await client.listTools();
    session = new McpSession(client, transport, () => err);
    session.roots = options.roots ?? [];
    return session;
  }

  /** Change the client's roots and tell the server (notifications/roots/list_changed). */
  async setRoots(roots: string[]): Promise<void> {
    this.roots = roots;
    await this.client.sendRootsListChanged();
  }

  /** The server's process id. */
  get pid(): number {
    return this.transport.pid!;
  }

  async call(name: string, args: Record<string, unknown>, options: RequestOptions = {}): Promise<ToolReply> {
    const r = await this.client.callTool({ name, arguments: args }, undefined, options);
    const content = r.content as Array<{ type: string; text: string }>;
    const text = content.map((c) => c.text).join('');
    let json: unknown = undefined;
    if (!r.isError) {
      json = JSON.parse(text);
      // Structured output: the same JSON as the text block (the client checked it against the tool's outputSchema).
      assert.deepEqual(r.structuredContent, json, `${name}: structuredContent differs from the text`);
    }
    return { isError: r.isError === true, text, json };
  }

  /** A call that must succeed: its JSON. */
  async ok(name: string, args: Record<string, unknown>): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const r = await this.call(name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.text}`);
    return r.json;
  }

  /** A call that must fail: its one-line message. */
  async error(name: string, args: Record<string, unknown>): Promise<string> {
    const r = await this.call(name, args);
    if (!r.isError) throw new Error(`${name} should have failed, answered ${r.text.slice(0, 300)}`);
    return r.text;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** `frozen-run ARGS --json`, parsed; throws with stderr when it fails. */
export function cliJson(args: string[], env: Record<string, string> = cleanEnv()): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8', env, timeout: 60_000 });
  if (r.status !== 0 && !(args[0] === 'secret' && r.status === 3)) throw new Error(`frozen-run ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export function cliError(args: string[], env: Record<string, string> = cleanEnv()): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  if (r.status === 0) throw new Error(`frozen-run ${args.join(' ')} should have failed`);
  return r.stderr.split('\n')[0].replace(/^frozen-run: /, '');
}

/** Every record list_records gives for `args`, following nextRecord page after page. */
export async function allRecords(s: McpSession, args: Record<string, unknown>): Promise<any[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const out: unknown[] = [];
  let from = args.from_record as number | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await s.ok('list_records', { ...args, ...(from !== undefined ? { from_record: from } : {}) });
    out.push(...page.records);
    if (page.nextRecord === null) return out;
    from = page.nextRecord;
  }
  throw new Error('list_records never ended');
}

/** A causal chain's run-length entries as one thread id per step. */
export function expandChain(entries: Array<string | { thread: string; repeat: number }>): string[] {
  return entries.flatMap((e) => (typeof e === 'string' ? [e] : Array.from({ length: e.repeat }, () => e.thread)));
}

export { assertSecurityRow } from '../support/security-row';

/** A JSON Schema as the SDK lists a tool's outputSchema (the parts `undeclared` reads). */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/**
 * The fields of an answer its tool's outputSchema does not name (`threads.items[].location`), so
 * a test can hold that every field an agent is told of is declared, not only let through by the
 * schemas' open objects. A record of names (`values`, `locals`) declares its keys by its value type.
 */
export function undeclared(schema: JsonSchema, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const branches = schema.anyOf ?? [schema];
  if (Array.isArray(value)) {
    const s = branches.find((b) => b.items);
    return s ? [...new Set(value.flatMap((v) => undeclared(s.items!, v, `${path}[]`)))] : [`${path}[]`];
  }
  const s = branches.find((b) => b.properties || typeof b.additionalProperties === 'object');
  if (!s) return [path];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (!p) out.push(`${path}.${k}`);
    else out.push(...undeclared(p, v, `${path}.${k}`));
  }
  return out;
}
