// The open documents and one index per document. Edits arrive incrementally
// (TextDocumentSyncKind.Incremental); each change rescans only the lines it touched, and the
// derived facts (op numbers, totals) are recomputed lazily once, on the next request.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DidChangeTextDocumentParams, DidOpenTextDocumentParams, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { CapsuleIndex, looksLikeCapsuleDocument } from './capsule-index';
import { lastLineOf } from './line-breaks';
import { MFLRR_LANGUAGE } from './protocol';
import { TraceIndex } from './trace-index';

/** A recording's text gets an index; any other document (a program source) is only kept in sync. */
export type DocumentIndex = { kind: 'trace'; index: TraceIndex } | { kind: 'capsule'; index: CapsuleIndex } | { kind: 'source' };

export interface OpenDocument {
  doc: TextDocument;
  index: DocumentIndex;
}

export class DocumentStore {
  private docs = new Map<string, OpenDocument>();

  get(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  open(params: DidOpenTextDocumentParams): OpenDocument {
    const { uri, languageId, version, text } = params.textDocument;
    const doc = TextDocument.create(uri, languageId, version, text);
    const entry = { doc, index: indexFor(doc) };
    this.docs.set(uri, entry);
    return entry;
  }

  close(uri: string): void {
    this.docs.delete(uri);
  }

  change(params: DidChangeTextDocumentParams): OpenDocument | undefined {
    const entry = this.docs.get(params.textDocument.uri);
    if (!entry) return undefined;
    for (const change of params.contentChanges) this.apply(entry, change, params.textDocument.version);
    return entry;
  }

  private apply(entry: OpenDocument, change: TextDocumentContentChangeEvent, version: number): void {
    // TextDocument.update changes the document in place: read what the edit needs first.
    const oldLineCount = entry.doc.lineCount;
    const startOffset = 'range' in change ? entry.doc.offsetAt(change.range.start) : 0;
    entry.doc = TextDocument.update(entry.doc, [change], version);
    if (entry.index.kind === 'source') return;
    if (!('range' in change) || entry.index.kind !== 'trace') {
      // A whole-document change, or a capsule document (generated text, replaced whole).
      entry.index = indexFor(entry.doc);
      return;
    }
    const { start, end } = change.range;
    const doc = entry.doc;
    const index = entry.index.index;
    const text = doc.getText();
    // The lines the change spans now, as the document counts them after the update, plus one line
    // on each side: a `\r` before the change and a `\n` at its start (or the other way round)
    // join into one line break, which changes the line next to the edit.
    const lastNew = doc.positionAt(startOffset + change.text.length).line;
    const from = Math.max(0, start.line - 1);
    const afterOld = end.line + 1 < oldLineCount;
    const afterNew = lastNew + 1 < doc.lineCount;
    const toNew = afterNew ? lastNew + 1 : lastNew;
    const removed = (afterOld ? end.line + 1 : end.line) - from + 1;
    const linesText = doc.getText({ start: { line: from, character: 0 }, end: { line: toNew + 1, character: 0 } });
    const ok = afterOld === afterNew && index.replaceLines(from, removed, toNew - from + 1, linesText, lastLineOf(text));
    if (!ok || index.table.length !== doc.lineCount) index.rescanAll(text);
  }
}

function indexFor(doc: TextDocument): DocumentIndex {
  const text = doc.getText();
  if (looksLikeCapsuleDocument(doc.uri, doc.languageId, text)) return { kind: 'capsule', index: new CapsuleIndex(text) };
  if (isTraceDocument(doc.uri, doc.languageId)) return { kind: 'trace', index: new TraceIndex(text) };
  return { kind: 'source' };
}

/** Trace text: the `mflrr` language (also the adapter's `debug:` documents), or a `.mflrr` path. */
function isTraceDocument(uri: string, languageId: string): boolean {
  return languageId === MFLRR_LANGUAGE || /\.mflrr$/i.test(uri.split(/[?#]/)[0]);
}
