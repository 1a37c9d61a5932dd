// The DAP session: maps Debug Adapter Protocol requests onto the replay runtime and the engine.
// It runs inline in the extension host (`new vscode.DebugAdapterInlineImplementation(new
// FrozenRunSession({ keyHex }))`) and standalone over stdio (debug-adapter/main.ts).
import {
  ContinuedEvent, Event, InitializedEvent, InvalidatedEvent, LoggingDebugSession, OutputEvent, Source, StoppedEvent, TerminatedEvent, Thread, DebugSession,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording, SourceLocation } from '../replay-engine/model/recording';
import { openRecording } from '../replay-engine/open';
import { BreakpointTable, EXCEPTION_FILTERS, type Divergence } from './breakpoints';
import { divergenceBody, replayDivergence } from './divergence';
import { evaluateInThread } from './evaluate';
import { exceptionInfo } from './exception-info';
import { checkLaunchArguments, openOptions, type FrozenRunLaunchArguments } from './launch-config';
import { nothingAhead } from './run-end';
import { ReplayRuntime, type Stop } from './runtime';
import { listedThreads, listedThreadsNote } from './thread-list';
import { sortForListing } from '../replay-engine/model/thread-order';
import { isRecordingSource, keepText, servedSource, sourceText, RECORDING_SOURCE_REFERENCE } from './sources';
import { threadName, timelineChunk, type TimelineRequest } from './timeline-data';
import { VariableStore } from './variables';

export interface FrozenRunSessionOptions {
  /** Capsule key (64 hex digits) from the extension's SecretStorage. Never logged. */
  keyHex?: string;
  /** Environment for TIN_REPLAY_KEY / MACHIN / TIN (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * The client shows its own reverse buttons (the extension's Reverse Continue and Step Back, in
   * the toolbar order it wants): `supportsStepBack` is not announced, so VS Code adds none of its
   * own; the `stepBack` and `reverseContinue` requests still work.
   */
  ownReverseButtons?: boolean;
}

/** Custom requests and events (documented in docs/debug-adapter.md). */
export const CUSTOM = {
  stepBackIn: 'frozenRun/stepBackIn',
  stepBackOut: 'frozenRun/stepBackOut',
  runBackTo: 'frozenRun/runBackTo',
  runTo: 'frozenRun/runTo',
  timeline: 'frozenRun/timeline',
  divergence: 'frozenRun/divergence',
  divergenceEvent: 'frozenRun/divergence',
  goto: 'frozenRun/goto',
  setKey: 'frozenRun/setKey',
  cursorEvent: 'frozenRun/cursor',
  causalChainEvent: 'frozenRun/causalChain',
  toolchainEvent: 'frozenRun/toolchain',
} as const;

/** What a run-to request without a target says (the extension passes the editor's line or the timeline's record). */
const NEEDS_TARGET: Record<string, string> = {
  [CUSTOM.runBackTo]: 'Run Back to Cursor needs a line of the recording: put the cursor on a record line (or select a record on the timeline). Arguments: { line } (1-based line of the recording), { position } or { record }.',
  [CUSTOM.runTo]: 'Run to Cursor needs a line of the recording: put the cursor on a record line (or select a record on the timeline). Arguments: { line } (1-based line of the recording), { position } or { record }.',
  [CUSTOM.goto]: 'Say where: { line } (1-based line of the recording), { position } (ops/effects done) or { record }.',
};

const KEY_PATTERN = /^[0-9a-fA-F]{64}$/;
/** How long launch waits for configurationDone before going on (a client that never sends it). */
const CONFIGURATION_WAIT_MS = 10_000;

/** Requests that need no variable values: answered at once while they are still coming. */
const ANSWERED_WITHOUT_VALUES = new Set([
  'initialize', 'launch', 'configurationDone', 'disconnect', 'terminate', 'pause', 'cancel', 'threads', 'stackTrace', 'source',
  'loadedSources', 'exceptionInfo', 'setBreakpoints', 'setFunctionBreakpoints', 'setExceptionBreakpoints',
]);

/** Longest a disconnect waits for the toolchain to be stopped. */
const STOP_WAIT_MS = 5_000;

export class FrozenRunSession extends LoggingDebugSession {
  private keyHex: string | undefined;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly ownReverseButtons: boolean;
  /** A stop was reported since launch or restart (the next one first says every thread moved on). */
  private stopReported = false;
  private args: FrozenRunLaunchArguments | undefined;
  private recording: Recording | undefined;
  private runtime: ReplayRuntime | undefined;
  private variables: VariableStore | undefined;
  private configured: () => void = () => undefined;
  /** The values of a deferred enrichment while machin still prints them (see dispatchRequest). */
  private valuesPending: Promise<void> | null = null;
  private clientInvalidates = false;
  private configurationDone: Promise<void> = new Promise((resolve) => (this.configured = resolve));
  private abort = new AbortController();
  /** The open under way (reading, toolchain runs); settles only once its children have exited and its copy is removed. */
  private opening: Promise<void> = Promise.resolve();
  /** Whether the console was told that the threads list is cut (once a session). */
  private threadsNoted = false;
  /** The served text: kept between requests only for a capsule's decoded document (see keepText). */
  private text: Promise<string> | undefined;
  /** The divergence a replay against another build reported (frozenRun/divergence), kept across restarts. */
  private reported: { file: string; divergence: Divergence } | null = null;
  /** While a custom request is handled: its errors are not shown by VS Code (the extension shows them). */
  private quiet = false;
  /**
   * The breakpoints as last asked for, with the ids they were given: applied again under the same
   * ids when a restart opens the recording anew (the client does not send them again, and matches
   * `hitBreakpointIds` against the ids it was told).
   */
  private asked: {
    lines?: Array<DebugProtocol.SourceBreakpoint & { id: number }>;
    functions?: Array<DebugProtocol.FunctionBreakpoint & { id: number }>;
    data?: Array<DebugProtocol.DataBreakpoint & { id: number }>;
    filters?: string[];
  } = {};

  constructor(options: FrozenRunSessionOptions = {}) {
    super();
    this.keyHex = options.keyHex;
    this.env = options.env;
    this.ownReverseButtons = options.ownReverseButtons === true;
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /** Never let a key reach a log: setKey bypasses the logging session's request trace. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    if (request.command === CUSTOM.setKey) {
      (DebugSession.prototype as unknown as { dispatchRequest(r: DebugProtocol.Request): void }).dispatchRequest.call(this, request);
      return;
    }
    // Stopped at the panic while machin's second replay still prints the values: what needs them
    // (variables, evaluations, moves that test conditions) is answered once they are in.
    const pending = this.valuesPending;
    if (pending && !ANSWERED_WITHOUT_VALUES.has(request.command)) {
      void pending.then(() => this.dispatchRequest(request));
      return;
    }
    super.dispatchRequest(request);
  }

  /**
   * LoggingDebugSession stringifies every response for its log even when logging is off: for the
   * served text of a 100 MB trace that is a second copy and seconds of blocking. A `source`
   * response skips that log (the text is the recording itself, nothing to learn from a log of it).
   */
  override sendResponse(response: DebugProtocol.Response): void {
    if (response.command === 'source' && response.success) {
      (DebugSession.prototype as unknown as { sendResponse(r: DebugProtocol.Response): void }).sendResponse.call(this, response);
      return;
    }
    super.sendResponse(response);
  }

  // ----- lifecycle -----

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.clientInvalidates = args.supportsInvalidatedEvent === true;
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsStepBack: !this.ownReverseButtons,
      supportsGotoTargetsRequest: true,
      supportsRestartRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsFunctionBreakpoints: true,
      supportsDataBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsLoadedSourcesRequest: true,
      supportsDelayedStackTraceLoading: false,
      supportsValueFormattingOptions: false,
      exceptionBreakpointFilters: EXCEPTION_FILTERS.map((f) => ({ filter: f.filter, label: f.label, description: f.description, default: f.default })),
    };
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configured();
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, raw: DebugProtocol.LaunchRequestArguments): Promise<void> {
    try {
      await this.launch(response, raw);
    } catch (e) {
      this.fail(response, 1000, `Frozen Run could not start: ${(e as Error).message ?? String(e)}`);
    }
  }

  private async launch(response: DebugProtocol.LaunchResponse, raw: DebugProtocol.LaunchRequestArguments): Promise<void> {
    const checked = checkLaunchArguments(raw as Record<string, unknown>);
    if (typeof checked === 'string') return this.fail(response, 1001, checked);
    this.args = checked;
    const opened = await this.open(checked);
    if (typeof opened === 'string') return this.fail(response, 1002, opened);
    const start = this.startRecord(checked);
    if (typeof start === 'string') return this.fail(response, 1004, start);
    this.sendEvent(new InitializedEvent());
    await Promise.race([this.configurationDone, new Promise((r) => setTimeout(r, CONFIGURATION_WAIT_MS).unref?.())]);
    this.sendResponse(response);
    await this.begin(checked);
  }

  /** Open the recording (and run the toolchain); a problem comes back as the user's message. */
  private async open(args: FrozenRunLaunchArguments): Promise<Recording | string> {
    const toolchain = args.noToolchain ? 'off' : 'running';
    this.toolchainEvent(toolchain, args.noToolchain ? 'Toolchain not run (noToolchain): showing the recording only' : `Reading ${basename(args.recording)} and replaying it with the toolchain when available...`);
    const options = openOptions(args, this.keyHex, (text) => this.toolchainEvent('output', text), this.abort.signal);
    if (this.env) options.env = this.env;
    let rec: Recording;
    try {
      const opened = openRecording(args.recording, options);
      this.opening = opened.then(() => undefined, () => undefined);
      rec = await opened;
    } catch (e) {
      const message = e instanceof RecordingError ? e.message : `${args.recording}: ${(e as Error).message ?? String(e)}`;
      this.toolchainEvent('failed', message);
      return message;
    }
    this.recording = rec;
    this.text = undefined;
    this.awaitValues(rec);
    const runtime = new ReplayRuntime(rec, { log: (text, r) => this.logPoint(text, r) });
    this.runtime = runtime;
    this.variables = new VariableStore(runtime);
    for (const w of rec.warnings) this.sendEvent(new OutputEvent(`${w.line ? `line ${w.line}: ` : ''}${w.message}\n`, 'console'));
    if (rec.bestEffort) this.sendEvent(new OutputEvent('Best-effort recording (the program uses FFI): a replay may diverge from the recorded run.\n', 'console'));
    if (!args.noToolchain) {
      const known = rec.panic !== null || rec.verify !== null || rec.histories !== null;
      const state = rec.timeline.format === 'tcap' ? 'done' : known ? 'done' : 'unavailable';
      const why = rec.warnings.filter((w) => /toolchain|machin|program/.test(w.code)).map((w) => w.message).join('; ');
      this.toolchainEvent(state, state === 'done' ? toolchainSummary(rec) : why || 'The toolchain added nothing: showing the recording only');
    }
    if (rec.panic) {
      const p = rec.panic;
      const tl = rec.timeline;
      this.sendEvent(new Event(CUSTOM.causalChainEvent, {
        position: p.position,
        thread: tl.threads[p.thread].id,
        threadId: p.thread + 1,
        message: p.message,
        source: p.source,
        length: p.causalChain.length,
        steps: p.causalChain.length <= 10_000 ? Array.from(p.causalChain, (t) => tl.threads[t].id) : undefined,
      }));
    }
    return rec;
  }

  /** A deferred enrichment's values: requests wait for them, and VS Code is told to fetch them again. */
  private awaitValues(rec: Recording): void {
    const pending = rec.valuesPending;
    this.valuesPending = pending ?? null;
    if (!pending) return;
    const warned = rec.warnings.length;
    void pending.then(() => {
      if (this.recording !== rec) return;
      this.valuesPending = null;
      for (const w of rec.warnings.slice(warned)) this.sendEvent(new OutputEvent(`${w.message}\n`, 'console'));
      if (rec.histories) this.toolchainEvent('done', toolchainSummary(rec));
      if (this.clientInvalidates) this.sendEvent(new InvalidatedEvent(['variables']));
    });
  }

  /** The record state `startRecord` / `startPosition` name (undefined: neither given), or what is wrong with them. */
  private startRecord(args: FrozenRunLaunchArguments): number | string | undefined {
    const rt = this.runtime;
    if (!rt) return undefined;
    const tl = rt.timeline;
    const unit = tl.format === 'tcap' ? 'effects' : 'ops';
    if (args.startRecord !== undefined) {
      if (args.startRecord >= tl.recordCount) return `\`startRecord\` ${args.startRecord} is not a record of ${basename(tl.file)}: it has records 0..${tl.recordCount - 1} (-1 is the start).`;
      return args.startRecord;
    }
    if (args.startPosition !== undefined) {
      if (args.startPosition > tl.stepCount) return `\`startPosition\` ${args.startPosition} is past the end of ${basename(tl.file)}: it has ${tl.stepCount} ${unit} (positions 0..${tl.stepCount}).`;
      return rt.recordForPosition(args.startPosition);
    }
    return undefined;
  }

  private async begin(args: FrozenRunLaunchArguments): Promise<void> {
    const rt = this.runtime;
    const rec = this.recording;
    if (!rt || !rec) return;
    rt.jump(-1, { reason: 'entry', thread: rec.timeline.recordCount ? rec.timeline.thread[0] : 0, description: 'Start of the recording' });
    const start = this.startRecord(args);
    if (typeof start === 'number') {
      const tl = rec.timeline;
      const unit = tl.format === 'tcap' ? 'effect' : 'op';
      const where = start < 0 ? 'the start of the recording' : `${unit} ${rt.positionAt(start)}, line ${tl.lineOf(start)}`;
      this.report(rt.jump(start, { reason: 'entry', thread: start < 0 ? rt.lastStop.thread : tl.thread[start], description: `Started at ${where}` }));
      return;
    }
    if (args.replayToPanic) {
      if (rec.panic) {
        const p = rec.panic;
        this.report(rt.jump(rt.recordForPosition(p.position), {
          reason: 'exception', thread: p.thread, exception: 'panic', description: `Panic: ${p.message}`, text: p.message,
        }));
      } else {
        const stop = rt.jump(rec.timeline.recordCount, rt.endStop());
        this.sendEvent(new OutputEvent(`${stop.text}\n`, 'console'));
        this.report(stop);
      }
      return;
    }
    if (args.stopOnEntry || rec.timeline.recordCount === 0) {
      this.report(rt.lastStop);
      return;
    }
    await this.move(() => rt.continueForward());
  }

  protected override async restartRequest(response: DebugProtocol.RestartResponse, args: DebugProtocol.RestartArguments): Promise<void> {
    try {
      await this.restart(response, args);
    } catch (e) {
      this.fail(response, 1000, `Frozen Run could not restart: ${(e as Error).message ?? String(e)}`);
    }
  }

  private async restart(response: DebugProtocol.RestartResponse, args: DebugProtocol.RestartArguments): Promise<void> {
    const given = (args as { arguments?: Record<string, unknown> } | undefined)?.arguments;
    let launch = this.args;
    if (given) {
      const checked = checkLaunchArguments(given);
      if (typeof checked === 'string') return this.fail(response, 1001, checked);
      launch = checked;
    }
    if (!launch) return this.fail(response, 1003, 'Nothing to restart: the session was never launched.');
    if (this.runtime?.running) return this.fail(response, 1040, 'The replay is moving: pause it first, then restart.');
    const reopen = !this.recording || launch.recording !== this.args?.recording || launch.program !== this.args?.program || launch.noToolchain !== this.args?.noToolchain;
    if (reopen) {
      const opened = await this.open(launch);
      if (typeof opened === 'string') return this.fail(response, 1002, opened);
      this.reapplyBreakpoints();
    }
    const start = this.startRecord(launch);
    if (typeof start === 'string') return this.fail(response, 1004, start);
    this.args = launch;
    this.sendResponse(response);
    await this.begin(launch);
  }

  /** A restart that opened the recording again keeps the breakpoints the client set (by line, name, data id). */
  private reapplyBreakpoints(): void {
    const bt = this.runtime?.breakpoints;
    if (!bt) return;
    const a = this.asked;
    if (a.filters) bt.setExceptionFilters(a.filters);
    if (a.lines) bt.setLineBreakpoints(a.lines.map((b) => ({ ...b, line: this.convertClientLineToDebugger(b.line) })));
    if (a.functions) bt.setFunctionBreakpoints(a.functions);
    if (a.data) bt.setDataBreakpoints(a.data);
    // A divergence reported by a replay against a build holds for the same capsule read again.
    const same = this.reported && this.reported.file === this.runtime?.timeline.file && this.reported.divergence.record < bt.recordCount;
    if (same) bt.setDivergence(this.reported!.divergence);
    else this.reported = null;
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.abort.abort();
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }

  /**
   * Stops the toolchain (its whole process group: SIGTERM, SIGKILL after a grace) and answers only
   * once the children have exited and the temporary copy is gone: the standalone adapter exits
   * right after it answers, and a child that ignores SIGTERM must not outlive it.
   */
  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): Promise<void> {
    this.abort.abort();
    await this.stopped();
    super.disconnectRequest(response, args, request);
  }

  /** The client went away (stdin closed) or disconnected: the same stop, then the base class's exit. */
  override shutdown(): void {
    this.abort.abort();
    void this.stopped().then(() => super.shutdown());
  }

  /**
   * The open under way has ended (its children exited, its copy removed). Bounded: the group gets
   * SIGKILL 500 ms after SIGTERM, so only a child stuck in the kernel could take longer.
   */
  private stopped(): Promise<void> {
    return Promise.race([this.opening, new Promise<void>((r) => setTimeout(r, STOP_WAIT_MS).unref?.())]);
  }

  // ----- threads, frames, sources -----

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const rec = this.recording;
    // Listed main first, then by id; the DAP id stays the thread index + 1.
    const listed = rec ? sortForListing(rec.timeline.threads, listedThreads(rec, [this.runtime?.lastStop.thread, rec.panic?.thread])) : [];
    response.body = { threads: listed.map((t) => new Thread(t + 1, threadName(rec!, t))) };
    const note = rec && !this.threadsNoted ? listedThreadsNote(rec) : null;
    if (note) {
      this.threadsNoted = true;
      this.sendEvent(new OutputEvent(note, 'console'));
    }
    this.sendResponse(response);
  }

  private source(): Source {
    const s = servedSource(this.recording!);
    const src = new Source(s.name, undefined, s.sourceReference, s.origin) as DebugProtocol.Source;
    src.presentationHint = 'emphasize';
    return src as Source;
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const rt = this.runtime;
    if (!rt) return this.fail(response, 1010, 'No recording is open.');
    const t = args.threadId - 1;
    const tl = rt.timeline;
    if (t < 0 || t >= tl.threads.length) return this.fail(response, 1011, `No thread ${args.threadId}.`);
    const frames: DebugProtocol.StackFrame[] = [];
    let r = rt.currentRecordOf(t);
    let notStarted = false;
    if (r < 0) {
      r = rt.threads.firstRecord(t);
      notStarted = true;
    }
    if (r >= 0) {
      const view = rt.recording.describe(r);
      frames.push({
        id: t * 2 + 1,
        name: notStarted ? `not started yet · next: ${view.summary}` : view.summary,
        source: this.source(),
        line: this.convertDebuggerLineToClient(view.line),
        column: this.convertDebuggerColumnToClient(1),
        presentationHint: notStarted ? 'subtle' : 'normal',
      });
      const loc = rt.recording.sourceLocation?.(r);
      if (loc) frames.push(this.programFrame(t, loc));
    } else {
      // A goroutine that did no channel op or I/O (machin named it: it panicked or stored values).
      const p = rt.recording.panic;
      const panicked = p !== null && p.thread === t && rt.position >= p.position;
      frames.push({ id: t * 2 + 1, name: panicked ? `panic: ${p.message}` : 'no records in this recording', line: 0, column: 0, presentationHint: 'subtle' });
      const loc = rt.recording.threadLocation?.(t);
      if (loc) frames.push(this.programFrame(t, loc));
    }
    const start = args.startFrame ?? 0;
    const levels = args.levels || frames.length;
    response.body = { stackFrames: frames.slice(start, start + levels), totalFrames: frames.length };
    this.sendResponse(response);
  }

  private programFrame(t: number, loc: SourceLocation): DebugProtocol.StackFrame {
    return {
      id: t * 2 + 2,
      name: loc.name,
      source: new Source(basename(loc.path), this.convertDebuggerPathToClient(loc.path)),
      line: this.convertDebuggerLineToClient(loc.line),
      column: this.convertDebuggerColumnToClient(1),
    };
  }

  private threadOfFrame(frameId: number | undefined): number {
    const n = this.recording?.timeline.threads.length ?? 0;
    const t = frameId !== undefined && Number.isInteger(frameId) && frameId > 0 ? (frameId - 1) >> 1 : -1;
    return t >= 0 && t < n ? t : this.runtime?.lastStop.thread ?? 0;
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    if (!this.variables) return this.fail(response, 1010, 'No recording is open.');
    response.body = { scopes: this.variables.scopes(this.threadOfFrame(args.frameId)) };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const all = this.variables ? this.variables.variables(args.variablesReference) : [];
    const start = args.start ?? 0;
    response.body = { variables: args.count ? all.slice(start, start + args.count) : all.slice(start) };
    this.sendResponse(response);
  }

  protected override async sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): Promise<void> {
    const rec = this.recording;
    const ref = args.source?.sourceReference ?? args.sourceReference;
    if (!rec || ref !== RECORDING_SOURCE_REFERENCE) return this.fail(response, 1020, 'Unknown source.');
    try {
      // One read at a time: requests that come while it is under way share it (one copy).
      const text = (this.text ??= sourceText(rec));
      const content = await text;
      if (!keepText(rec)) this.text = undefined;
      response.body = { content, mimeType: servedSource(rec).mimeType };
      this.sendResponse(response);
    } catch (e) {
      this.text = undefined;
      this.fail(response, 1021, e instanceof RecordingError ? e.message : `${rec.timeline.file}: cannot read: ${(e as Error).message}`);
    }
  }

  protected override loadedSourcesRequest(response: DebugProtocol.LoadedSourcesResponse): void {
    const sources: DebugProtocol.Source[] = [];
    if (this.recording) {
      sources.push(this.source());
      const first = this.recording.timeline.recordCount > 0 ? this.recording.sourceLocation?.(0) : undefined;
      if (first) sources.push(new Source(basename(first.path), first.path));
    }
    response.body = { sources };
    this.sendResponse(response);
  }

  // ----- breakpoints -----

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const rt = this.runtime;
    const wanted = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
    if (!rt || !isRecordingSource(rt.recording, args.source)) {
      response.body = {
        breakpoints: wanted.map((b) => ({ verified: false, line: b.line, message: rt ? 'Frozen Run breakpoints bind to lines of the recording (the trace or the decoded capsule).' : 'No recording is open yet.' })),
      };
      return this.sendResponse(response);
    }
    const results = rt.breakpoints.setLineBreakpoints(wanted.map((b) => ({ ...b, line: this.convertClientLineToDebugger(b.line) })));
    this.asked.lines = wanted.map((b, i) => ({ ...b, id: results[i].id }));
    response.body = {
      breakpoints: results.map((r) => ({ id: r.id, verified: r.verified, message: r.message, line: r.line !== undefined ? this.convertDebuggerLineToClient(r.line) : undefined, source: args.source })),
    };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    const rt = this.runtime;
    if (!rt) {
      response.body = { breakpoints: args.breakpoints.map(() => ({ verified: false, message: 'No recording is open yet.' })) };
      return this.sendResponse(response);
    }
    const results = rt.breakpoints.setFunctionBreakpoints(args.breakpoints);
    this.asked.functions = args.breakpoints.map((b, i) => ({ ...b, id: results[i].id }));
    response.body = { breakpoints: results.map((r) => ({ id: r.id, verified: r.verified, message: r.message })) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    const filters = [...args.filters, ...(args.filterOptions ?? []).map((f) => f.filterId)];
    this.asked.filters = filters;
    const problem = this.runtime?.breakpoints.setExceptionFilters(filters);
    if (problem) this.sendEvent(new OutputEvent(`${problem}\n`, 'console'));
    response.body = { breakpoints: filters.map(() => ({ verified: this.runtime !== undefined })) };
    this.sendResponse(response);
  }

  protected override dataBreakpointInfoRequest(response: DebugProtocol.DataBreakpointInfoResponse, args: DebugProtocol.DataBreakpointInfoArguments): void {
    const rt = this.runtime;
    const h = rt?.recording.histories;
    const fromScope = args.variablesReference !== undefined ? this.variables?.watchedScopes.get(args.variablesReference) : undefined;
    const t = fromScope ?? this.threadOfFrame(args.frameId);
    if (!rt || !h || !h.names.includes(args.name) || (args.variablesReference !== undefined && fromScope === undefined)) {
      response.body = {
        dataId: null,
        description: h ? 'Only watched variables (their values come from machin replay --print) can be data breakpoints.' : 'No variable values are known for this recording (machin did not run).',
      };
      return this.sendResponse(response);
    }
    const tl = rt.timeline;
    if (!h.entries(args.name).some((e) => e.thread === t)) {
      response.body = { dataId: null, description: `${args.name} takes no values in ${threadName(rt.recording, t)} (machin printed none there).` };
      return this.sendResponse(response);
    }
    response.body = {
      dataId: BreakpointTable.dataId(tl.threads[t].id, args.name),
      description: `${args.name} in ${threadName(rt.recording, t)}: stop where its value changes`,
      accessTypes: ['write'],
      canPersist: true,
    };
    this.sendResponse(response);
  }

  protected override setDataBreakpointsRequest(response: DebugProtocol.SetDataBreakpointsResponse, args: DebugProtocol.SetDataBreakpointsArguments): void {
    const rt = this.runtime;
    if (!rt) {
      response.body = { breakpoints: args.breakpoints.map(() => ({ verified: false, message: 'No recording is open yet.' })) };
      return this.sendResponse(response);
    }
    const results = rt.breakpoints.setDataBreakpoints(args.breakpoints);
    this.asked.data = args.breakpoints.map((b, i) => ({ ...b, id: results[i].id }));
    response.body = { breakpoints: results.map((r) => ({ id: r.id, verified: r.verified, message: r.message })) };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const rt = this.runtime;
    const stop = rt?.lastStop;
    if (!rt || !stop || stop.reason !== 'exception') return this.fail(response, 1030, 'The replay is not stopped on an exception.');
    response.body = exceptionInfo(rt.recording, stop);
    this.sendResponse(response);
  }

  // ----- moving -----

  /** Run a move, then report where it stopped. The response is sent before the move starts. */
  private async move(how: () => Promise<Stop>): Promise<void> {
    try {
      this.report(await how());
    } catch (e) {
      this.sendEvent(new OutputEvent(`${(e as Error).message}\n`, 'stderr'));
    }
  }

  private ready(response: DebugProtocol.Response): ReplayRuntime | undefined {
    const rt = this.runtime;
    if (!rt) {
      this.fail(response, 1010, 'No recording is open.');
      return undefined;
    }
    if (rt.running) {
      this.fail(response, 1040, 'The replay is already moving: pause it first.');
      return undefined;
    }
    return rt;
  }

  private step(response: DebugProtocol.Response, how: (rt: ReplayRuntime) => Promise<Stop>, threadId?: number, forward = false): void {
    const rt = this.ready(response);
    if (!rt) return;
    if (threadId !== undefined && !(Number.isInteger(threadId) && threadId >= 1 && threadId <= rt.timeline.threads.length)) {
      return this.fail(response, 1041, `No thread ${threadId}: threads are 1..${rt.timeline.threads.length}.`);
    }
    if (forward && this.atEnd(response)) return;
    this.sendResponse(response);
    void this.move(() => how(rt));
  }

  /** A forward move from the run's last record: refused with why (no second stop on the same op). */
  private atEnd(response: DebugProtocol.Response): boolean {
    const rt = this.runtime;
    const why = rt && !rt.running ? nothingAhead(rt) : undefined;
    if (why) this.fail(response, 1042, why);
    return why !== undefined;
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.step(response, (rt) => rt.next(args.threadId - 1), args.threadId, true);
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.step(response, (rt) => rt.stepIn(), undefined, true);
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.step(response, (rt) => rt.stepOut(args.threadId - 1), args.threadId, true);
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse, args: DebugProtocol.StepBackArguments): void {
    this.step(response, (rt) => rt.stepBack(args.threadId - 1), args.threadId);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.step(response, (rt) => rt.continueForward(), undefined, true);
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.step(response, (rt) => rt.reverseContinue());
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    const rt = this.runtime;
    this.sendResponse(response);
    if (!rt) return;
    if (rt.running) rt.pause();
    else this.report({ ...rt.lastStop, reason: 'pause', description: 'Paused', breakpointIds: [] });
  }

  protected override gotoTargetsRequest(response: DebugProtocol.GotoTargetsResponse, args: DebugProtocol.GotoTargetsArguments): void {
    const rt = this.runtime;
    const targets: DebugProtocol.GotoTarget[] = [];
    if (rt && isRecordingSource(rt.recording, args.source)) {
      const line = this.convertClientLineToDebugger(args.line);
      const r = rt.timeline.recordAtLine(line);
      if (r >= 0) targets.push({ id: r + 1, label: rt.recording.describe(r).summary, line: args.line });
    }
    response.body = { targets };
    this.sendResponse(response);
  }

  protected override gotoRequest(response: DebugProtocol.GotoResponse, args: DebugProtocol.GotoArguments): void {
    const rt = this.ready(response);
    if (!rt) return;
    const r = args.targetId - 1;
    if (r < 0 || r >= rt.timeline.recordCount) return this.fail(response, 1050, `No goto target ${args.targetId}.`);
    this.sendResponse(response);
    this.report(rt.jump(r, { reason: 'goto', thread: rt.timeline.thread[r], description: `Went to line ${rt.timeline.lineOf(r)}` }));
  }

  protected override customRequest(command: string, response: DebugProtocol.Response, args: Record<string, unknown> | undefined): void {
    // VS Code shows an error response with showUser as a notification, and the extension that sent
    // a custom request shows its own: errors of custom requests go back without showUser (once).
    this.quiet = true;
    try {
      this.custom(command, response, args ?? {});
    } finally {
      this.quiet = false;
    }
  }

  private custom(command: string, response: DebugProtocol.Response, a: Record<string, unknown>): void {
    switch (command) {
      case CUSTOM.setKey: {
        const key = typeof a.keyHex === 'string' ? a.keyHex.trim() : '';
        if (!KEY_PATTERN.test(key)) return this.fail(response, 1060, 'A capsule key is 64 hex digits (32 bytes).');
        this.keyHex = key.toLowerCase();
        response.body = { accepted: true, reopenNeeded: this.recording === undefined ? false : this.recording.timeline.format === 'tcap' };
        return this.sendResponse(response);
      }
      case CUSTOM.stepBackIn:
        return this.step(response, (rt) => rt.stepBackIn());
      case CUSTOM.stepBackOut:
        return this.step(response, (rt) => rt.stepBackOut(this.threadArg(a)), this.threadArg(a) + 1);
      case CUSTOM.runBackTo:
      case CUSTOM.runTo:
      case CUSTOM.goto: {
        const rt = this.runtime;
        if (!rt) return this.fail(response, 1010, 'No recording is open.');
        if (typeof a.line !== 'number' && typeof a.position !== 'number' && typeof a.record !== 'number') {
          return this.fail(response, 1073, NEEDS_TARGET[command]);
        }
        const target = this.targetRecord(rt, a);
        if (typeof target === 'string') return this.fail(response, 1070, target);
        if (command === CUSTOM.runBackTo && target >= rt.record) {
          return this.fail(response, 1071, `Run Back to Cursor: that record is not before the current one (line ${rt.record >= 0 ? rt.timeline.lineOf(rt.record) : 'start'}); use Run to Cursor.`);
        }
        if (command === CUSTOM.runTo && target <= rt.record) {
          return this.fail(response, 1072, 'Run to Cursor: that record is not after the current one; use Run Back to Cursor.');
        }
        if (command === CUSTOM.goto) {
          if (!this.ready(response)) return;
          this.sendResponse(response);
          return this.report(rt.jump(target, { reason: 'goto', thread: rt.timeline.thread[Math.max(0, target)], description: 'Went to the record' }));
        }
        const where = target >= 0 ? `line ${rt.timeline.lineOf(target)}` : 'the start';
        return this.step(response, (r) => r.runTo(target, command === CUSTOM.runBackTo ? `Ran back to ${where}` : `Ran to ${where}`));
      }
      case CUSTOM.timeline: {
        if (!this.recording) return this.fail(response, 1010, 'No recording is open.');
        response.body = timelineChunk(this.recording, a as TimelineRequest, this.runtime?.breakpoints.currentDivergence ?? null);
        return this.sendResponse(response);
      }
      case CUSTOM.divergence: {
        const rt = this.runtime;
        if (!rt) return this.fail(response, 1010, 'No recording is open.');
        const d = replayDivergence(rt.recording, a);
        if (typeof d === 'string') return this.fail(response, 1090, d);
        this.reported = d ? { file: rt.timeline.file, divergence: d } : null;
        rt.breakpoints.setDivergence(d);
        response.body = divergenceBody(rt.recording, rt.breakpoints.currentDivergence);
        this.sendResponse(response);
        return this.sendEvent(new Event(CUSTOM.divergenceEvent, response.body));
      }
      default:
        return this.fail(response, 1099, `Unknown request ${command}.`);
    }
  }

  private threadArg(a: Record<string, unknown>): number {
    const id = typeof a.threadId === 'number' ? a.threadId : (this.runtime?.lastStop.thread ?? 0) + 1;
    return id - 1;
  }

  /** The record a custom request names: {record}, {line} (of the recording's document) or {position} (ops done). */
  private targetRecord(rt: ReplayRuntime, a: Record<string, unknown>): number | string {
    const tl = rt.timeline;
    if (typeof a.record === 'number') {
      if (!Number.isInteger(a.record) || a.record < -1 || a.record >= tl.recordCount) return `No record ${a.record} (the recording has ${tl.recordCount}).`;
      return a.record;
    }
    if (typeof a.line === 'number') {
      const r = tl.recordAtLine(this.convertClientLineToDebugger(a.line));
      return r >= 0 ? r : `Line ${a.line} holds no record.`;
    }
    if (typeof a.position === 'number') {
      if (!Number.isInteger(a.position) || a.position < 0 || a.position > tl.stepCount) return `Position ${a.position} is outside 0..${tl.stepCount}.`;
      return rt.recordForPosition(a.position);
    }
    return NEEDS_TARGET[CUSTOM.goto];
  }

  // ----- evaluate -----

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const rt = this.runtime;
    const vars = this.variables;
    // Never a notification: a watch and the console show the message in place; a hover over text
    // that is no name or field (VS Code sends the word under the mouse) just shows nothing.
    if (!rt || !vars) return this.fail(response, 1010, 'No recording is open.', false);
    const res = evaluateInThread(rt, vars, args.expression, this.threadOfFrame(args.frameId), args.context);
    if (!res.ok) return this.fail(response, 1080, res.message, false);
    response.body = { result: res.result, type: res.type, variablesReference: res.variablesReference };
    this.sendResponse(response);
  }

  // ----- reporting -----

  private report(stop: Stop): void {
    const rt = this.runtime!;
    this.variables?.reset();
    const tl = rt.timeline;
    const r = rt.record;
    // Every thread moved on: without this VS Code keeps each other thread's old reason ("Paused on
    // exception" on the goroutine that panicked) after the cursor left it.
    if (this.stopReported) this.sendEvent(new ContinuedEvent(stop.thread + 1, true));
    this.stopReported = true;
    const current = Math.min(r, tl.recordCount - 1);
    this.sendEvent(new Event(CUSTOM.cursorEvent, {
      position: rt.position,
      step: current >= 0 ? tl.stepOf(current) : -1,
      unit: tl.format === 'tcap' ? 'effect' : 'op',
      total: tl.stepCount,
      record: Math.min(r, tl.recordCount - 1),
      line: r >= 0 && tl.recordCount > 0 ? tl.lineOf(Math.min(r, tl.recordCount - 1)) : null,
      atStart: r < 0,
      atEnd: r >= tl.recordCount,
      thread: tl.threads.length ? tl.threads[stop.thread]?.id ?? null : null,
      threadId: stop.thread + 1,
      reason: stop.reason,
      description: stop.description,
      exception: stop.exception ?? null,
    }));
    // The cursor event goes first, so a view (or a test) that reacts to `stopped` already has it.
    const event = new StoppedEvent(dapReason(stop), stop.thread + 1) as DebugProtocol.StoppedEvent;
    event.body.description = stop.description;
    if (stop.text) event.body.text = stop.text;
    event.body.allThreadsStopped = true;
    if (stop.breakpointIds.length) event.body.hitBreakpointIds = stop.breakpointIds;
    this.sendEvent(event);
  }

  private logPoint(text: string, record: number): void {
    const rt = this.runtime;
    const e = new OutputEvent(`${text}\n`, 'console') as DebugProtocol.OutputEvent;
    if (rt) {
      e.body.source = this.source();
      e.body.line = this.convertDebuggerLineToClient(rt.timeline.lineOf(record));
    }
    this.sendEvent(e);
  }

  private toolchainEvent(state: string, message: string): void {
    this.sendEvent(new Event(CUSTOM.toolchainEvent, { state, message }));
  }

  /**
   * An error response. VS Code turns `showUser` into a notification; without it the message still
   * shows where the request came from (a watch, the console, the caller of a custom request).
   */
  private fail(response: DebugProtocol.Response, id: number, message: string, showUser = !this.quiet): void {
    // No variables: braces in an engine message (a path, a JSON fragment) are shown as they are.
    this.sendErrorResponse(response, { id, format: message, variables: {}, showUser });
  }
}

/** DAP has no reason for the two ends of a recording: they are steps whose description says which end. */
function dapReason(stop: Stop): string {
  return stop.reason === 'start' || stop.reason === 'end' ? 'step' : stop.reason;
}

function toolchainSummary(rec: Recording): string {
  if (rec.timeline.format === 'tcap') return 'Capsule opened';
  const parts: string[] = [];
  parts.push(rec.panic ? `panic after ${rec.panic.position} ops: ${rec.panic.message}` : 'no panic');
  if (rec.verify) parts.push(`verify ${rec.verify.verdict}`);
  if (rec.histories) parts.push(`${rec.histories.names.length} watched variable(s)`);
  return `machin replay: ${parts.join(', ')}`;
}
