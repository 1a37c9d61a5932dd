// A statement of the program as clients outside VS Code show it (the MCP server, the CLI): its
// place and its source text on one line, from the program text the statements were read from
// (recording.programText, kept by the machin bridge with the statement index).
import type { Recording } from './recording';
import type { StatementLocation } from './source-level';

/** A statement of the program; lines and columns 1-based, end just past its text. */
export interface StatementPlace {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  function: string;
  /** The statement's source text on its first line (a statement over several lines ends with ` …`). */
  text: string;
  /** Ran in this replay, but machin may not run it before the run's end in another (docs/source-level.md, "What is sure"). */
  thisReplayOnly?: true;
  /** The goroutine ends waiting in this statement's op (`blocked in receive`; docs/source-level.md, "Blocked at the end"). */
  waiting?: string;
}

/** The program's lines (0-based array), or null when the statements are not known. */
export function programLines(rec: Recording): string[] | null {
  const text = rec.programText;
  return typeof text === 'string' ? text.split('\n').map((l) => l.replace(/\r$/, '')) : null;
}

/** A statement location with its source text. */
export function placeOf(rec: Recording, loc: StatementLocation, lines = programLines(rec)): StatementPlace {
  const line = lines?.[loc.line - 1] ?? '';
  const end = loc.endLine === loc.line ? loc.endColumn - 1 : line.length;
  const text = line.slice(loc.column - 1, end).trim();
  return {
    path: loc.file,
    line: loc.line,
    column: loc.column,
    endLine: loc.endLine,
    endColumn: loc.endColumn,
    function: loc.function,
    text: loc.endLine > loc.line ? `${text} …` : text,
  };
}

