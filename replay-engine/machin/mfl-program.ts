// The one model of a machin program (`.mfl`): read once, as a regular file, lexed once by the one
// lexer (source/mfl-lexer.ts), and from those tokens everything Frozen Run asks of the program:
// the functions with their lines (goroutine labels), the names each binds (`--print`), the
// statements (the instrumenter's model, source/statement-model.ts), function-literal names (both
// from Go's `main.funcN` numbering, one counter per enclosing function) and the op word of each
// statement the views show. A `machin pack` file is unpacked first for labels and names; its
// statements are refused (the instrumenter must insert probes into the file's own text).
import { RecordingError } from '../model/errors';
import type { ProgramWords } from '../model/program-words';
import { lowerBound } from '../model/lower-bound';
import { readRegularFile } from '../regular-file';
import { lexMfl, MflSyntaxError, type LexProblems, type MflToken } from './source/mfl-lexer';
import { readProgramFunctions, type ProgramFunctions } from './source/program-functions';
import { statementOps } from './source/op-words';
import { parseStatements, type MflStatementModel } from './source/statement-model';
import { unpackLines } from './source/unpack';

export type { MflFunction, SpawnEvent } from './source/program-functions';

export interface MflProgram extends ProgramFunctions, ProgramWords {
  /** Absolute path of the source file. */
  path: string;
  /** The file's text as read (statement offsets, lines and columns are of this text). */
  text: string;
  /** The statement model, or where and why the program cannot be followed (then no instrumented copy). */
  statements(): MflStatementModel | MflSyntaxError;
}

/** Source files larger than this are not read (a `.mfl` is one line per declaration). */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

/** Reads the program at `path` (a regular file only, never more than MAX_SOURCE_BYTES); throws RecordingError. */
export async function readMflProgram(path: string): Promise<MflProgram> {
  const bytes = await readRegularFile(path, (size) => {
    if (size > MAX_SOURCE_BYTES) throw new RecordingError('too-large', `${path}: larger than ${MAX_SOURCE_BYTES >> 20} MB, not read: goroutines stay unlabelled`);
    return new Uint8Array(size);
  });
  return mflProgram(Buffer.from(bytes).toString('utf8'), path);
}

/** The program model of `text` (the file at `path`). */
export function mflProgram(text: string, path: string): MflProgram {
  const unpacked = unpackLines(text);
  const problems: LexProblems = { error: null };
  const tokens = lexMfl(unpacked.text, problems);
  const { functions, globals } = readProgramFunctions(tokens, unpacked.lineOf);
  // The file's own tokens: those above unless a packed line was decoded (then lexed as written).
  let own: { tokens: MflToken[]; problems: LexProblems } | null = unpacked.decoded ? null : { tokens, problems };
  const ownTokens = () => {
    if (!own) {
      const p: LexProblems = { error: null };
      own = { tokens: lexMfl(text, p), problems: p };
    }
    return own;
  };
  let model: MflStatementModel | MflSyntaxError | null = null;
  let lineStarts: number[] | null = null;
  return {
    path,
    text,
    functions,
    globals,
    statements() {
      if (!model) {
        try {
          model = parseStatements(text, ownTokens());
        } catch (err) {
          if (!(err instanceof MflSyntaxError)) throw err;
          model = err;
        }
      }
      return model;
    },
    opsOf(line, column, endLine, endColumn) {
      const { tokens: t, problems: p } = ownTokens();
      if (p.error) return [];
      if (!lineStarts) {
        lineStarts = [0];
        for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
      }
      const starts = lineStarts;
      const at = (l: number, c: number) => (starts[l - 1] ?? text.length) + c - 1;
      const start = at(line, column);
      const end = at(endLine, endColumn);
      const from = lowerBound(0, t.length, (i) => t[i].start < start);
      const to = lowerBound(from, t.length, (i) => t[i].end <= end && t[i].kind !== 'eof');
      return statementOps(t, from, to);
    },
  };
}
