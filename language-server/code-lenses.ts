// Code lenses on recordings: "Replay to panic" at the top, "Replay to here" on records. The
// extension implements both commands (protocol.ts): they start a session or move the running one.
import type { CodeLens } from 'vscode-languageserver';
import { REPLAY_TO_HERE_COMMAND, REPLAY_TO_PANIC_COMMAND } from './protocol';

/**
 * A lens draws a row above its line, so one on every record would double the document's height
 * (and ship hundreds of thousands of lenses for a large trace). Recordings get one per run of a
 * thread (where the schedule switches), thinned to this many spread over the document, plus then
 * the panic's record.
 */
export const MAX_RECORD_LENSES = 2000;

/**
 * `panicTitle` is '' when the panic is not known. `lines` are the record lines that may get a
 * lens, in order; titles are made only for the lines kept.
 */
export function recordingLenses(uri: string, panicTitle: string, lines: ArrayLike<number>, title: (line: number) => string, panicLine: number): CodeLens[] {
  const lenses: CodeLens[] = [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      command: { title: panicTitle ? `$(debug-alt) Replay to panic (${panicTitle})` : '$(debug-alt) Replay to panic', command: REPLAY_TO_PANIC_COMMAND, arguments: [uri] },
    },
  ];
  const kept: number[] = [];
  const stride = Math.max(1, lines.length / MAX_RECORD_LENSES);
  for (let i = 0; i < Math.min(lines.length, MAX_RECORD_LENSES); i++) kept.push(lines[Math.floor(i * stride)]);
  // Thinned out, the panic's record may have lost its block's lens: it gets its own.
  if (panicLine >= 0 && lines.length > MAX_RECORD_LENSES && !kept.includes(panicLine)) {
    kept.push(panicLine);
    kept.sort((a, b) => a - b);
  }
  for (const line of kept) {
    lenses.push({
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      command: { title: `Replay to here (${line === panicLine && lines.length > MAX_RECORD_LENSES ? 'last op before the panic' : title(line)})`, command: REPLAY_TO_HERE_COMMAND, arguments: [uri, line] },
    });
  }
  return lenses;
}
