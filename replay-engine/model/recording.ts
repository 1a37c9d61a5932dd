// A recording as every view sees it: the timeline plus what is known about the run (panic,
// verify verdict, value histories) and a decoder that turns one record into something readable,
// tagged by format, each with its own header.
import type { MflrrHeader } from '../mflrr/header';
import type { FileStamp } from '../regular-file';
import type { CapsuleHeader } from '../tcap/body';
import type { RequestParts } from '../tcap/decode/http-request';
import type { EngineWarning } from './errors';
import type { ProgramWords } from './program-words';
import type { RecordParts } from './record-parts';
import type { SourceLevelStatus, SourceStatements } from './source-level';
import type { Timeline } from './timeline';

/** A decoded value as a tree, for DAP variables, hovers and the webview details panel. */
export interface DecodedValue {
  /** Short text shown on one line ("200 OK", "\"payload-42\\n\"", "[3 items]"). */
  text: string;
  /** What kind of thing it is, for styling and tests: 'text', 'hex', 'number', 'time', 'resp', 'http', ... */
  type: string;
  /** The parts of the value; for a long list only its first PREVIEW_CHILDREN, the rest in `more`. */
  children?: DecodedChild[];
  /** A list longer than `children`: how many there are, and any range of them, made when asked. */
  more?: ChildPages;
}

export interface DecodedChild {
  name: string;
  value: DecodedValue;
}

/** All the children of a long list (children[0..] are pages' first items too), made page by page. */
export interface ChildPages {
  count: number;
  /** Children from..to-1 (0-based over the whole list). */
  page(from: number, to: number): DecodedChild[];
}

export interface RecordView {
  record: number;
  kind: string;
  thread: number;
  line: number;
  /** Step number of this record, or -1 for a non-step record. */
  step: number;
  /** Cursor position at which it is done. */
  position: number;
  /** One line for lists and the timeline: `S 0.1 (op 3/8)`, `redis@1 GET cart:7 → "sku-1,sku-2"`. */
  summary: string;
  value: DecodedValue;
}

export interface PanicInfo {
  message: string;
  /** Thread index in timeline.threads. */
  thread: number;
  /** Cursor position of the panic: how many steps had completed. */
  position: number;
  /** Thread index of each step 0..position-1, the steps that led there. */
  causalChain: Uint32Array;
  /** Where the facts came from: `machin` (replay --json), `capsule` (recorded panic). */
  source: string;
}

export interface VerifyVerdict {
  scheduleDone: number;
  scheduleTotal: number;
  ioUnderrun: boolean;
  boundary: string;
  verdict: 'FAITHFUL' | 'DIVERGED';
  /**
   * How many of the recorded ops come up to and including main's last one (run-facts.ts
   * opsUpToMainsLast): a run that ends normally ends when main does, so the ops after it (other
   * goroutines') may or may not be replayed before it ends.
   */
  mainsLastOp?: number;
}

/** One value a variable took: on thread `thread`, set once `position` steps had completed. */
export interface HistoryEntry {
  thread: number;
  position: number;
  value: string;
  /**
   * The statement event of `thread` that assigned it (source-level: recording.statements), when
   * the values came from the replay that also gave the statements. -1: before the goroutine's
   * first statement (the parameters of the function it runs).
   */
  event?: number;
  /**
   * Printed by this replay but not surely by another: stored after the last moment its goroutine
   * is known to run before the run's end (docs/value-positions.md). Shown marked "this replay only".
   */
  thisReplayOnly?: true;
}

/** Every value of every watched variable, in true order. Names are per thread. */
export interface ValueHistories {
  names: string[];
  /** Every value of `name`, by position (made when asked: a million values are not a million objects until then). */
  entries(name: string): HistoryEntry[];
  /** How many values `name` took (entries(name).length, without making them). */
  count(name: string): number;
  /** The value of `name` on `thread` as of position p: its last entry with position <= p. */
  valueAt(name: string, thread: number, p: number): string | undefined;
  /** The entry valueAt reads (with its this-replay-only mark), where the histories keep entries. */
  entryAt?(name: string, thread: number, p: number): HistoryEntry | undefined;
  /**
   * The value of `name` on `thread` when it stands at its statement event `event` (about to run
   * it, or blocked in it): what earlier statements stored, plus what this one stored once its op
   * completed (a receive's value, placed after `anchor`, the event's own position) when the
   * cursor is at position p past it. Undefined when entries carry no events.
   */
  valueAtEvent?(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): string | undefined;
  /**
   * The entry valueAtEvent reads (its `event` is the statement that stored it). `accept`: only
   * entries whose event it takes count (a frame's own: SourceStatements.sameFrame).
   */
  entryAtEvent?(name: string, thread: number, event: number, anchor: number, p: number, accept?: (stored: number) => boolean): HistoryEntry | undefined;
}

/** What every recording is, whatever its format. */
interface RecordingBase {
  timeline: Timeline;
  warnings: EngineWarning[];
  /** True when results may diverge from the recorded run (an FFI trace). */
  bestEffort: boolean;
  panic: PanicInfo | null;
  verify: VerifyVerdict | null;
  histories: ValueHistories | null;
  /** While the values of a deferred enrichment (`deferValues`) are still coming: resolves when they are in; never rejects. */
  valuesPending?: Promise<void> | null;
  /** Every statement each thread executed (machin traces with the program at hand), or null. */
  statements?: SourceStatements | null;
  /**
   * While the statements of a deferred enrichment are still coming (the first of its two stages at
   * source level: valuesPending settles after it): resolves when `sourceLevel` is no longer
   * `pending`; never rejects.
   */
  statementsPending?: Promise<void> | null;
  /** Whether `statements` is coming (`pending` while statementsPending), there, or why not. */
  sourceLevel?: SourceLevelStatus;
  /** The `.mfl` file read and replayed for this trace (beside the trace, or --program), when one was: see model/run-facts.ts. */
  programUsed?: string | null;
  /** The program's text as its statements were read from it (their lines and columns are of this text), with them. */
  programText?: string | null;
  /** The op words of the program's statements (the views'), with them. */
  programWords?: ProgramWords | null;
  describe(record: number): RecordView;
  /** The records whose effect failed (a capsule's faults), ascending; none in a trace. */
  faults(): number[];
  /** What each record is and what it got, for `compare` (record-parts.ts). */
  comparisonParts(): RecordParts;
  /** The program the recording names ('' when it names none). */
  programNamed(): string;
  /**
   * `frozen-run inspect --json`'s document: its long lists (a capsule's effects, a trace's threads
   * and causal chain) are sequences written item by item (json-chunks.ts). `withRecords: false`
   * leaves out the per-record list (a capsule's effects).
   */
  inspectDocument(withRecords?: boolean): object;
  /** inspectDocument as plain JSON values. */
  inspectJson(withRecords?: boolean): object;
  /** `frozen-run inspect`'s text summary. */
  inspectText(): string;
  /**
   * A capsule's decoded text document (one line per effect at timeline.lineOf(r)), served to
   * editors through a DAP sourceReference and the LSP. Undefined for text formats (the trace file
   * itself is the document).
   */
  decodedDocument?(): string;
  /** For a text format: the version of the file that was indexed (lines and records refer to it). */
  stamp?: FileStamp;
  /** Where in the program record r's thread runs (the goroutine's function, a select site), when known. */
  sourceLocation?(record: number): SourceLocation | undefined;
  /** Where in the program a thread runs (a goroutine's function), also for a thread with no records. */
  threadLocation?(thread: number): SourceLocation | undefined;
}

/** A machin trace (mflrr/recording.ts): its header is the trace's header lines. */
export interface TraceRecording extends RecordingBase {
  readonly format: 'mflrr';
  readonly header: MflrrHeader;
}

/** A Tin capsule (tcap/tcap-recording.ts): its header is the capsule body's header. */
export interface CapsuleRecording extends RecordingBase {
  readonly format: 'tcap';
  readonly header: CapsuleHeader;
  /** The recorded request, parsed (headers paged, secret values as handles). */
  readonly request: RequestParts;
  /** The request as a tree (method, target, version, headers, query, body). */
  requestValue(): DecodedValue;
  readonly panicked: boolean;
  readonly sampled: boolean;
}

/** A recording, tagged by its format: `recording.format` narrows it (and its header). */
export type Recording = TraceRecording | CapsuleRecording;

/** The recording's statements once they are in and trusted (null: stepping is by record). */
export function readyStatements(rec: Recording): SourceStatements | null {
  return rec.sourceLevel?.state === 'ready' ? rec.statements ?? null : null;
}

export interface SourceLocation {
  /** Absolute path of the program source. */
  path: string;
  /** 1-based. */
  line: number;
  /** Function or site name for a stack frame. */
  name: string;
}
