// One `machin replay` run: an argument array, the time limit (a cut or diverging trace can make
// machin wait forever), cancellation, output echoed to the caller as it arrives, and a private
// TMPDIR: machin compiles the program into TMPDIR (`mfl-replay-*`) and leaves that folder behind
// when the program panics, so each run gets a fresh folder of its own, removed after it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { RecordingError } from '../model/errors';
import { runProcess } from '../toolchain/run-process';
import type { ToolchainOptions } from '../open-options';
import type { MachinTool } from './find-machin';
import { parseReplayOutput, type ReplayOutput, type ReplayOutputStream } from './machin-output';
import { isProbeLine } from './probe-line';
import { machinCores, replayCommandPrefix, replayCpu } from './replay-cores';
import { replayMemoryEnv } from './replay-memory';
import type { ValueHistoriesMaker } from './value-histories';

export const DEFAULT_TIME_LIMIT_MS = 60_000;
let runs = 0;

export interface ReplayRun {
  /** The flags after `replay TRACE`, e.g. ['--json'] or ['--print', 'a,b']. */
  flags: string[];
  exitCode: number;
  /** The program's own output. */
  stdout: string;
  stderr: string;
  output: ReplayOutput;
  /**
   * For the replay against the instrumented copy: where value j (of valueColumns) goes, asked in
   * order j = 0, 1, ...: the event of its thread in recording.statements that stored it (-1: before
   * the thread's first statement; -2: not known), its position (never before that statement) and
   * whether it surely ran or is this replay's only. Worked out as asked, so a million values cost
   * no column of their own.
   */
  valuePlaces?: (j: number) => ValuePlace;
  /** The values of the replay against the instrumented copy, in columns (output.probes is then empty). */
  valueColumns?: ValueColumns;
  /**
   * The values already placed as the parse read them (the values' replay of a two-stage launch),
   * made histories once merged: valueColumns then holds only what the parse could not place.
   */
  valuesMade?: ValueHistoriesMaker;
}

export interface ValuePlace {
  event: number;
  position: number;
  sure: boolean;
}

/** Probes read by index: the parse's columns, never a million objects. */
export interface ValueColumns {
  length: number;
  goroutine(j: number): string;
  name(j: number): string;
  value(j: number): string;
  /** The value as a number when it was printed as a small integer (SMALL_INT: value(j) is its text), else null; where given, asked before value(j). */
  number?(j: number): number | null;
  op(j: number): number;
  /** Gives the columns' memory back once they are read (the values are unreadable after). */
  release?(): void;
}

/** ValueColumns over probe objects (a plain --print replay's). */
export function probeColumns(probes: ReplayOutput['probes']): ValueColumns {
  return { length: probes.length, goroutine: (j) => probes[j].goroutine, name: (j) => probes[j].name, value: (j) => probes[j].value, op: (j) => probes[j].op };
}

/** Throws RecordingError 'toolchain-timeout', 'cancelled', 'toolchain-missing' or 'toolchain-failed'. */
export async function runMachinReplay(
  machin: MachinTool,
  trace: string,
  flags: string[],
  options: ToolchainOptions,
  /**
   * How its stderr is read: parsed whole once machin ended, or (a ReplayOutputStream: the
   * instrumented replay, which prints a line per statement) as it arrives, never held whole.
   */
  parse: ((stderr: string) => ReplayOutput | Promise<ReplayOutput>) | ReplayOutputStream = parseReplayOutput,
  /** More environment for machin and the program (the instrumented replay's LD_PRELOAD: source/stderr-buffer.ts); every replay also gets replay-memory.ts's. */
  env: Record<string, string> = {},
  /** 1 for the second of two replays run side by side: on one CPU, it gets another than the first (replay-cores.ts). */
  slot: 0 | 1 = 0,
  /** Called once machin is spawned (runProcess's onStarted). */
  onStarted?: () => void,
): Promise<ReplayRun> {
  const args = ['replay', trace, ...flags];
  const cores = machinCores(options.machinCores);
  const prefix = replayCommandPrefix(cores, slot);
  const printing = flags.includes('--print');
  const runEnv = { ...env, ...replayMemoryEnv({ printing, oneCpu: replayCpu(cores, slot).length > 0 }) };
  const shownEnv = Object.entries(runEnv).map(([name, value]) => `${name}=${value} `).join('');
  options.onOutput?.(`$ ${shownEnv}${[...prefix, machin.path, ...args].join(' ')}\n`);
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  let result;
  const stream = typeof parse === 'function' ? null : parse;
  // Its stderr comes in chunks as it is read: the probe lines are counted, the rest shown (a
  // streamed parse shows the lines it finds are no probes: they are scanned once, not twice).
  const shown = options.onOutput && !stream ? new ProbeLineFilter(options.onOutput) : null;
  if (stream && options.onOutput) stream.showOthers(options.onOutput);
  // Inside the trace copy's private 0700 folder (so a killed process's is swept with it).
  const tmp = await fs.mkdtemp(path.join(path.dirname(trace), 'tmp-'));
  try {
    result = await runProcess(prefix[0] ?? machin.path, prefix.length > 0 ? [...prefix.slice(1), machin.path, ...args] : args, {
      timeLimitMs,
      signal: options.signal,
      env: { ...runEnv, TMPDIR: tmp },
      // Beside the copy, in its private folder (removed with it); read by a worker: see stderrPath.
      // Only where machin prints probes (--print): a plain replay's stderr is a few lines, and a
      // FIFO and its reader would cost more than they save (two processes and a thread started).
      stderrPath: printing ? `${trace}.stderr-${++runs}` : undefined,
      streamStderrBytes: stream ? (lines) => stream.pushBytes(lines) : undefined,
      onStarted,
      onOutput: options.onOutput ? (from, text) => (from === 'stdout' ? options.onOutput!(text) : shown?.push(text)) : undefined,
    });
  } catch (err) {
    if (err instanceof RecordingError && err.code === 'toolchain-timeout') {
      options.onOutput?.('[stopped: time limit]\n');
      throw new RecordingError('toolchain-timeout', timeLimitMessage(flags, timeLimitMs));
    }
    throw err;
  } finally {
    // runProcess answers once machin's process group is gone, so nothing still writes here.
    await fs.rm(tmp, { recursive: true, force: true });
  }
  shown?.end();
  const output = stream ? stream.end() : await (parse as (stderr: string) => ReplayOutput | Promise<ReplayOutput>)(result.stderr);
  if (stream && stream.probes > 0) options.onOutput?.(probeLinesNote(stream.probes));
  options.onOutput?.(`[exit ${result.exitCode}]\n`);
  return { flags, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, output };
}

/**
 * A streamed stderr for the output channel: its lines but the probes, which are counted. The
 * instrumented replay prints millions of probe lines, so they are found in the text as it is and
 * never made strings; only the runs of other lines between them are.
 */
export class ProbeLineFilter {
  private carry = '';
  private probes = 0;

  constructor(private readonly out: (text: string) => void) {}

  push(text: string): void {
    const all = this.carry.length === 0 ? text : this.carry + text;
    const kept: string[] = [];
    let from = 0; // where the run of lines to show starts
    let s = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; s = nl + 1, nl = all.indexOf('\n', s)) {
      if (!isProbeLine(all, s, nl)) continue;
      if (from < s) kept.push(all.slice(from, s));
      from = nl + 1;
      this.probes++;
    }
    if (from < s) kept.push(all.slice(from, s));
    this.carry = all.slice(s);
    if (kept.length) this.out(kept.join(''));
  }

  end(): void {
    if (this.carry) this.out(`${this.carry}\n`);
    if (this.probes > 0) this.out(probeLinesNote(this.probes));
  }
}

/** What the output channel says in place of the probe lines. */
function probeLinesNote(n: number): string {
  return `[${n} probe lines of --print: the values are in the variable history]\n`;
}

/**
 * machin waits forever when the program asks for a schedule the trace does not have (it was
 * changed since the recording) and, of course, when the run is just long: both are said.
 */
export function timeLimitMessage(flags: string[], ms: number): string {
  const seconds = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
  const what = ['machin replay', ...flags.filter((f) => f.startsWith('--'))].join(' ');
  return (
    `${what}: no answer within ${seconds}, so it was stopped. Either the program differs from the one ` +
    `that was recorded (machin then waits forever for a schedule the trace does not have), or the run ` +
    `takes longer than the limit: raise the setting frozenRun.timeLimitSeconds (on the command line, --time-limit SECONDS)`
  );
}

