// Parses what `machin replay` writes to stderr (formats/mflrr.md, "What `machin replay` prints"),
// as machin 0.137.0's runtime prints it (codegen.go: mfl_panic, mfl_rr_probe, mfl_rr_finish,
// mfl_dl_deadlock). Anything not recognised is kept as `unknown` text, never thrown.

import { isCount, isRecord, parseLooseJson } from './loose-json';
import { jsonPanic, PANIC_WHERE, readPanicBlock } from './panic-block';
import { ProbeBytes } from './probe-bytes';
import { dropProbeLines, isDigits, isOpMark, isProbeLine, isProbeStart, matchAt, PROBE_HEAD, PROBE_TAIL, probeAt, type AddProbe } from './probe-line';

export interface ReplayPanic {
  message: string;
  goroutine: string;
  /** Schedule ops completed when it panicked (the cursor position). */
  scheduleOp: number;
  scheduleTotal: number;
  /** Goroutine ids of ops 0..scheduleOp-1; only the `--json` form carries it. */
  causalChain: string[] | null;
  form: 'json' | 'text';
}

export interface ReplayVerify {
  scheduleDone: number;
  scheduleTotal: number;
  ioUnderrun: boolean;
  boundary: string;
  verdict: 'FAITHFUL' | 'DIVERGED';
}

export interface Probe {
  goroutine: string;
  name: string;
  /** As printed: may be empty, contain spaces or newlines. */
  value: string;
  /** Schedule ops completed when the value was stored (`@opP`). */
  op: number;
}

export interface ReplayDeadlock {
  goroutineCount: number;
  /** One per blocked goroutine: its id and what it waits on, as machin words it. */
  blocked: Array<{ goroutine: string; waiting: string }>;
}

export type ReplayFailure =
  | { kind: 'program-missing'; path: string; message: string }
  | { kind: 'no-program-line'; message: string }
  | { kind: 'error'; message: string };

export interface ReplayOutput {
  panic: ReplayPanic | null;
  verify: ReplayVerify | null;
  probes: Probe[];
  /** machin said the trace is best-effort (the program uses FFI). */
  bestEffort: boolean;
  deadlock: ReplayDeadlock | null;
  failure: ReplayFailure | null;
  /** Lines machin printed that none of the forms above explain, in order. */
  unknown: string[];
}

const VERIFY = /^replay-verify: schedule (\d+)\/(\d+) ops, io-underrun=(yes|no), boundary=(\S+) -> (FAITHFUL|DIVERGED)$/;
const BEST_EFFORT = /^warning: best-effort trace\b/;
const DEADLOCK_HEAD = /^fatal: deadlock \S+ all (\d+) goroutine\(s\) blocked/;
const DEADLOCK_LINE = /^ {2}goroutine (\S+)\s+(.*)$/;
const PROGRAM_MISSING = /^error: open (.+): no such file or directory$/;
const NO_PROGRAM_LINE = /^error: replay: trace has no `program` line/;

/**
 * Takes the probes of some names instead of ReplayOutput.probes, in the order machin printed
 * them among the others: the statement probes of an instrumented replay (millions of lines, never
 * made objects).
 */
export interface ProbeSink {
  names: ReadonlySet<string>;
  /** A probe of one of `names`; its value as a number (NaN when it is not one). */
  take(goroutine: string, value: number, op: number): void;
  /** Called just before any other probe is added to ReplayOutput.probes. */
  beforeValue?(goroutine: string): void;
  /** Takes the other probes too (instead of ReplayOutput.probes): a long replay's values, never made objects. */
  takeValue?(goroutine: string, name: string, value: string, op: number): void;
  /** With takeValue: a value printed as a small integer (SMALL_INT), as that number. */
  takeNumber?(goroutine: string, name: string, value: number, op: number): void;
}

/** Parse the stderr of one `machin replay` run. */
export function parseReplayOutput(stderr: string, sink?: ProbeSink): ReplayOutput {
  const pass = new ProbePass(stderr, sink);
  pass.scan(stderr.length, true);
  return parseLines(pass);
}

/** How a long output is read in slices, with a yield to the event loop between two. */
export interface SlicedReading {
  /** Aborted: the reader throws CancelledReading at the next yield. */
  signal?: AbortSignal;
  /** How far it got (0..1), at each yield. */
  onSlice?: (done: number) => void;
  /** The slice's size (characters, events): tests make it small. */
  size?: number;
}

/** Characters of machin's output scanned between two yields of parseReplayOutputInSlices (~50 ms). */
const SLICE_CHARS = 8 << 20;

/**
 * parseReplayOutput for a long output (an instrumented replay prints a statement probe per
 * statement run: tens of MB), in slices, so a cancel is heard half way.
 */
export async function parseReplayOutputInSlices(stderr: string, sink: ProbeSink, reading: SlicedReading = {}): Promise<ReplayOutput> {
  const pass = new ProbePass(stderr, sink);
  const size = reading.size ?? SLICE_CHARS;
  while (pass.at < stderr.length) {
    pass.scan(Math.min(stderr.length, pass.at + size), true);
    if (pass.at >= stderr.length) break;
    reading.onSlice?.(pass.at / stderr.length);
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (reading.signal?.aborted) throw new CancelledReading();
  }
  return parseLines(pass);
}

/**
 * parseReplayOutput for an output read as it arrives, in chunks of any size (a chunk may end in
 * the middle of a line): only the chunks and the line being read are held, never the whole output.
 * Each line is scanned once the line after it has come, a panic once its end has (other
 * goroutines' probe lines can come inside it: panic-block.ts).
 */
export class ReplayOutputStream {
  private readonly pass: ProbePass;
  private carry = '';

  /** One-line probes read from bytes (pushBytes), while no line waits as text. */
  private readonly bytes: ProbeBytes | null;

  constructor(sink?: ProbeSink) {
    this.pass = new ProbePass('', sink);
    this.bytes = sink ? new ProbeBytes(sink) : null;
  }

  /**
   * push for machin's stderr as bytes, whole lines (the last piece of the output may lack its line
   * end): the one-line probes it starts with are taken without being decoded (probe-bytes.ts), the
   * rest is decoded and read as text, as push reads it, which also goes on with anything a line
   * read as text left waiting.
   */
  pushBytes(lines: Uint8Array): void {
    const from = this.carry.length === 0 && this.bytes ? this.bytes.take(lines) : 0;
    if (from < lines.length) this.push(Buffer.from(lines.buffer, lines.byteOffset + from, lines.length - from).toString('utf8'));
  }

  /**
   * For the output channel: the text of every line that is no probe, as it is scanned (each line
   * once the next has come), so machin's millions of probe lines are not scanned a second time
   * (run-replay.ts ProbeLineFilter does that for a replay that is not streamed).
   */
  showOthers(show: (text: string) => void): void {
    this.pass.others = show;
  }

  /** Probe lines read so far (a probe over lines counts once; one printed inside a line of a panic's text, not). */
  get probes(): number {
    return this.pass.probeCount + (this.bytes?.count ?? 0);
  }

  push(chunk: string): void {
    const text = this.carry.length === 0 ? chunk : this.carry + chunk;
    const last = text.lastIndexOf('\n');
    // A text that ends with a whole one-line probe (the chunks of a LineDecoder end with a line)
    // leaves nothing to wait for: scanned to its end, it leaves no carry to prepend to the next
    // chunk, so that one is scanned as the flat string it is (line-decoder.ts).
    if (last === text.length - 1 && last > 0 && isProbeLine(text, text.lastIndexOf('\n', last - 1) + 1, last)) {
      this.pass.reset(text);
      this.pass.scan(text.length, false);
      this.carry = text.slice(this.pass.at);
      return;
    }
    const before = last <= 0 ? -1 : text.lastIndexOf('\n', last - 1);
    if (before < 0) {
      this.carry = text;
      return;
    }
    this.pass.reset(text);
    this.pass.scan(before + 1, false);
    this.carry = text.slice(this.pass.at);
  }

  end(): ReplayOutput {
    this.pass.reset(this.carry);
    this.pass.scan(this.carry.length, true);
    this.carry = '';
    return parseLines(this.pass);
  }
}

/** Thrown by the sliced readers of machin's output on a cancel (the caller says it in its own words). */
export class CancelledReading extends Error {
  constructor() {
    super('cancelled while reading machin\'s output');
  }
}

/**
 * The first pass: every probe, straight from the text and in order (a replay can print millions);
 * the other lines are kept, in order, for the line parser (parseLines). Resumable: `scan(limit)`
 * goes on from `at` over the lines that start before `limit`.
 */
class ProbePass {
  readonly out: ReplayOutput = {
    panic: null,
    verify: null,
    probes: [],
    bestEffort: false,
    deadlock: null,
    failure: null,
    unknown: [],
  };
  readonly lines: string[] = [];
  /** The panics read whole, by the index in `lines` of the line that stands for each. */
  readonly panics = new Map<number, ReplayPanic>();
  at = 0;
  /** ReplayOutputStream.showOthers. */
  others: ((text: string) => void) | null = null;
  probeCount = 0;
  private readonly fast: FastTake | null;
  private readonly add: AddProbe;

  constructor(private stderr: string, sink?: ProbeSink) {
    this.fast = sink ? new FastTake(sink) : null;
    const probes = this.out.probes;
    // A million probes name a handful of goroutines and variables: one string each, not one per probe.
    const interned = new Map<string, string>();
    const intern = (text: string) => {
      let kept = interned.get(text);
      if (kept === undefined) interned.set(text, (kept = text));
      return kept;
    };
    this.add = (goroutine, name, value, op) => {
      if (sink?.names.has(name)) return sink.take(goroutine, value === '' ? NaN : Number(value), op);
      if (sink?.takeValue) return sink.takeValue(goroutine, name, value, op);
      sink?.beforeValue?.(goroutine);
      probes.push({ goroutine: intern(goroutine), name: intern(name), value, op });
    };
  }

  /** Goes on over another text (ReplayOutputStream: the rest of the last one, then the next chunk). */
  reset(text: string): void {
    this.stderr = text;
    this.at = 0;
  }

  /**
   * `final`: the text holds the rest of the output (false while it is read in chunks: a panic
   * whose end has not come yet stops the scan there, to be scanned again with more text).
   */
  scan(limit: number, final: boolean): void {
    const { stderr, fast, add, lines } = this;
    let s = this.at;
    while (s < limit) {
      const nl = stderr.indexOf('\n', s);
      const e = nl < 0 ? stderr.length : nl;
      const end = e > s && stderr.charCodeAt(e - 1) === 0x0d ? e - 1 : e;
      if (isProbeStart(stderr, s)) {
        const next = fast?.line(stderr, s, end) ?? probeAt(stderr, s, end, add);
        if (next >= 0) {
          this.probeCount++;
          s = next;
          continue;
        }
      } else if (matchAt(stderr, s, 'panic: ') || matchAt(stderr, s, '{"panic":"')) {
        // machin writes a panic in pieces: other goroutines' probe lines can come inside it
        const block = readPanicBlock(stderr, s, final);
        if (block === 'more') break;
        if (block) {
          for (const [goroutine, name, value, op] of block.probes) add(goroutine, name, value, op);
          if (this.others) {
            // its lines as they were printed, but the whole probe lines among them (a probe inside one of its lines stays)
            const text = stderr.slice(s, block.next);
            const dropped = dropProbeLines(text.endsWith('\n') ? text : `${text}\n`);
            this.probeCount += dropped.probes;
            this.others(dropped.kept);
          }
          this.panics.set(lines.length, block.panic);
          lines.push('panic: ');
          s = block.next;
          continue;
        }
      }
      lines.push(stderr.slice(s, end));
      if (this.others) this.others(nl < 0 ? `${stderr.slice(s)}\n` : stderr.slice(s, nl + 1));
      s = e + 1;
    }
    this.at = s;
  }
}

/** The second pass: the lines that are not probes (and multi-line probes the first pass left). */
function parseLines({ lines, out, panics }: ProbePass): ReplayOutput {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const panic = panics.get(i);
    if (panic) {
      // The --json form, when present too, is richer (it has the causal chain): keep it.
      if (panic.form === 'json' || !out.panic || out.panic.form === 'text') out.panic = panic;
      i++;
      continue;
    } else if (line.startsWith('probe ')) {
      const end = parseProbe(lines, i, out.probes);
      if (end >= 0) {
        i = end + 1;
        continue;
      }
    } else if (line.startsWith('{"panic":')) {
      const end = parseJsonPanic(lines, i, out);
      if (end >= 0) {
        i = end + 1;
        continue;
      }
    } else if (line.startsWith('{"deadlock":')) {
      const deadlock = parseJsonDeadlock(line);
      if (deadlock) {
        out.deadlock = deadlock;
        i++;
        continue;
      }
    } else if (line.startsWith('panic: ')) {
      i = parseTextPanic(lines, i, out) + 1;
      continue;
    } else if (VERIFY.test(line)) {
      const m = VERIFY.exec(line)!;
      out.verify = {
        scheduleDone: Number(m[1]),
        scheduleTotal: Number(m[2]),
        ioUnderrun: m[3] === 'yes',
        boundary: m[4],
        verdict: m[5] as 'FAITHFUL' | 'DIVERGED',
      };
      i++;
      continue;
    } else if (BEST_EFFORT.test(line)) {
      out.bestEffort = true;
      i++;
      continue;
    } else if (DEADLOCK_HEAD.test(line)) {
      const deadlock: ReplayDeadlock = { goroutineCount: Number(DEADLOCK_HEAD.exec(line)![1]), blocked: [] };
      i++;
      for (let m = DEADLOCK_LINE.exec(lines[i] ?? ''); m; m = DEADLOCK_LINE.exec(lines[i] ?? '')) {
        deadlock.blocked.push({ goroutine: m[1], waiting: m[2].trim() });
        i++;
      }
      out.deadlock = deadlock;
      continue;
    } else if (line.startsWith('error: ')) {
      // machin stops after an error; what follows (a compiler's diagnostics) belongs to it.
      const message = lines.slice(i).join('\n').slice('error: '.length).trimEnd();
      const missing = PROGRAM_MISSING.exec(line);
      if (missing) out.failure = { kind: 'program-missing', path: missing[1], message };
      else if (NO_PROGRAM_LINE.test(line)) out.failure = { kind: 'no-program-line', message };
      else out.failure = { kind: 'error', message };
      break;
    } else if (line.trim() === '') {
      i++;
      continue;
    }
    out.unknown.push(line);
    i++;
  }
  return out;
}

/**
 * `probe G NAME = VALUE @opP`: VALUE is printed raw, so it may be empty or span lines; the probe
 * ends at the first line that ends in ` @opN`. Returns the index of that line, or -1.
 */
function parseProbe(lines: string[], start: number, probes: Probe[]): number {
  // The common case first, without a regular expression (a replay can print millions):
  // `probe G NAME = VALUE @opP` on one line, G and NAME without spaces.
  const line = lines[start];
  const g = line.indexOf(' ', 6);
  const n = g > 6 ? line.indexOf(' ', g + 1) : -1;
  const at = line.lastIndexOf(' @op');
  if (n > g + 1 && line.charCodeAt(n + 1) === 0x3d && line.charCodeAt(n + 2) === 0x20 && at >= n + 3 && isDigits(line, at + 4)) {
    probes.push({ goroutine: line.slice(6, g), name: line.slice(g + 1, n), value: line.slice(n + 3, at), op: Number(line.slice(at + 4)) });
    return start;
  }
  const head = PROBE_HEAD.exec(lines[start]);
  if (!head) return -1;
  const parts: string[] = [];
  let rest = lines[start].slice(head[0].length);
  for (let i = start; i < lines.length; i++) {
    if (i > start) rest = lines[i];
    // An empty value on one line leaves just " @opN"; a value ending in a newline leaves " @opN" on the next.
    const tail = PROBE_TAIL.exec(rest);
    if (tail) {
      parts.push(rest.slice(0, tail.index));
      probes.push({ goroutine: head[1], name: head[2], value: parts.join('\n'), op: Number(tail[1]) });
      return i;
    }
    parts.push(rest);
  }
  return -1;
}

/**
 * The one-line probes of a sink taken straight from the text: `probe G NAME = VALUE @opP`, G and
 * NAME without spaces. G is compared with the last one taken and NAME with those seen before, so
 * neither is a new string per line; a statement probe's VALUE and a small integer value are read
 * as numbers, never sliced. Any other line (a value over lines, a statement probe whose value is
 * no number) is left to probeAt, which reads it as before.
 */
class FastTake {
  private goroutine = '';
  /** Names seen so far, and whether each is one of the sink's statement probes. */
  private readonly names: string[] = [];
  private readonly statement: boolean[] = [];

  constructor(private readonly sink: ProbeSink) {}

  /** Where the next line starts, or null when this line is not such a probe. */
  line(text: string, s: number, end: number): number | null {
    const g = text.indexOf(' ', s + 6);
    if (g <= s + 6 || g >= end) return null;
    const n = text.indexOf(' ', g + 1);
    if (n <= g + 1 || n >= end || text.charCodeAt(n + 1) !== 0x3d || text.charCodeAt(n + 2) !== 0x20) return null;
    // the op: the digits that end the line, after ` @op`
    let d = end;
    while (d > n + 3 && isDigit(text.charCodeAt(d - 1))) d--;
    if (d === end || end - d > 15 || d - 4 < n + 3 || !isOpMark(text, d - 4)) return null;
    let op = 0;
    for (let i = d; i < end; i++) op = op * 10 + (text.charCodeAt(i) - 0x30);
    const v0 = n + 3;
    const v1 = d - 4;
    const name = this.nameAt(text, g + 1, n);
    const glen = g - s - 6;
    if (glen !== this.goroutine.length || !matchAt(text, s + 6, this.goroutine)) this.goroutine = text.slice(s + 6, g);
    if (this.statement[name]) {
      if (v1 === v0 || v1 - v0 > 15) return null;
      let value = 0;
      for (let i = v0; i < v1; i++) {
        const c = text.charCodeAt(i);
        if (!isDigit(c)) return null;
        value = value * 10 + (c - 0x30);
      }
      this.sink.take(this.goroutine, value, op);
    } else if (this.sink.takeValue) {
      const small = smallIntAt(text, v0, v1);
      if (small !== null && this.sink.takeNumber) this.sink.takeNumber(this.goroutine, this.names[name], small, op);
      else this.sink.takeValue(this.goroutine, this.names[name], text.slice(v0, v1), op);
    } else return null;
    return Math.min(text.length, end + (text.charCodeAt(end) === 0x0d ? 2 : 1));
  }

  /** The index of the name text[from, to) among those seen, added when new. */
  private nameAt(text: string, from: number, to: number): number {
    const length = to - from;
    for (let k = 0; k < this.names.length; k++) if (this.names[k].length === length && matchAt(text, from, this.names[k])) return k;
    const name = text.slice(from, to);
    this.names.push(name);
    this.statement.push(this.sink.names.has(name));
    return this.names.length - 1;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** text[from, to) as a number when it is a canonical decimal integer of at most 9 digits (SMALL_INT), else null. */
function smallIntAt(text: string, from: number, to: number): number | null {
  let i = from;
  const negative = text.charCodeAt(i) === 0x2d;
  if (negative) i++;
  const digits = to - i;
  if (digits < 1 || digits > 9) return null;
  const first = text.charCodeAt(i);
  // no leading zero, and no "-0" (which is not the text of the number 0)
  if (first === 0x30 && (digits > 1 || negative)) return null;
  let value = 0;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return null;
    value = value * 10 + (c - 0x30);
  }
  return negative ? -value : value;
}

/**
 * `{"panic":MSG,"goroutine":G,"scheduleOp":P,"scheduleTotal":N,"causalChain":[...]}`. machin
 * escapes only `"` and `\` in MSG, so a message with a newline or a tab spans lines and is not
 * valid JSON as printed: control characters are escaped before parsing.
 */
function parseJsonPanic(lines: string[], start: number, out: ReplayOutput): number {
  for (let end = start; end < lines.length && end < start + 1000; end++) {
    if (!lines[end].endsWith(']}')) continue;
    const text = lines.slice(start, end + 1).join('\n');
    if (!isRecord(parseLooseJson(text))) continue;
    const panic = jsonPanic(text);
    if (!panic) return -1;
    out.panic = panic;
    return end;
  }
  return -1;
}

/** `--json` on a deadlock: `{"deadlock":true,"goroutines":K,"blocked":[{"goroutine":G,...}]}`. */
function parseJsonDeadlock(line: string): ReplayDeadlock | null {
  const value = parseLooseJson(line);
  if (!isRecord(value) || value.deadlock !== true || !isCount(value.goroutines) || !Array.isArray(value.blocked)) return null;
  const blocked: ReplayDeadlock['blocked'] = [];
  for (const b of value.blocked) {
    if (!isRecord(b) || typeof b.goroutine !== 'string') return null;
    const waiting =
      typeof b.recvOnChannel === 'number'
        ? `waiting to receive on channel #${b.recvOnChannel}`
        : b.blockedInSelect
          ? 'waiting in a select (no case can ever fire)'
          : b.blockedOnIO
            ? 'waiting on a blocking read that may never arrive'
            : 'blocked';
    blocked.push({ goroutine: b.goroutine, waiting });
  }
  return { goroutineCount: value.goroutines, blocked };
}

/** `panic: MSG` (MSG may span lines) up to `  (replay: goroutine G, schedule op P/N)`. */
function parseTextPanic(lines: string[], start: number, out: ReplayOutput): number {
  for (let end = start; end < lines.length; end++) {
    const where = PANIC_WHERE.exec(lines[end]);
    if (!where) continue;
    // machin writes `panic: ` and the message apart, so another goroutine's probe lines can come
    // between them (and between the message and its location): those are probes, not message.
    const block = lines.slice(start, end);
    block[0] = block[0].slice('panic: '.length);
    const kept: string[] = [];
    for (let j = 0; j < block.length; j++) {
      const probeEnd = block[j].startsWith('probe ') ? parseProbe(block, j, out.probes) : -1;
      if (probeEnd >= 0) j = probeEnd;
      else kept.push(block[j]);
    }
    const message = kept.join('\n');
    // The --json form, when present too, is richer (it has the causal chain): keep it.
    if (!out.panic || out.panic.form === 'text') {
      out.panic = {
        message,
        goroutine: where[2],
        scheduleOp: Number(where[3]),
        scheduleTotal: Number(where[4]),
        causalChain: null,
        form: 'text',
      };
    }
    return end;
  }
  // A panic outside record/replay has no location line: keep the message, position unknown.
  out.unknown.push(lines[start]);
  return start;
}
