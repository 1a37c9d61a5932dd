// The messages between the extension host and the Frozen Run webviews (timeline and variable
// history). Shared by both sides: the host imports these types and `packModel`/`packHistory`, the
// webview bundles `unpackModel`/`unpackHistory`. Small control messages are plain JSON-able
// objects; bulk data (per-record arrays, value histories) travels as one msgpackr-packed
// Uint8Array, which VS Code's postMessage transfers as binary instead of a JSON array of numbers.
//
// Versioning: the webview's first message is `ready` with PROTOCOL_VERSION; the host answers with
// `model`/`history` carrying the version it speaks. A mismatch is shown as an error in the view.
// Add fields compatibly (optional); bump PROTOCOL_VERSION for anything else.
//
// What the host serves as the webview's HTML: `webviewHtml` and `webviewCsp` at the end of this
// file; docs/webview.md ("What the host must do") explains each rule.
import { Packr } from 'msgpackr';
import type { FormatTraits } from '../replay-engine/model/format-traits';

export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** One header fact shown at the top (program, boundary, safe flag / status, request, peer, Tin version). */
export interface FactMsg {
  key: string;
  label: string;
  value: string;
}

/** A goroutine (machin) or task (Tin). */
export interface ThreadMsg {
  /** The recording's own id: `0.1`, `2`. */
  id: string;
  /** Human name (`main`, `feed`); empty when unknown. */
  label: string;
}

/**
 * A decoded value as a tree; the same shape as replay-engine/model/recording.ts DecodedValue.
 * The webview renders every string in it as text (never markup).
 */
export interface DecodedValueMsg {
  text: string;
  type: string;
  children?: Array<{ name: string; value: DecodedValueMsg }>;
  /** A long list: `children` is its first page, `count` how many there are in all. */
  more?: { count: number };
}

/** One record described for the details panel; the same shape as RecordView in the engine. */
export interface RecordViewMsg {
  record: number;
  kind: string;
  thread: number;
  /** 1-based line in the trace text or the capsule's decoded document. */
  line: number;
  /** Step number, or -1 for a non-step record (a machin I/O line). */
  step: number;
  /** Cursor position at which the record is done. */
  position: number;
  summary: string;
  value: DecodedValueMsg;
}

/**
 * The timeline's bulk data, packed with `packModel`. Records are in file order and are the
 * x axis; steps are the records the cursor moves over. Mirrors replay-engine/model/timeline.ts.
 */
export interface TimelineModel {
  format: 'mflrr' | 'tcap';
  /** What the format says about itself (its words, its action): the view asks this, never the format. */
  traits: FormatTraits;
  /** Base name of the recording file (never a full path: it may reveal user names). */
  fileName: string;
  facts: FactMsg[];
  threads: ThreadMsg[];
  /** Interned kind names indexed by `recordKind`: `sched`, `io`, `redis@1`, `http@1`, ... */
  kinds: string[];
  recordCount: number;
  /** recordCount entries: thread index of each record. */
  recordThread: Uint8Array | Uint16Array | Uint32Array;
  /** recordCount entries: kind index of each record. */
  recordKind: Uint8Array;
  /** stepCount entries, ascending: record index of step k (Timeline.stepRecord). */
  stepRecord: Uint32Array;
  /**
   * Optional one-line summaries for the first records (e.g. up to 10,000), shown on hover and in
   * the accessible list without a round trip. Index = record.
   */
  summaries?: string[];
  panic: PanicMsg | null;
  /** True when replays may diverge from the recorded run (an FFI trace): the view says so. */
  bestEffort: boolean;
  /** For a capsule: the decoded request, shown in the details panel before any selection. */
  request?: DecodedValueMsg;
  /** machin replay --verify's verdict, for the header (absent: not run, or a capsule). */
  verdict?: VerdictMsg;
  /** One line on what machin would add when it could not run (absent when it ran or is not wanted). */
  toolchainNote?: string;
  /** Source level (a machin trace replayed against its program): the statement of each schedule op. Absent without it. */
  program?: ProgramMsg;
}

/**
 * The program's statement that performed each schedule step (extension/view-models/program-model.ts).
 * Arrays have stepCount entries; 0 means not known (the goroutine's statements there were left out).
 */
export interface ProgramMsg {
  /** Base name of the program (`bank.mfl`), as labels show it. */
  fileName: string;
  /** The program's path on this machine (the header facts show it too). */
  path: string;
  /** 1-based line of the statement that did step k; 0 unknown. Uint16Array while every line is under 65,536. */
  stepLine: Uint16Array | Uint32Array;
  /** 1-based column (UTF-16 units) of that statement; 0 unknown. */
  stepColumn: Uint16Array | Uint32Array;
  /** Index into opWords of what step k did there (`recv`, `send`, `select`, ...); 0 is `op` (not known from the text). */
  stepOp: Uint8Array;
  opWords: string[];
}

export interface VerdictMsg {
  /** FAITHFUL or DIVERGED (machin's verify); for a replay that panicked, what is known instead. */
  verdict: string;
  /** Whose word it is: `verify` (machin replay --verify, the default) or `replay` (no verdict: the replay panicked). */
  label?: string;
  /** How it reads (default: from `verdict`). */
  tone?: 'faithful' | 'diverged';
  /** The numbers: `4/4 ops replayed, no I/O underrun, boundary faithful`. */
  detail: string;
}

export interface PanicMsg {
  /** Cursor position of the panic (steps completed). The panic marker sits there. */
  position: number;
  /** Thread index that panicked. */
  thread: number;
  message: string;
  /**
   * The causal chain as step indices (ascending) when the engine narrowed it; when absent the
   * chain is every step before `position` (PanicInfo.causalChain: the thread of each of them).
   */
  chainSteps?: Uint32Array;
}

/** Variable history bulk data, packed with `packHistory`. One row per value the variable took. */
export interface HistoryModel {
  name: string;
  threads: ThreadMsg[];
  /** Cursor position at which each value was set (the op). */
  position: Uint32Array;
  /** Thread index of each value. */
  thread: Uint32Array;
  /** The values as text, as the engine reports them. */
  values: string[];
  /** 1 where machin printed the value in this replay but may not in another (shown marked "this replay only"). */
  thisReplayOnly: Uint8Array;
  /** Source level: the statement that stored each value (absent at record level: rows are ops). */
  stores?: HistoryStores;
}

/** The statements of a source-level history's rows (replay-engine/model/statement-histories.ts). */
export interface HistoryStores {
  /** The function whose variable it is ('' for a global). */
  function: string;
  /** The program's file name (`reorder.mfl`). */
  file: string;
  /** Each value's place in the run's one order of statements (the chart's x; rows ascend). */
  seq: Uint32Array;
  /** The goroutine's event after which it was stored (a goto goes just after it). */
  event: Int32Array;
  /** The storing statement, 1-based. */
  line: Uint32Array;
  column: Uint32Array;
  /** Frames below the storing one (recursion). */
  depth: Uint32Array;
  /** Statements the whole run executed (the chart's end). */
  statementCount: number;
}

/** A moment on a lane: a statement that ran with `position` steps done, by the goroutine of lane `lane`. */
export interface LaneMoment {
  position: number;
  lane: number;
}

/** A link of a value's origin chain on the timeline (replay-engine/machin/source/value-origin.ts's step). */
export interface OriginLinkMsg extends LaneMoment {
  /** How the value came there: store, copy, receive, send, call. */
  via: string;
  /** `x = 5 · worker 1:18`. */
  label: string;
}

/**
 * The log point hits (each a mark on its goroutine's lane) and the origin chain last asked for (its
 * links joined by edges, lane to lane, newest first), from the debug session (extension/run-marks.ts).
 */
export interface RunMarksMsg {
  type: 'runMarks';
  hits: LaneMoment[];
  /** Hits the log points have in all (more than `hits` when only the first were sent). */
  hitCount: number;
  origin: { title: string; links: OriginLinkMsg[]; end: string } | null;
}

/** Toolbar buttons of the timeline: the host runs the matching `frozen-run.<id>` command. */
export type TimelineCommandId =
  | 'replayToPanic'
  | 'stepBackInto'
  | 'stepBackOut'
  | 'runBackToCursor'
  | 'replayAgainstBuild'
  | 'openVariableHistory'
  | 'compareWith'
  | 'openAsText'
  | 'setCapsuleKey'
  | 'openMachinSetting';

export const TIMELINE_COMMANDS: readonly TimelineCommandId[] = [
  'replayToPanic',
  'stepBackInto',
  'stepBackOut',
  'runBackToCursor',
  'replayAgainstBuild',
  'openVariableHistory',
  'compareWith',
  'openAsText',
  'setCapsuleKey',
  'openMachinSetting',
];

// ---------------------------------------------------------------------------------------------
// Host → timeline webview

export type HostToTimeline =
  /** The recording's model (answer to `ready`, or again after the file changed on disk). */
  | { type: 'model'; version: number; data: Uint8Array }
  /** The debug session's cursor; position null when no session runs (the marker is hidden). */
  /** `record` -1: no record has happened; `atStart`: nor any statement (the status bar's `start`, else `before op 0`). */
  | { type: 'cursor'; position: number | null; thread: number; record?: number; atStart?: boolean }
  /** Answer to `requestDetails`. */
  | { type: 'recordDetails'; record: number; view: RecordViewMsg }
  /** Where Replay Against Build diverged (record index; for a capsule effect n is record n, 0-based); null clears. */
  | { type: 'divergence'; record: number | null; message?: string }
  /** Workspace trust and similar notices shown as a banner above the view; null hides it. */
  | { type: 'banner'; text: string | null }
  /** The whole run's answers of the debug session (issue 30): log point hits, a value's origin chain. Replaces the previous. */
  | RunMarksMsg
  /** One message shown instead of the view (wrong key, unreadable file), with buttons for what fixes it. Never contains a key. */
  | { type: 'error'; message: string; actions?: Array<{ id: TimelineCommandId; label: string }> };

// ---------------------------------------------------------------------------------------------
// Timeline webview → host

export type TimelineToHost =
  /** Sent once the script runs (and after a reload); the host answers with `model` and the current state. */
  | { type: 'ready'; version: number }
  /** Move the debug session to `position` (start one if none runs). `record` is the record asked for (Enter, Debug from Here, or a click while a session runs). */
  | { type: 'goto'; position: number; record: number }
  /** Run a toolbar command. */
  | { type: 'command'; id: TimelineCommandId }
  /** Ask for the decoded record (answered by `recordDetails`). */
  | { type: 'requestDetails'; record: number }
  /** "Open in program": show the model's program at this statement (1-based line and column) in an editor beside the timeline. */
  | { type: 'openProgram'; line: number; column: number };

// ---------------------------------------------------------------------------------------------
// Host → history webview

export type HostToHistory =
  /** The watched variable names to pick from, and which one to show (if any). */
  | { type: 'names'; version: number; names: string[]; selected?: string }
  /** Every value of one variable (packed HistoryModel). Zero rows when it never took a value. */
  | { type: 'history'; version: number; data: Uint8Array }
  /** `seq`: at source level, the cursor in the order of statements (CursorEventBody.statementSeq). */
  | { type: 'cursor'; position: number | null; thread: number; seq?: number | null }
  | { type: 'error'; message: string };

// History webview → host
export type HistoryToHost =
  | { type: 'ready'; version: number }
  /** The user picked or typed a variable name. */
  | { type: 'pickVariable'; name: string }
  /**
   * A row was clicked: move the debug session to the position where that value was set; at source
   * level (`row`) just after the statement that stored it.
   */
  | { type: 'goto'; position: number; row?: number };

// ---------------------------------------------------------------------------------------------
// Packing. `moreTypes` keeps typed arrays typed; `useRecords: false` keeps the unpacker free of
// `new Function` (forbidden by the webview's CSP).

const packr = new Packr({ moreTypes: true, useRecords: false });

/**
 * How `threads` travels: the ids joined by newlines (ids never hold one), and the labels the same
 * way only when some thread has one. 750,000 goroutines as objects are about 18 MB of msgpack maps
 * and most of the unpacking time; as one string they cost their characters.
 */
interface PackedThreads {
  threadIds: string;
  threadLabels?: string;
}

export function packModel(model: TimelineModel): Uint8Array {
  const { threads, ...rest } = model;
  const packed: PackedThreads = { threadIds: threads.map((t) => t.id).join('\n') };
  if (threads.some((t) => t.label !== '')) packed.threadLabels = threads.map((t) => t.label.replace(/\n/g, ' ')).join('\n');
  return plainBytes(packr.pack({ ...rest, ...packed }));
}

/** The model as packModel packed it (a model packed with `threads` as a list reads as well). */
export function unpackModel(data: Uint8Array): TimelineModel {
  const raw = packr.unpack(data) as (TimelineModel & Partial<PackedThreads>) | null;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw.threads) || typeof raw.threadIds !== 'string') return raw as TimelineModel;
  const { threadIds, threadLabels, ...rest } = raw;
  const ids = threadIds === '' ? [] : threadIds.split('\n');
  const labels = typeof threadLabels === 'string' ? threadLabels.split('\n') : null;
  const threads: ThreadMsg[] = new Array(ids.length);
  for (let t = 0; t < ids.length; t++) threads[t] = { id: ids[t], label: labels?.[t] ?? '' };
  return { ...rest, threads };
}

export function packHistory(history: HistoryModel): Uint8Array {
  return plainBytes(packr.pack(history));
}

/** A plain Uint8Array view (not a Node Buffer) so postMessage sends it as binary everywhere. */
function plainBytes(b: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function unpackHistory(data: Uint8Array): HistoryModel {
  return packr.unpack(data) as HistoryModel;
}

// ---------------------------------------------------------------------------------------------
// The HTML contract (the host builds the page; tests build the same page in a harness).

/**
 * The CSP the host must send. Nothing loads but the nonce'd bundle: styles are constructed
 * stylesheets adopted by the document (not governed by style-src), there are no images, fonts or
 * connections. `cspSource` (webview.cspSource) is kept in the signature for when a view needs a
 * local resource; today none does.
 */
export function webviewCsp(_cspSource: string, nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`].join('; ');
}

/**
 * The page the host serves: the CSP, the theme class VS Code adds itself, one nonce'd script
 * tag for the bundle (dist/webview/<name>.js). The bundle reads the nonce from its own script tag
 * for the one <style> element it adds.
 */
export function webviewHtml(opts: { cspSource: string; nonce: string; scriptUri: string; title: string }): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(webviewCsp(opts.cspSource, opts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${esc(opts.title)}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${esc(opts.nonce)}" src="${esc(opts.scriptUri)}"></script>
</body>
</html>`;
}
