// An independent, deliberately simple reading of a `.mflrr` file's text, for tests to compare the
// streaming reader against (split on lines, no shared code with replay-engine/mflrr).
import { readFileSync } from 'node:fs';

export interface TraceCounts {
  version: string | null;
  boundary: string | null;
  program: string | null;
  safe: boolean | null;
  scheduleTotal: number;
  ioTotal: number;
  /** ops (S lines) and io (I lines) per goroutine id. */
  perGoroutine: Map<string, { ops: number; io: number }>;
  /** Goroutine id of each S line, in order. */
  schedule: string[];
  /** Line (1-based) of each S/I record, in order. */
  recordLines: number[];
}

export function countTrace(file: string): TraceCounts {
  const text = readFileSync(file, 'latin1');
  const lines = text.split('\n');
  if (!text.endsWith('\n')) lines.pop(); // an unterminated last line is not read
  else lines.pop(); // the empty string after the final \n
  const c: TraceCounts = { version: null, boundary: null, program: null, safe: null, scheduleTotal: 0, ioTotal: 0, perGoroutine: new Map(), schedule: [], recordLines: [] };
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const [tag, g] = line.split(' ');
    if (tag === 'MFLRR') c.version = g;
    else if (tag === 'boundary') c.boundary = g;
    else if (tag === 'program') c.program = line.slice('program '.length);
    else if (tag === 'safe') c.safe = g === '1';
    else if (tag === 'S' || tag === 'I') {
      const e = c.perGoroutine.get(g) ?? { ops: 0, io: 0 };
      if (tag === 'S') {
        e.ops++;
        c.scheduleTotal++;
        c.schedule.push(g);
      } else {
        e.io++;
        c.ioTotal++;
      }
      c.perGoroutine.set(g, e);
      c.recordLines.push(i + 1);
    }
  });
  return c;
}
