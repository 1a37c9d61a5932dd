// Shared by the DAP tests: builds the standalone adapter, starts Microsoft's DebugClient against
// `node dist/debug-adapter.js` over stdio, and reads the fixtures independently of the engine
// (trace lines, machin's own recorded outputs) so the adapter is checked against them. machin is
// the real one (test/support/machin.ts builds it).
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureBuilt } from '../support/built';
import { alwaysPrinted, expectedPosition, MACHIN_BIN, machinPath, probeLines, scheduleOf } from '../support/machin';
import { MACHIN_FIXTURES as SHARED_MACHIN_FIXTURES, TIN_FIXTURES as SHARED_TIN_FIXTURES } from '../support/paths';

export const ROOT = path.resolve(__dirname, '../..');
export const ADAPTER = path.join(ROOT, 'dist/debug-adapter.js');
// Where test/support/paths.ts finds them (FROZEN_RUN_SHARED for a checkout without ../shared beside it).
export const MACHIN_FIXTURES = SHARED_MACHIN_FIXTURES;
export const TIN_FIXTURES = SHARED_TIN_FIXTURES;
export const FIXTURE_KEY = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');

/** dist/debug-adapter.js as `npm run build` makes it (test/support/built.ts). */
export async function buildAdapter(): Promise<void> {
  ensureBuilt();
}

export interface Session {
  dc: DebugClient;
  capabilities: DebugProtocol.Capabilities;
  events: DebugProtocol.Event[];
  output: string[];
}

/**
 * Start the standalone adapter. `env` replaces the adapter's environment (PATH without machin by
 * default, so "trace only" really has no toolchain).
 */
export async function startAdapter(env: NodeJS.ProcessEnv = noMachinEnv()): Promise<Session> {
  await buildAdapter();
  const dc = new DebugClient('node', ADAPTER, 'frozen-run', { env, cwd: ROOT }, true);
  dc.defaultTimeout = 20_000;
  await dc.start();
  const events: DebugProtocol.Event[] = [];
  const output: string[] = [];
  for (const name of ['frozenRun/cursor', 'frozenRun/causalChain', 'frozenRun/toolchain', 'frozenRun/statements', 'stopped']) {
    dc.on(name, (e: DebugProtocol.Event) => events.push(e));
  }
  dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
  const init = await dc.initializeRequest({ adapterID: 'frozen-run', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path', supportsVariableType: true });
  return { dc, capabilities: init.body ?? {}, events, output };
}

export function noMachinEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.tmpdir(), ...extra };
  return env;
}

/** The real machin first on PATH (built on first use). */
export function machinEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  machinPath();
  return noMachinEnv({ PATH: `${MACHIN_BIN}:/usr/local/bin:/usr/bin:/bin`, ...extra });
}

/** Launch, answer `initialized` with breakpoints set by `configure`, and wait for the first stop. */
export async function launchAndStop(
  s: Session,
  args: Record<string, unknown>,
  configure: (dc: DebugClient) => Promise<unknown> = async () => undefined,
): Promise<DebugProtocol.StoppedEvent> {
  const stopped = s.dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
  const init = s.dc.waitForEvent('initialized').then(async () => {
    await configure(s.dc);
    await s.dc.configurationDoneRequest();
  });
  await Promise.all([s.dc.launchRequest(args as DebugProtocol.LaunchRequestArguments), init]);
  return stopped;
}

/** Send a moving request and wait for the stop it causes. */
export async function moveAndStop(s: Session, send: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const stopped = s.dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
  await send();
  return stopped;
}

export interface Where {
  line: number;
  name: string;
  threadId: number;
  position: number;
}

/** The top frame of a thread (line in the served document) and the cursor position from the last cursor event. */
export async function topFrame(s: Session, threadId: number): Promise<{ line: number; name: string; source?: DebugProtocol.Source; frames: DebugProtocol.StackFrame[] }> {
  const st = await s.dc.stackTraceRequest({ threadId });
  const f = st.body.stackFrames[0];
  return { line: f.line, name: f.name, source: f.source, frames: st.body.stackFrames };
}

export function lastCursor(s: Session): { position: number; total: number; record: number; line: number | null; thread: string; threadId: number; reason: string; atStart: boolean; atEnd: boolean } {
  const c = [...s.events].reverse().find((e) => e.event === 'frozenRun/cursor');
  if (!c) throw new Error('no frozenRun/cursor event yet');
  return c.body;
}

/** The variables of a scope, by its name or (a RegExp) a pattern of it. */
export async function variablesOf(s: Session, frameId: number, scopeName: string | RegExp): Promise<Record<string, string>> {
  return Object.fromEntries((await typedVariablesOf(s, frameId, scopeName)).map((v) => [v.name, v.value]));
}

/** The variables of a scope with their DAP type (`this replay only` marks a value machin may not print in another replay). */
export async function typedVariablesOf(s: Session, frameId: number, scopeName: string | RegExp): Promise<Array<{ name: string; value: string; type?: string }>> {
  const scopes = await s.dc.scopesRequest({ frameId });
  const scope = scopes.body.scopes.find((x) => (typeof scopeName === 'string' ? x.name === scopeName : scopeName.test(x.name)));
  if (!scope) return [];
  const vars = await s.dc.variablesRequest({ variablesReference: scope.variablesReference });
  return vars.body.variables.map((v) => ({ name: v.name, value: v.value, type: v.type }));
}

// ----- fixtures, read independently of the engine -----

export interface TraceLine {
  line: number;
  tag: 'S' | 'I';
  goroutine: string;
}

/** The record lines of a trace file (1-based line numbers), as the format document defines them. */
export function traceRecords(file: string): TraceLine[] {
  const lines = readFileSync(file, 'latin1').split('\n');
  const out: TraceLine[] = [];
  lines.forEach((l, i) => {
    const m = /^(S|I) ([0-9.]+)(?: |$)/.exec(l.replace(/\r$/, ''));
    if (m && (m[1] === 'I' || /^[0-9]+(\.[0-9]+)*$/.test(m[2]))) out.push({ line: i + 1, tag: m[1] as 'S' | 'I', goroutine: m[2] });
  });
  return out;
}

export interface MachinFixture {
  name: string;
  dir: string;
  trace: string;
  program: string;
  /** machin's own `--json` panic, when the run panicked. */
  panic: { panic: string; goroutine: string; scheduleOp: number; scheduleTotal: number; causalChain: string[] } | null;
  /** machin's own `--print` probes printed in every replay, each `op` its position by docs/value-positions.md (not machin's racy @op). */
  probes: Array<{ goroutine: string; name: string; value: string; op: number }>;
}

export function machinFixtures(): MachinFixture[] {
  const out: MachinFixture[] = [];
  for (const d of readdirSync(MACHIN_FIXTURES).sort()) {
    const dir = path.join(MACHIN_FIXTURES, d);
    if (!statSync(dir).isDirectory()) continue;
    const outputs = JSON.parse(readFileSync(path.join(dir, 'outputs.json'), 'utf8'));
    const program = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.mfl'))!);
    const perTrace: Array<[string, Array<{ args: string[]; stderr: string }>]> = Array.isArray(outputs.replays)
      ? [[readdirSync(dir).find((f) => f.endsWith('.mflrr'))!, outputs.replays]]
      : Object.entries(outputs as Record<string, Record<string, { stderr: string }>>).filter(([k]) => k.endsWith('.mflrr')).map(([trace, by]) => [
          trace,
          Object.entries(by).map(([cmd, r]) => ({ args: cmd.split(' '), stderr: r.stderr })),
        ]);
    for (const [trace, replays] of perTrace) {
      const json = replays.find((r) => r.args.includes('--json'));
      const jsonLine = json?.stderr.split('\n').find((l) => l.startsWith('{'));
      const print = replays.find((r) => r.args.includes('--print'));
      const schedule = scheduleOf(path.join(dir, trace));
      const panic = jsonLine ? JSON.parse(jsonLine) : null;
      const probes = probeLines(print?.stderr ?? '')
        .filter((p) => alwaysPrinted(schedule, p.goroutine, p.op, panic?.goroutine ?? '0'))
        .map((p) => ({ ...p, op: expectedPosition(schedule, p.goroutine, p.op) }));
      out.push({ name: `${d}/${trace}`, dir, trace: path.join(dir, trace), program, panic, probes });
    }
  }
  return out;
}

/** Copy a fixture trace and its program into a fresh temp folder (the trace's program path does not exist here). */
export function copyFixture(f: MachinFixture): { dir: string; trace: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'frozen-run-dap-'));
  copyFileSync(f.trace, path.join(dir, path.basename(f.trace)));
  copyFileSync(f.program, path.join(dir, path.basename(f.program)));
  return { dir, trace: path.join(dir, path.basename(f.trace)) };
}

export function exists(p: string): boolean {
  return existsSync(p);
}

/**
 * Send a request and resolve with the whole response, failed or not (DebugClient rejects a failed
 * one with its message only; this shows `body.error`, e.g. whether VS Code would notify).
 */
export function rawRequest(dc: DebugClient, command: string, args: object): Promise<DebugProtocol.Response> {
  const client = dc as unknown as { doSend(command: string, args: object, clb: (r: DebugProtocol.Response) => void): void };
  return new Promise((resolve) => client.doSend(command, args, resolve));
}
