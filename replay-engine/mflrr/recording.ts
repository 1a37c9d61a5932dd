// A machin trace as a Recording: the timeline read from the `.mflrr` file plus what machin's replay
// adds when it is available (panic, verify verdict, value histories, goroutine labels: set by the
// machin bridge, replay-engine/machin/enrich.ts). Trace-only, those stay null.
import type { EngineWarning } from '../model/errors';
import { basename } from 'node:path';
import { readyStatements, type PanicInfo, type TraceRecording, type RecordView, type SourceLocation, type ValueHistories, type VerifyVerdict } from '../model/recording';
import type { SourceLevelStatus, SourceStatements } from '../model/source-level';
import type { RecordParts } from '../model/record-parts';
import type { Timeline } from '../model/timeline';
import { decodeIo, SELECT_LOOKBACK } from './decode-io';
import type { FileStamp } from '../regular-file';
import type { MflrrHeader } from './header';
import { readTrace, type TraceRead } from './read-trace';
import { traceInspectDocument, traceInspectJson, traceInspectText } from './inspect-document';

export class MflrrRecording implements TraceRecording {
  readonly format = 'mflrr' as const;
  readonly timeline: Timeline;
  readonly header: MflrrHeader;
  readonly warnings: EngineWarning[];
  /** Number of `I` records. */
  readonly ioTotal: number;
  /** File bytes up to the end of the last line read; a replay copy of the trace stops there. */
  readonly completeBytes: number;
  /** The 1-based line of an ignored cut last line, or null. */
  readonly cutLine: number | null;
  /** The version of the file that was read; the served text must be that version. */
  readonly stamp: FileStamp;
  panic: PanicInfo | null = null;
  verify: VerifyVerdict | null = null;
  histories: ValueHistories | null = null;
  valuesPending: Promise<void> | null = null;
  statementsPending: Promise<void> | null = null;
  statements: SourceStatements | null = null;
  sourceLevel: SourceLevelStatus = { state: 'unavailable', reason: 'machin has not replayed this trace' };
  /** Set by the machin bridge when it can place a goroutine's records in the program. */
  locateSource: ((record: number) => SourceLocation | undefined) | null = null;
  /** Likewise per thread (a goroutine's function), for threads with no records too. */
  locateThread: ((thread: number) => SourceLocation | undefined) | null = null;
  private counts: { steps: Uint32Array; io: Uint32Array };

  constructor(read: TraceRead) {
    this.timeline = read.timeline;
    this.header = read.header;
    this.warnings = read.warnings;
    this.ioTotal = read.ioTotal;
    this.completeBytes = read.completeBytes;
    this.cutLine = read.cutLine;
    this.stamp = read.stamp;
    this.counts = { steps: read.opsPerThread, io: read.ioPerThread };
  }

  get file(): string {
    return this.timeline.file;
  }

  get bestEffort(): boolean {
    return this.header.boundary === 'best-effort';
  }

  /**
   * Schedule ops (`S`) and I/O records (`I`) per thread index, counted while reading. Threads the
   * machin bridge added later (named by machin, absent from the trace) count 0.
   */
  threadCounts(): { steps: Uint32Array; io: Uint32Array } {
    const n = this.timeline.threads.length;
    if (this.counts.steps.length < n) {
      const steps = new Uint32Array(n);
      steps.set(this.counts.steps);
      const io = new Uint32Array(n);
      io.set(this.counts.io);
      this.counts = { steps, io };
    }
    return this.counts;
  }

  /** A trace's records are ops and reads: none fails. */
  faults(): number[] {
    return [];
  }

  /** A record is its payload (an `S` line has none, an `I` line its bytes); there is no separate result. */
  comparisonParts(): RecordParts {
    const tl = this.timeline;
    return { identity: { pool: tl.bytes, ...tl.payloadBounds() }, result: null, valueText: (r) => this.describe(r).value.text };
  }

  /** The header's program line (its fact reads "(none: ...)" when the line is missing). */
  programNamed(): string {
    return this.header.program ?? '';
  }

  inspectDocument(): object {
    return traceInspectDocument(this);
  }

  inspectJson(): object {
    return traceInspectJson(this);
  }

  inspectText(): string {
    return traceInspectText(this);
  }

  describe(r: number): RecordView {
    const tl = this.timeline;
    const t = tl.thread[r];
    const g = tl.threads[t];
    const who = g.label ? `goroutine ${g.id} (${g.label})` : `goroutine ${g.id}`;
    const step = tl.stepOf(r);
    const base = { record: r, kind: tl.kindName(r), thread: t, line: tl.lineOf(r), step, position: tl.positionOf(r) };
    if (step >= 0) {
      const text = `op ${step}/${tl.stepCount}, ${who}`;
      return {
        ...base,
        summary: `S ${g.id} · ${text}`,
        value: {
          text,
          type: 'sched',
          children: [
            { name: 'op', value: { text: `${step} (0-based; ${step + 1} of ${tl.stepCount} done after it)`, type: 'number' } },
            { name: 'goroutine', value: { text: g.label ? `${g.id} (${g.label})` : g.id, type: 'thread' } },
          ],
        },
      };
    }
    const previous = this.previousOfThread(r, t);
    const followsOwnStep = previous >= 0 && tl.stepOf(previous) >= 0;
    const value = decodeIo(tl.payload(r), { followsOwnStep, select: followsOwnStep ? this.selectOf(tl.stepOf(previous)) : undefined });
    return { ...base, summary: `I ${g.id} → ${value.text}`, value };
  }

  sourceLocation(record: number): SourceLocation | undefined {
    return this.locateSource?.(record);
  }

  threadLocation(thread: number): SourceLocation | undefined {
    return this.locateThread?.(thread);
  }

  /** The goroutine's previous record (-1: none within LOOKBACK). */
  private previousOfThread(r: number, t: number): number {
    const tl = this.timeline;
    const stop = Math.max(0, r - SELECT_LOOKBACK);
    for (let q = r - 1; q >= stop; q--) if (tl.thread[q] === t) return q;
    return -1;
  }

  /** At source level, whether step k was a `select` (where), or known not to be one; undefined when not known. */
  private selectOf(k: number): { place: string } | false | undefined {
    const s = readyStatements(this);
    const by = s?.performerOfStep(k);
    if (!s || !by) return undefined;
    const loc = s.location(by.thread, by.event);
    return loc.op === 'select' ? { place: `${basename(loc.file)}:${loc.line}:${loc.column}` } : false;
  }
}

/** Reads a `.mflrr` file (trace-only; nothing runs). Throws RecordingError. */
export async function readMflrr(file: string): Promise<MflrrRecording> {
  return new MflrrRecording(await readTrace(file));
}
