// The words the Log Point Hits view and the Go to Log Point Hit picker say for a hit and for a log
// point that has none, without vscode. A hit's op is said as the status bar says the moment (the
// statement ran with `position` ops done: the cursor stands there on `op position-1`, or before
// op 0), from replay-engine/model/step-words.ts.
import type { LogHit } from '../../debug-adapter/log-point-hits';
import { stepAtPosition } from '../../replay-engine/model/step-words';

/** Where the run was at a hit, in the status bar's words: `op 4`, `before op 0`. */
export function hitPlace(position: number): string {
  return position <= 0 ? 'before op 0' : stepAtPosition(position, 'op');
}

/** The line under a hit's text: goroutine, function, line:column, op. */
export function hitDescription(h: LogHit): string {
  return `goroutine ${h.goroutine} · ${h.function} ${h.line}:${h.column} · ${hitPlace(h.position)}${h.thisReplayOnly ? ' · this replay only' : ''}`;
}

/** Why a log point has no hit listed: the adapter did not bind it (its message), or nothing passed. */
export function noHitNote(p: { verified: boolean; message?: string; line: number; arrivals: number }): string {
  if (!p.verified) return p.message ? `Not listed: ${p.message}` : `Not a statement line: no statement of the program starts on line ${p.line}.`;
  return p.arrivals ? 'No hit passes the condition, hit count or filter.' : 'The run never reaches this line.';
}

/** The "show more" row: how many are shown and how many arrivals are left to look at. */
export function moreNote(shown: number, next: number, arrivals: number): string {
  return `Show more… (${shown} shown; ${arrivals - next} more arrival${arrivals - next === 1 ? '' : 's'} at the line to look at)`;
}
