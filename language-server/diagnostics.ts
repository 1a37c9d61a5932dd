// Problems found by an index, as LSP diagnostics; capped so a binary file opened as a trace
// does not flood the Problems panel (the last diagnostic says how many were left out).
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { PlacedProblem } from './trace-index';

export const MAX_DIAGNOSTICS = 1000;

/**
 * Problems that cover a whole line end at a large column: LSP clients clamp a character past the
 * line's end to its length, and the server never has to find where a line ends.
 */
export function toDiagnostics(problems: PlacedProblem[]): Diagnostic[] {
  const shown = problems.slice(0, MAX_DIAGNOSTICS);
  const out: Diagnostic[] = shown.map((p) => {
    return {
      range: { start: { line: p.line, character: p.start }, end: { line: p.line, character: Math.max(p.start, p.end) } },
      severity: p.severity as DiagnosticSeverity,
      code: p.code,
      source: 'frozen-run',
      message: p.message,
    };
  });
  if (problems.length > shown.length) {
    const last = shown[shown.length - 1];
    out.push({
      range: { start: { line: last.line, character: 0 }, end: { line: last.line, character: 0 } },
      severity: DiagnosticSeverity.Warning,
      code: 'more-problems',
      source: 'frozen-run',
      message: `and ${(problems.length - shown.length).toLocaleString('en-US')} more problems after this line, not listed (the first ${MAX_DIAGNOSTICS.toLocaleString('en-US')} are). Is this file a machin trace?`,
    });
  }
  return out;
}
