// Inlay hints on trace text: `op k/N` (and the goroutine's label) after schedule records, the
// decoded value after I/O records. Only the requested range is read.
import { InlayHint, InlayHintKind } from 'vscode-languageserver';
import type { Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { RunFactsStore } from './run-facts';
import type { TraceIndex } from './trace-index';
import { ioValueAt, lineText, recordAt } from './trace-records';
import { ioPlace } from '../replay-engine/model/step-words';

/** Longest decoded text put in a hint; the hover has the rest. */
const HINT_TEXT = 60;
/** Editors ask for the visible range; a client asking for a whole 10M-line document gets a window. */
const MAX_LINES = 5000;

export function traceInlayHints(doc: TextDocument, index: TraceIndex, facts: RunFactsStore, range: Range): InlayHint[] {
  const d = index.derived;
  const hints: InlayHint[] = [];
  const last = Math.min(range.end.line, d.lines - 1, range.start.line + MAX_LINES - 1);
  const panic = facts.panic(doc.uri);
  for (let line = Math.max(0, range.start.line); line <= last; line++) {
    const r = recordAt(index, line);
    if (!r) continue;
    const text = lineText(doc, line);
    const position = { line, character: text.replace(/\r$/, '').length };
    if (r.kind === 'sched') {
      const label = facts.label(doc.uri, r.threadId, 'trace');
      const atPanic = panic && panic.position === r.ordinal + 1 ? ' · last op before the panic' : '';
      hints.push({
        position,
        label: `op ${r.ordinal}/${d.opTotal}${label ? ` · ${label}` : ''}${atPanic}`,
        kind: InlayHintKind.Parameter,
        paddingLeft: true,
      });
    } else {
      const { bytes, value } = ioValueAt(doc, index, line);
      const shown = value.text.length > HINT_TEXT ? `${value.text.slice(0, HINT_TEXT)}…` : value.text;
      hints.push({
        position,
        label: `${shown} · ${bytes} B`,
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: `I/O read ${r.ordinal + 1} of goroutine ${r.threadId}, ${ioPlace(r.opsBefore, d.opTotal, 'op')}`,
      });
    }
  }
  return hints;
}
