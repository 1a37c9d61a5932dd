// The Frozen Run language server: wires LSP requests to the per-document indexes. Trace text
// (`.mflrr`) and decoded capsule documents get diagnostics, hovers, inlay hints, an outline,
// folding and code lenses; program sources (`.mfl`) get inline values during a debug session.
import {
  NotificationType,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { capsuleFoldingRanges, capsuleHover, capsuleInlayHints, capsuleLenses, capsuleSymbols } from './capsule-views';
import { toDiagnostics } from './diagnostics';
import { DocumentStore, type OpenDocument } from './document-store';
import { inlineValues } from './inline-values';
import { CURSOR_VALUES_NOTIFICATION, RUN_FACTS_NOTIFICATION, type CursorValuesParams, type RunFactsParams } from './protocol';
import { RunFactsStore } from './run-facts';
import { traceHover } from './trace-hover';
import { traceInlayHints } from './trace-inlay-hints';
import { traceLenses } from './trace-lenses';
import { traceFoldingRanges, traceSymbols } from './trace-outline';

/** Diagnostics wait this long after the last edit, so typing does not publish on every key. */
const DIAGNOSTICS_DELAY_MS = 150;

export function startServer(connection: Connection): void {
  const store = new DocumentStore();
  const facts = new RunFactsStore();
  const pending = new Map<string, NodeJS.Timeout>();
  let foldingLimit = 5000;
  let inlineValueRefresh = false;
  let inlayHintRefresh = false;
  let codeLensRefresh = false;

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    foldingLimit = caps.textDocument?.foldingRange?.rangeLimit ?? foldingLimit;
    inlineValueRefresh = caps.workspace?.inlineValue?.refreshSupport === true;
    inlayHintRefresh = caps.workspace?.inlayHint?.refreshSupport === true;
    codeLensRefresh = caps.workspace?.codeLens?.refreshSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        inlayHintProvider: true,
        documentSymbolProvider: { label: 'Frozen Run' },
        foldingRangeProvider: true,
        codeLensProvider: { resolveProvider: false },
        inlineValueProvider: true,
      },
      serverInfo: { name: 'frozen-run-language-server', version: '0.1.0' },
    };
  });

  const publish = (entry: OpenDocument) => {
    const { doc, index } = entry;
    if (index.kind === 'source') return;
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: toDiagnostics(index.index.allProblems()) });
  };

  const isRecording = (entry: OpenDocument) => entry.index.kind !== 'source';

  connection.onDidOpenTextDocument((params) => {
    const entry = store.open(params);
    if (isRecording(entry)) publish(entry);
  });

  connection.onDidChangeTextDocument((params) => {
    const entry = store.change(params);
    if (!entry || !isRecording(entry)) return;
    const uri = entry.doc.uri;
    clearTimeout(pending.get(uri));
    pending.set(uri, setTimeout(() => {
      pending.delete(uri);
      const current = store.get(uri);
      if (current) publish(current);
    }, DIAGNOSTICS_DELAY_MS));
  });

  connection.onDidCloseTextDocument((params) => {
    clearTimeout(pending.get(params.textDocument.uri));
    pending.delete(params.textDocument.uri);
    store.close(params.textDocument.uri);
    void connection.sendDiagnostics({ uri: params.textDocument.uri, diagnostics: [] });
  });

  const recording = (uri: string) => {
    const entry = store.get(uri);
    if (!entry || entry.index.kind === 'source') return undefined;
    return { doc: entry.doc, index: entry.index };
  };

  connection.onHover((params) => {
    const entry = recording(params.textDocument.uri);
    if (!entry) return null;
    const line = params.position.line;
    return entry.index.kind === 'trace'
      ? traceHover(entry.doc, entry.index.index, facts, line)
      : capsuleHover(entry.doc.uri, entry.index.index, facts, line);
  });

  connection.languages.inlayHint.on((params) => {
    const entry = recording(params.textDocument.uri);
    if (!entry) return [];
    return entry.index.kind === 'trace'
      ? traceInlayHints(entry.doc, entry.index.index, facts, params.range)
      : capsuleInlayHints(entry.doc.uri, entry.index.index, facts, params.range);
  });

  connection.onDocumentSymbol((params) => {
    const entry = recording(params.textDocument.uri);
    if (!entry) return [];
    return entry.index.kind === 'trace'
      ? traceSymbols(entry.doc.uri, entry.index.index, facts)
      : capsuleSymbols(entry.doc.uri, entry.index.index, facts);
  });

  connection.onFoldingRanges((params) => {
    const entry = recording(params.textDocument.uri);
    if (!entry) return [];
    return entry.index.kind === 'trace' ? traceFoldingRanges(entry.index.index, foldingLimit) : capsuleFoldingRanges(entry.index.index, foldingLimit);
  });

  connection.onCodeLens((params) => {
    const entry = recording(params.textDocument.uri);
    if (!entry) return [];
    return entry.index.kind === 'trace' ? traceLenses(entry.doc.uri, entry.index.index, facts) : capsuleLenses(entry.doc.uri, entry.index.index, facts);
  });

  connection.languages.inlineValue.on((params) => {
    const entry = store.get(params.textDocument.uri);
    if (!entry) return [];
    return inlineValues(entry.doc, params, facts.cursor);
  });

  connection.onNotification(new NotificationType<RunFactsParams>(RUN_FACTS_NOTIFICATION), (params) => {
    if (!params || typeof params.uri !== 'string') return;
    facts.update(params);
    // Hovers read the facts when asked; lenses and hints are cached by the client, so ask again.
    if (codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    if (inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
  });

  connection.onNotification(new NotificationType<CursorValuesParams>(CURSOR_VALUES_NOTIFICATION), (params) => {
    if (!params || typeof params.programUri !== 'string' || typeof params.values !== 'object' || params.values === null) return;
    facts.setCursor(params);
    if (inlineValueRefresh) void connection.languages.inlineValue.refresh().catch(() => undefined);
  });

  connection.listen();
}
