// Inline values in program sources (`.mfl`) during a session: the watched variables of the
// current goroutine as of the cursor, beside the lines of the function it runs. The values come
// from the extension (frozenRun/cursorValues), which forwards the debug adapter's cursor events.
import type { InlineValue, InlineValueParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CursorValuesParams } from './protocol';
import { normalizeUri } from './run-facts';

/** The same file, also when one side names it `vscode-remote://HOST/path` and the other `file:///path`. */
function sameFile(a: string, b: string): boolean {
  const x = normalizeUri(a);
  const y = normalizeUri(b);
  if (x === y) return true;
  const path = (u: string) => /^(?:file|vscode-remote):\/\/[^/]*(\/.*)$/.exec(u)?.[1];
  return path(x) !== undefined && path(x) === path(y);
}

/** Longest value text shown inline. */
const MAX_VALUE = 80;
const MAX_LINES = 2000;

export function inlineValues(doc: TextDocument, params: InlineValueParams, cursor: CursorValuesParams | null): InlineValue[] {
  if (!cursor || !sameFile(cursor.programUri, doc.uri)) return [];
  if (cursor.assignedLines) return atAssignments(doc, params, cursor, cursor.assignedLines);
  let first = params.range.start.line;
  let last = Math.min(params.range.end.line, doc.lineCount - 1, first + MAX_LINES - 1);
  const fn = cursor.functionRange ?? (cursor.functionLine !== undefined ? functionRangeAt(doc, cursor.functionLine) : undefined);
  if (fn) {
    first = Math.max(first, fn.startLine);
    last = Math.min(last, fn.endLine);
  }
  const names = Object.keys(cursor.values).filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (names.length === 0 || first > last) return [];
  const pattern = new RegExp(`(?<![A-Za-z0-9_.])(${names.map(escape).join('|')})(?![A-Za-z0-9_])`, 'g');
  const out: InlineValue[] = [];
  for (let line = first; line <= last; line++) {
    const text = codeOf(doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }));
    const seen = new Set<string>();
    for (const m of text.matchAll(pattern)) {
      const name = m[1];
      if (seen.has(name)) continue;
      seen.add(name);
      const value = cursor.values[name];
      out.push({
        range: { start: { line, character: m.index! }, end: { line, character: m.index! + name.length } },
        text: inlineText(name, value, cursor),
      });
    }
  }
  return out;
}

/** `name = value`, cut, and marked when machin may not print that value in another replay. */
function inlineText(name: string, value: string, cursor: CursorValuesParams): string {
  const shown = value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
  return cursor.thisReplayOnly?.includes(name) ? `${name} = ${shown} (this replay only)` : `${name} = ${shown}`;
}

/**
 * Source level: each value beside the statement that stored it (the adapter says which line), on
 * the name where that line spells it, else at the line's end.
 */
function atAssignments(doc: TextDocument, params: InlineValueParams, cursor: CursorValuesParams, lines: Record<string, number>): InlineValue[] {
  const out: InlineValue[] = [];
  for (const [name, value] of Object.entries(cursor.values)) {
    const line = lines[name];
    if (line === undefined || line < params.range.start.line || line > params.range.end.line || line >= doc.lineCount) continue;
    const text = codeOf(doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }));
    const m = new RegExp(`(?<![A-Za-z0-9_.])${escape(name)}(?![A-Za-z0-9_])`).exec(text);
    const at = m ? m.index : text.replace(/\r?\n$/, '').length;
    out.push({ range: { start: { line, character: at }, end: { line, character: at + (m ? name.length : 0) } }, text: inlineText(name, value, cursor) });
  }
  return out.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
}

/**
 * The lines of the function declared on `line`: from there to the brace that closes its body
 * (machin, like Go, delimits bodies with braces). Strings and comments are skipped.
 */
export function functionRangeAt(doc: TextDocument, line: number): { startLine: number; endLine: number } {
  let depth = 0;
  let opened = false;
  const stop = Math.min(doc.lineCount - 1, line + MAX_LINES);
  for (let l = Math.max(0, line); l <= stop; l++) {
    for (const c of codeOf(doc.getText({ start: { line: l, character: 0 }, end: { line: l + 1, character: 0 } }))) {
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}' && opened && --depth === 0) {
        return { startLine: line, endLine: l };
      }
    }
  }
  return { startLine: line, endLine: stop };
}

/** The line without its string literals and `//` comment (blanked, so columns stay put). */
function codeOf(line: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') {
        out += '  ';
        i++;
        continue;
      }
      if (c === quote) quote = '';
      out += ' ';
    } else if (c === '"' || c === '`' || c === "'") {
      quote = c;
      out += ' ';
    } else if (c === '/' && line[i + 1] === '/') {
      break;
    } else {
      out += c;
    }
  }
  return out.replace(/\r?\n$/, '');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
