// The Debug Console lines of log points: a `.mfl` log point's hits over the whole run, printed
// once when it is set (issue 30), each on the program's source and line so a click opens it there;
// a record-level log point's message as a run meets it, on the recording's line.
import { OutputEvent, Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import type { PlaceConversion } from './place-conversion';
import type { PrintedLogPoint } from './log-point-changes';
import { consoleHits } from './run-questions';
import type { ReplayRuntime } from './runtime';

/** A log point's hits in run order, and a closing line when there are more (or none). `path`: the program, as the client named it. */
export function hitLines(rt: ReplayRuntime, path: string, spec: PrintedLogPoint, toClient: PlaceConversion): DebugProtocol.OutputEvent[] {
  const { hits, lines, more } = consoleHits(rt, spec);
  const source = new Source(basename(path), path);
  const out = hits.map((h, k) => {
    const e = new OutputEvent(`${lines[k]}\n`, 'console') as DebugProtocol.OutputEvent;
    e.body.source = source;
    e.body.line = toClient.line(h.line);
    e.body.column = toClient.column(h.column);
    return e;
  });
  if (more) out.push(new OutputEvent(`${more}\n`, 'console'));
  return out;
}

/** A record-level log point's message, at `at` (the recording's source and the record's line, the client's) when it has a record. */
export function messageLine(text: string, at?: { source: DebugProtocol.Source; line: number }): DebugProtocol.OutputEvent {
  const e = new OutputEvent(`${text}\n`, 'console') as DebugProtocol.OutputEvent;
  if (at) {
    e.body.source = at.source;
    e.body.line = at.line;
  }
  return e;
}
