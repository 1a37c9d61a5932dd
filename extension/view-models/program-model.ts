// The program side of the timeline model (issue 14, point 5): for each schedule step the statement
// that performed it (line and column, 0 = unknown) and the op it did there, in typed arrays, from
// the engine's statement index (`recording.statements`, ready once machin replayed the trace
// against the instrumented copy). vscode-free, like timeline-model.ts.
//
// The op word: a trace's `S` line says only which goroutine took a turn (kinds `sched`, `io`), not
// what it did. The word therefore comes from the performing statement's own text, as the program
// model read it (recording.programWords, model/program-words.ts): nothing here reads the program.
import { basename } from 'node:path';
import { OP_WORDS, type ProgramWords } from '../../replay-engine/model/program-words';
import type { Recording } from '../../replay-engine/model/recording';
import type { ProgramMsg } from '../../webview-ui/protocol';

export { OP_WORDS };

/** The program's statements of each step, or undefined without source level. `words` is for tests. */
export function programModel(recording: Recording, words: ProgramWords | null = recording.programWords ?? null): ProgramMsg | undefined {
  const s = recording.statements;
  if (!s || recording.sourceLevel?.state !== 'ready') return undefined;
  const tl = recording.timeline;
  const steps = tl.stepCount;
  const line = new Uint32Array(steps);
  const column = new Uint32Array(steps);
  const op = new Uint8Array(steps);
  const ops = new StatementOps(words); // none: lines still known, ops not
  // A statement doing several ops (`println(<-ch)`) does them one after the other: the same
  // performer for consecutive own steps of its goroutine; nth counts them.
  const threads = tl.threads.length;
  const lastEvent = new Int32Array(threads).fill(-1);
  const nth = new Uint32Array(threads);
  let maxLine = 0;
  let maxColumn = 0;
  for (let k = 0; k < steps; k++) {
    const who = s.performerOfStep(k);
    if (!who) continue;
    const loc = s.location(who.thread, who.event);
    line[k] = loc.line;
    column[k] = loc.column;
    if (loc.line > maxLine) maxLine = loc.line;
    if (loc.column > maxColumn) maxColumn = loc.column;
    const t = who.thread;
    nth[t] = lastEvent[t] === who.event ? nth[t] + 1 : 0;
    lastEvent[t] = who.event;
    op[k] = ops.word(loc.line, loc.column, loc.endLine, loc.endColumn, nth[t]);
  }
  return {
    fileName: basename(s.file),
    path: s.file,
    stepLine: maxLine < 0x10000 ? Uint16Array.from(line) : line,
    stepColumn: maxColumn < 0x10000 ? Uint16Array.from(column) : column,
    stepOp: op,
    opWords: [...OP_WORDS],
  };
}

/** The ops a statement does, in the order they happen, asked once per statement. */
class StatementOps {
  private readonly cache = new Map<string, readonly number[]>();

  constructor(private readonly words: ProgramWords | null) {}

  word(line: number, column: number, endLine: number, endColumn: number, nth: number): number {
    if (this.words === null) return 0;
    const key = `${line}:${column}`;
    let ops = this.cache.get(key);
    if (!ops) {
      ops = this.words.opsOf(line, column, endLine, endColumn);
      this.cache.set(key, ops);
    }
    // More ops than the text shows (a call's own ops are its callee's statements): the last one.
    return ops.length === 0 ? 0 : ops[Math.min(nth, ops.length - 1)];
  }
}
