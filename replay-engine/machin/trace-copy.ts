// The copy of a trace that machin is given: in a private temporary folder, its `program` line
// pointing at the program found here, every record checked first. machin 0.137.0 reads a trace
// with `sscanf("S %255s")` and then waits for each goroutine's turn, so a cut last line (`S 0.`)
// or any malformed `S` line names a goroutine that never comes and the replay hangs. Header lines
// machin does not know are dropped, and any other line among the records stops the copy (a stray
// `program ` or `safe 1` line anywhere would change what machin builds). The user's recording is
// only read.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { RecordingError } from '../model/errors';
import { CR, LF, SP, TAG_I, TAG_S } from '../mflrr/trace-bytes';
import { openRegularFile } from '../regular-file';
import { makePrivateDir, removePrivateDir } from './private-temp';

export interface TraceCopy {
  /** The private folder (mode 0700) holding the copy. */
  dir: string;
  /** The copy machin is given. */
  file: string;
  /** `S` lines copied. */
  scheduleTotal: number;
  /** `I` lines copied. */
  ioTotal: number;
  /** 1-based line of a partial last line left out, or null. */
  droppedPartialLine: number | null;
  /** Things that may make machin's replay differ from the recorded run. */
  warnings: string[];
  /** The copies asked for besides (`also`), in that order: the same bytes, their own program line. */
  retargeted: string[];
  remove(): Promise<void>;
}

/** A copy besides the first, written in the same pass: its `program` line names `program`, its file name starts with `prefix`. */
export interface RetargetedCopy {
  program: string;
  prefix: string;
}

/** machin reads a trace line into a 16384-byte buffer: a longer `I` line is split, its value cut. */
const MACHIN_LINE_LIMIT = 16383;
/** `%255s`: a longer goroutine id would be cut and never match. */
const MACHIN_ID_LIMIT = 255;
const CHUNK = 1 << 20;
const LINE_END = new Uint8Array([LF]);
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_1 = 0x31;
const DIGIT_9 = 0x39;
const HEX_A = 0x61;
const HEX_F = 0x66;

/**
 * Run `use` with a checked copy of the trace (and the copies `also` asks for, as retargetTraceCopy
 * makes them but in the same pass); the copies are removed afterwards, whatever happens.
 */
export async function withTraceCopy<T>(traceFile: string, programPath: string, use: (copy: TraceCopy) => Promise<T>, also: RetargetedCopy[] = []): Promise<T> {
  const copy = await writeTraceCopy(traceFile, programPath, also);
  try {
    return await use(copy);
  } finally {
    await copy.remove();
  }
}

export async function writeTraceCopy(traceFile: string, programPath: string, also: RetargetedCopy[] = []): Promise<TraceCopy> {
  for (const p of [programPath, ...also.map((a) => a.program)]) checkProgramPath(p);
  const dir = await makePrivateDir();
  const remove = () => removePrivateDir(dir);
  try {
    const file = path.join(dir, safeName(path.basename(traceFile)));
    const retargeted = also.map((a) => retargetedPath({ dir, file }, a.prefix));
    const stats = await copyChecked(traceFile, [{ file, program: programPath }, ...also.map((a, i) => ({ file: retargeted[i], program: a.program }))]);
    return { dir, file, ...stats, retargeted, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * A second copy beside `copy` (in its private folder, removed with it) whose `program` line names
 * `programPath` (the instrumented copy of the program): the records are the checked copy's, byte
 * for byte, so every replay is handed the same trace. Its name starts with `prefix` (one per copy of the program). Returns its path.
 */
export async function retargetTraceCopy(copy: Pick<TraceCopy, 'dir' | 'file'>, programPath: string, prefix = 'retargeted'): Promise<string> {
  checkProgramPath(programPath);
  const target = retargetedPath(copy, prefix);
  const input = await fs.open(copy.file, 'r');
  const output = await fs.open(target, 'wx', 0o600);
  try {
    // The copy's header is its first lines up to the first record; writeTraceCopy wrote exactly one program line in it.
    const { size } = await input.stat();
    const head = Buffer.alloc(Math.min(size, 1 << 16));
    await input.read(head, 0, head.length, 0);
    let at = 0;
    let found = -1;
    while (at < head.length) {
      const nl = head.indexOf(LF, at);
      if (nl < 0 || head[at] === TAG_S || head[at] === TAG_I) break;
      if (head.subarray(at, at + 8).toString('latin1') === 'program ') {
        found = at;
        break;
      }
      at = nl + 1;
    }
    if (found < 0) throw new Error(`${copy.file}: no program line in the trace copy's header`);
    const lineEnd = head.indexOf(LF, found) + 1;
    await output.write(head.subarray(0, found));
    await output.write(Buffer.from(`program ${programPath}\n`));
    const buf = Buffer.alloc(CHUNK);
    for (let pos = lineEnd; pos < size; ) {
      const { bytesRead } = await input.read(buf, 0, Math.min(CHUNK, size - pos), pos);
      if (bytesRead === 0) break;
      await output.write(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    return target;
  } finally {
    await input.close();
    await output.close();
  }
}

/** A path machin can be given in a trace's `program` line (it reads it back with strings.TrimSpace up to the line end), else an error. */
function checkProgramPath(programPath: string): void {
  if (/[\r\n]/.test(programPath) || programPath.trim() !== programPath) {
    throw new RecordingError('program-missing', `program path ${JSON.stringify(programPath)} contains a line break or starts or ends with white space; machin cannot be given it in a trace (rename or move the program)`);
  }
}

/** Where the copy of `copy` for another program goes: beside it, its name after `prefix`. */
function retargetedPath(copy: Pick<TraceCopy, 'dir' | 'file'>, prefix: string): string {
  return path.join(copy.dir, `${prefix}-${path.basename(copy.file)}`);
}

function safeName(base: string): string {
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_');
  return cleaned.endsWith('.mflrr') ? cleaned : `${cleaned || 'trace'}.mflrr`;
}

interface CopyStats {
  scheduleTotal: number;
  ioTotal: number;
  droppedPartialLine: number | null;
  warnings: string[];
}

/**
 * Reads the trace once, checking every line, and writes each target: the same bytes but its own
 * `program` line. The bytes are read into one buffer, after the part of a line the read before
 * ended in, and written from there (writev: no chunk is joined or copied).
 */
async function copyChecked(source: string, targets: Array<{ file: string; program: string }>): Promise<CopyStats> {
  // The size at open bounds what is copied: a trace that grows meanwhile is copied as it was.
  const { handle: input, size } = await openRegularFile(source);
  let left = size;
  const outputs: FileHandle[] = [];
  const stats: CopyStats = { scheduleTotal: 0, ioTotal: 0, droppedPartialLine: null, warnings: [] };
  try {
    for (const t of targets) outputs.push(await fs.open(t.file, 'wx', 0o600));
    const programLines = targets.map((t) => new TextEncoder().encode(`program ${t.program}\n`));
    const writer = new LineWriter(source, stats);
    const write = async (parts: Uint8Array[]) => {
      if (parts.length === 0) return;
      await Promise.all(outputs.map((o, k) => o.writev(parts.map((p) => (p === PROGRAM_LINE ? programLines[k] : p)))));
    };
    let buf = new Uint8Array(2 * CHUNK);
    let held = 0; // bytes of a line not ended yet, at the buffer's start
    for (;;) {
      if (buf.length - held < CHUNK) {
        if (held > 64 * CHUNK) throw writer.error(writer.lineNumber, 'a line longer than 64 MB');
        const bigger = new Uint8Array(2 * buf.length);
        bigger.set(buf.subarray(0, held));
        buf = bigger;
      }
      const { bytesRead } = left > 0 ? await input.read(buf, held, Math.min(buf.length - held, left), null) : { bytesRead: 0 };
      if (bytesRead === 0) break;
      left -= bytesRead;
      const end = held + bytesRead;
      const lastNl = buf.lastIndexOf(LF, end - 1);
      if (lastNl < 0) {
        held = end;
        continue;
      }
      await write(writer.lines(buf, 0, lastNl + 1));
      buf.copyWithin(0, lastNl + 1, end);
      held = end - (lastNl + 1);
    }
    await write(writer.finish(buf.subarray(0, held)));
    return stats;
  } finally {
    await input.close();
    for (const o of outputs) await o.close();
  }
}

/** Where a target's own `program` line goes among the parts LineWriter returns. */
const PROGRAM_LINE = new Uint8Array(0);

/** Checks and rewrites complete lines; keeps the header state between chunks. */
class LineWriter {
  lineNumber = 1;
  private inHeader = true;
  private wroteProgram = false;
  private longIoWarned = false;

  constructor(
    private readonly source: string,
    private readonly stats: CopyStats,
  ) {}

  /** Lines data[from, to) (to is just past a `\n`): returns the bytes to write, in parts (PROGRAM_LINE: the target's program line). */
  lines(data: Uint8Array, from: number, to: number): Uint8Array[] {
    const parts: Uint8Array[] = [];
    let runStart = -1; // a run of record lines copied unchanged
    let s = from;
    while (s < to && this.inHeader) {
      const nl = data.indexOf(LF, s);
      const e = nl > s && data[nl - 1] === CR ? nl - 1 : nl;
      if (this.headerLine(data, s, e, parts)) {
        this.lineNumber++;
        s = nl + 1;
      } else {
        this.inHeader = false;
      }
    }
    while (s < to) {
      const nl = this.checkRecord(data, s);
      const crlf = nl > s && data[nl - 1] === CR;
      const blank = nl === s || (crlf && nl === s + 1);
      if (crlf || blank) {
        // A CRLF line is copied without its CR; a blank line is left out.
        if (runStart >= 0) parts.push(data.subarray(runStart, s));
        runStart = -1;
        if (!blank) parts.push(data.subarray(s, nl - 1), LINE_END);
      } else if (runStart < 0) {
        runStart = s;
      }
      this.lineNumber++;
      s = nl + 1;
    }
    if (runStart >= 0) parts.push(data.subarray(runStart, to));
    return parts;
  }

  /** The bytes after the last `\n`: a partial line, left out. */
  finish(rest: Uint8Array): Uint8Array[] {
    const parts: Uint8Array[] = [];
    // The trace reader already warns about a cut last line; here it is only counted.
    if (rest.length > 0) this.stats.droppedPartialLine = this.lineNumber;
    if (this.inHeader && !this.wroteProgram) this.writeProgram(parts);
    return parts;
  }

  error(line: number, what: string): RecordingError {
    return new RecordingError('malformed', `${this.source}:${line}: ${what}; the trace was not handed to machin (it could make it wait forever)`, { file: this.source, line });
  }

  /**
   * A header line is rewritten (program) or kept (MFLRR, boundary, safe) or dropped (blank,
   * unknown). False at the first record line (the program line is written before it).
   */
  private headerLine(data: Uint8Array, s: number, e: number, parts: Uint8Array[]): boolean {
    const first = data[s];
    if (e > s && (first === TAG_S || first === TAG_I) && data[s + 1] === SP) {
      this.writeProgram(parts);
      return false;
    }
    const text = latin1(data, s, e);
    if (text.startsWith('program ')) {
      this.writeProgram(parts);
    } else if (/^(MFLRR \d+|boundary \S+|safe [01])$/.test(text)) {
      parts.push(data.subarray(s, e), LINE_END);
    } else if (text.trim() !== '') {
      this.stats.warnings.push(`line ${this.lineNumber} (${truncate(text)}) is not a header line machin knows; left out of the copy`);
    }
    return true;
  }

  private writeProgram(parts: Uint8Array[]): void {
    if (this.wroteProgram) return;
    parts.push(PROGRAM_LINE);
    this.wroteProgram = true;
  }

  /**
   * Checks the record line starting at s, `S G` or `I G HEX` (G a goroutine path, HEX lower-case
   * and of even length, possibly empty), in one pass; returns the index of its `\n`. A blank line
   * returns s.
   */
  private checkRecord(data: Uint8Array, s: number): number {
    const tag = data[s];
    if (tag === LF || (tag === CR && data[s + 1] === LF)) return tag === LF ? s : s + 1;
    if ((tag !== TAG_S && tag !== TAG_I) || data[s + 1] !== SP) {
      throw this.error(this.lineNumber, `unexpected line ${JSON.stringify(truncate(latin1(data, s, data.indexOf(LF, s))))} among the records`);
    }
    const idStart = s + 2;
    let i = idStart;
    let ok = data[i] === DIGIT_0;
    i++;
    while (ok && data[i] === DOT) {
      ok = data[i + 1] >= DIGIT_1 && data[i + 1] <= DIGIT_9;
      i += 2;
      while (data[i] >= DIGIT_0 && data[i] <= DIGIT_9) i++;
    }
    if (!ok || i - idStart > MACHIN_ID_LIMIT || (data[i] !== LF && data[i] !== CR && data[i] !== SP)) {
      let idEnd = idStart;
      while (data[idEnd] !== SP && data[idEnd] !== LF && data[idEnd] !== CR) idEnd++;
      throw this.error(this.lineNumber, `bad goroutine id ${JSON.stringify(truncate(latin1(data, idStart, idEnd)))}`);
    }
    if (tag === TAG_S) {
      if (data[i] === SP) throw this.error(this.lineNumber, 'an `S` line has text after its goroutine id');
      this.stats.scheduleTotal++;
      return data[i] === CR ? this.lineEnd(data, i) : i;
    }
    // I G HEX (or `I G` with nothing after it: machin reads an empty value either way)
    if (data[i] === SP) {
      const hexStart = ++i;
      for (let c = data[i]; (c >= DIGIT_0 && c <= DIGIT_9) || (c >= HEX_A && c <= HEX_F); c = data[++i]);
      if (data[i] !== LF && data[i] !== CR) throw this.error(this.lineNumber, `bad hex in an \`I\` line at column ${i - s + 1}`);
      if ((i - hexStart) % 2 !== 0) throw this.error(this.lineNumber, 'odd-length hex in an `I` line');
      if (i - s > MACHIN_LINE_LIMIT && !this.longIoWarned) {
        this.longIoWarned = true;
        this.stats.warnings.push(`line ${this.lineNumber}: an I/O value longer than machin 0.137.0 reads back (${MACHIN_LINE_LIMIT} bytes a line); its replay may see a different value`);
      }
    }
    this.stats.ioTotal++;
    return data[i] === CR ? this.lineEnd(data, i) : i;
  }

  /** At a CR: the index of the `\n` right after it, or an error (a CR inside a line). */
  private lineEnd(data: Uint8Array, cr: number): number {
    if (data[cr + 1] !== LF) throw this.error(this.lineNumber, 'a carriage return inside a record');
    return cr + 1;
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function latin1(data: Uint8Array, s: number, e: number): string {
  let text = '';
  for (let i = s; i < e && i < s + 200; i++) text += String.fromCharCode(data[i]);
  return text;
}
