// A language client for tests, built on Microsoft's protocol library: spawns the standalone
// server (`node language-server.js --stdio`, bundled with the options of scripts/build.mjs) and
// talks LSP to it over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';
import {
  CodeLensRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExitNotification,
  FoldingRangeRequest,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InlayHintRequest,
  InlineValueRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type CodeLens,
  type Diagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type InlayHint,
  type InlineValue,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { SHARED } from '../../support/paths';

export const ROOT = join(__dirname, '..', '..', '..');
// The shared material as every test finds it (test/support/paths.ts: FROZEN_RUN_SHARED, else ../shared).
export const FIXTURES = join(SHARED, 'fixtures');
export const MACHIN_FIXTURES = join(FIXTURES, 'machin');

let built: Promise<string> | undefined;

/** Bundles language-server/main.ts once per test process into a private folder. */
export function buildServer(): Promise<string> {
  built ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'frozen-run-lsp-'));
    await build({
      entryPoints: { 'language-server': join(ROOT, 'language-server/main.ts') },
      outdir,
      bundle: true,
      sourcemap: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
    // esbuild's service process would keep the test process alive for seconds after the tests.
    await stopEsbuild();
    return join(outdir, 'language-server.js');
  })();
  return built;
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

export class LspClient {
  private versions = new Map<string, number>();
  private diagnostics = new Map<string, PublishDiagnosticsParams>();
  private waiters: Array<{ uri: string; version?: number; resolve: (d: Diagnostic[]) => void }> = [];

  private constructor(
    readonly connection: ProtocolConnection,
    private readonly child: ChildProcess,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.set(p.uri, p);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri !== p.uri || (w.version !== undefined && p.version !== undefined && p.version < w.version)) return true;
        w.resolve(p.diagnostics);
        return false;
      });
    });
  }

  static async start(options: { foldingRangeLimit?: number } = {}): Promise<LspClient> {
    const server = await buildServer();
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.listen();
    const client = new LspClient(connection, child);
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {
        textDocument: {
          foldingRange: { rangeLimit: options.foldingRangeLimit ?? 5000 },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          inlayHint: {},
          inlineValue: {},
          codeLens: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          synchronization: { didSave: false },
          publishDiagnostics: { versionSupport: true },
        },
      },
      workspaceFolders: null,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Opens a document; resolves with its first diagnostics. */
  open(uri: string, text: string, languageId = 'mflrr'): Promise<Diagnostic[]> {
    this.versions.set(uri, 1);
    const first = this.nextDiagnostics(uri, 1);
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return first;
  }

  /** Opens a document that publishes no diagnostics (a program source). */
  async openQuiet(uri: string, text: string, languageId: string): Promise<void> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Sends edits; resolves with the diagnostics published for the new version. */
  change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const next = this.nextDiagnostics(uri, version);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    return next;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** CPU time the server process has used so far, in ms (Linux /proc; undefined elsewhere). */
  serverCpuMs(): number | undefined {
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return undefined;
    }
  }

  /** The last diagnostics published for a document, if any were. */
  published(uri: string): Diagnostic[] | undefined {
    return this.diagnostics.get(uri)?.diagnostics;
  }

  private nextDiagnostics(uri: string, version: number): Promise<Diagnostic[]> {
    return new Promise((resolve) => this.waiters.push({ uri, version, resolve }));
  }

  hover(uri: string, line: number, character = 0): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  async inlayHints(uri: string, range: Range): Promise<InlayHint[]> {
    return (await this.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range })) ?? [];
  }

  async symbols(uri: string): Promise<DocumentSymbol[]> {
    return ((await this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) ?? []) as DocumentSymbol[];
  }

  async folding(uri: string): Promise<FoldingRange[]> {
    return (await this.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } })) ?? [];
  }

  async lenses(uri: string): Promise<CodeLens[]> {
    return (await this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
  }

  async inlineValues(uri: string, range: Range, stoppedLine: number): Promise<InlineValue[]> {
    const stoppedLocation = { start: { line: stoppedLine, character: 0 }, end: { line: stoppedLine, character: 0 } };
    return (await this.connection.sendRequest(InlineValueRequest.type, { textDocument: { uri }, range, context: { frameId: 1, stoppedLocation } })) ?? [];
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000).unref())]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // the server may already be gone
    }
    this.connection.dispose();
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.child.kill();
          resolve();
        }, 2000);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
  }
}

/** Markdown text of a hover. */
export function hoverText(h: Hover | null): string {
  if (!h) return '';
  const c = h.contents;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n');
  return c.value;
}

export function labelText(h: InlayHint): string {
  return typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
}

export function wholeDocument(lines: number): Range {
  return { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } };
}
