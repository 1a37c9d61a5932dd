// The DAP session: a translation of Debug Adapter Protocol requests onto the replay runtime
// (runtime.ts owns the rules: where to start, which record a request names, which way a run may
// go, how breakpoints stop it, whether a restart reads the recording anew, where a file's
// breakpoints go, what changes when deferred values come), one short method per request. It runs inline in the extension
// host, handed the extension's recording (extension/debug-provider.ts), and standalone over stdio
// (debug-adapter/main.ts), where it opens the recording itself.
import { BreakpointEvent, ContinuedEvent, Event, InitializedEvent, InvalidatedEvent, OutputEvent, Source, StoppedEvent, TerminatedEvent, Thread } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import { RecordingError } from '../replay-engine/model/errors';
import type { Recording } from '../replay-engine/model/recording';
import { openRecording } from '../replay-engine/open';
import type { OpenOptions } from '../replay-engine/open-options';
import { EXCEPTION_FILTERS } from './breakpoints';
import { EVENT, REQUEST, type SetKeyResponseBody, type StatementTarget, type TargetArguments, type ToolchainEventBody } from './contract';
import { dataBreakpointInfo } from './data-breakpoint-info';
import { evaluateInThread } from './evaluate';
import { exceptionInfo } from './exception-info';
import { threadFrames, frameIndexOf, threadOfFrame } from './frames';
import { checkLaunchArguments, openOptions, type FrozenRunLaunchArguments } from './launch-config';
import { causalChainBody, cursorBody, dapReason, threadsBody, toolchainOutcome } from './reports';
import type { BreakpointFile, PlacedBreakpoint } from './breakpoint-routing';
import type { PrintedLogPoint } from './log-point-changes';
import { ReplayRuntime, RuntimeRefusal, type RunToward, type Stop, type ValuesArrived } from './runtime';
import { isRecordingSource, keepText, servedSource, sourceText, RECORDING_SOURCE_REFERENCE } from './sources';
import { nothingAhead } from './run-end';
import { consoleHits, gotoStatement, lineCountsBody, logPointHits, valueOriginBody } from './run-questions';
import { listedThreads, listedThreadsNote } from './thread-list';
import { sortForListing } from '../replay-engine/model/thread-order';
import { threadName, timelineChunk, type TimelineRequest } from './timeline-data';
import { TracedSession } from './traced-session';
import { cutText } from '../replay-engine/model/cut-text';
import { VariableStore } from './variables';

/** Opens the recording a launch names: the engine's openRecording, or the extension's store. */
export type RecordingSource = (args: FrozenRunLaunchArguments, options: OpenOptions) => Promise<Recording>;

export interface FrozenRunSessionOptions {
  /** Capsule key (64 hex digits) from the extension's SecretStorage. Never logged. */
  keyHex?: string;
  /** Environment for TIN_REPLAY_KEY / MACHIN / TIN (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where recordings come from (default: the engine reads and enriches each launch's own). */
  open?: RecordingSource;
  /**
   * The client shows its own reverse buttons (the extension's Reverse Continue and Step Back, in
   * the toolbar order it wants): `supportsStepBack` is not announced, so VS Code adds none of its
   * own; the `stepBack` and `reverseContinue` requests still work.
   */
  ownReverseButtons?: boolean;
}

const KEY_PATTERN = /^[0-9a-fA-F]{64}$/;
/** How long launch waits for configurationDone before going on (a client that never sends it). */
const CONFIGURATION_WAIT_MS = 10_000;

/** Requests that need no variable values: answered at once while they are still coming. */
const ANSWERED_WITHOUT_VALUES = new Set([
  'initialize', 'launch', 'configurationDone', 'disconnect', 'terminate', 'pause', 'cancel', 'threads', 'stackTrace', 'source',
  'loadedSources', 'exceptionInfo', 'setBreakpoints', 'setFunctionBreakpoints', 'setExceptionBreakpoints',
  REQUEST.setKey, REQUEST.timeline,
]);

/** Longest a disconnect waits for the toolchain to be stopped. */
const STOP_WAIT_MS = 5_000;

export class FrozenRunSession extends TracedSession {
  private keyHex: string | undefined;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly source: RecordingSource;
  private readonly ownReverseButtons: boolean;
  /** A stop was reported since launch or restart (the next one first says every thread moved on). */
  private stopReported = false;
  private args: FrozenRunLaunchArguments | undefined;
  private runtime: ReplayRuntime | undefined;
  private variables: VariableStore | undefined;
  private configured: () => void = () => undefined;
  private configurationDone: Promise<void> = new Promise((resolve) => (this.configured = resolve));
  private clientInvalidates = false;
  private abort = new AbortController();
  /** The open under way (reading, toolchain runs); settles only once its children have exited and its copy is removed. */
  private opening: Promise<void> = Promise.resolve();
  /** Whether the console was told that the threads list is cut (once a session). */
  private threadsNoted = false;
  /** The served text: kept between requests only for a capsule's decoded document (see keepText). */
  private text: Promise<string> | undefined;
  /** While a custom request is handled: its errors are not shown by VS Code (the extension shows them). */
  private quiet = false;

  /** Custom requests, by name (debug-adapter/contract.ts). */
  private readonly customs: Record<string, (response: DebugProtocol.Response, a: Record<string, unknown>) => void> = {
    [REQUEST.setKey]: (response, a) => this.setKey(response, a),
    [REQUEST.stepBackIn]: (response, a) => this.move(response, (rt) => rt.step('backInto', 1, this.threadArg(rt, a))),
    [REQUEST.stepBackOut]: (response, a) => this.move(response, (rt) => rt.step('backOut', 1, this.threadArg(rt, a))),
    [REQUEST.runBackTo]: (response, a) => this.toward(response, 'runBackTo', a),
    [REQUEST.runTo]: (response, a) => this.toward(response, 'runTo', a),
    [REQUEST.goto]: (response, a) => this.toward(response, 'goto', a),
    [REQUEST.timeline]: (response, a) => this.answer(response, () => timelineChunk(this.rt().recording, a as TimelineRequest, this.rt().breakpoints.currentDivergence)),
    [REQUEST.logPointHits]: (response, a) => this.answer(response, () => logPointHits(this.rt(), a)),
    [REQUEST.lineCounts]: (response) => this.answer(response, () => lineCountsBody(this.rt())),
    [REQUEST.valueOrigin]: (response, a) => this.answer(response, () => valueOriginBody(this.rt(), a)),
    [REQUEST.gotoStatement]: (response, a) => this.answer(response, () => gotoStatement(this.rt(), a), (stop) => this.report(stop)),
    [REQUEST.divergence]: (response, a) => this.answer(response, () => this.rt().markDivergence(a), (body) => this.sendEvent(new Event(EVENT.divergence, body))),
  };

  constructor(options: FrozenRunSessionOptions = {}) {
    super();
    this.keyHex = options.keyHex;
    this.env = options.env;
    this.source = options.open ?? ((args, o) => openRecording(args.recording, o));
    this.ownReverseButtons = options.ownReverseButtons === true;
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /**
   * Stopped at the panic while machin's second replay still prints the values: what needs them
   * (variables, evaluations, moves that test conditions) is answered once the runtime has them.
   */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const pending = this.runtime?.valuesPending;
    if (pending && !ANSWERED_WITHOUT_VALUES.has(request.command)) {
      void pending.then(() => this.dispatchRequest(request));
      return;
    }
    super.dispatchRequest(request);
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
    await this.answerAsync(response, 'start', async () => {
      const args = this.checked(raw as Record<string, unknown>);
      this.setTracing(args.trace === true);
      this.args = args;
      (await this.open(args)).startRecordOf(args);
      this.sendEvent(new InitializedEvent());
      await Promise.race([this.configurationDone, new Promise((r) => setTimeout(r, CONFIGURATION_WAIT_MS).unref?.())]);
      return () => this.begin(args);
    });
  }

  protected override async restartRequest(response: DebugProtocol.RestartResponse, args: DebugProtocol.RestartArguments): Promise<void> {
    await this.answerAsync(response, 'restart', async () => {
      const given = (args as { arguments?: Record<string, unknown> } | undefined)?.arguments;
      const launch = given ? this.checked(given) : this.args;
      if (!launch) throw new RuntimeRefusal(1003, 'Nothing to restart: the session was never launched.');
      const current = this.runtime?.ready();
      const rt = current && !current.needsReopen(launch) ? current : await this.open(launch);
      rt.startRecordOf(launch);
      this.args = launch;
      return () => this.begin(launch);
    });
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

  // ----- threads, frames, scopes, sources -----

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const rec = this.runtime?.recording;
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

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    this.answer(response, () => {
      const rt = this.rt();
      const t = args.threadId - 1;
      if (t < 0 || t >= rt.timeline.threads.length) throw new RuntimeRefusal(1011, `No thread ${args.threadId}.`);
      const frames = threadFrames(rt, t).map((f): DebugProtocol.StackFrame => ({
        id: f.id,
        name: f.name,
        source: f.where?.type === 'recording' ? this.recordingSource() : f.where ? new Source(basename(f.where.path), this.convertDebuggerPathToClient(f.where.path)) : undefined,
        line: f.where ? this.convertDebuggerLineToClient(f.line) : 0,
        column: f.where ? this.convertDebuggerColumnToClient(f.column) : 0,
        endLine: f.endLine !== undefined ? this.convertDebuggerLineToClient(f.endLine) : undefined,
        endColumn: f.endColumn !== undefined ? this.convertDebuggerColumnToClient(f.endColumn) : undefined,
        presentationHint: f.subtle ? 'subtle' : f.where?.type === 'recording' ? 'normal' : undefined,
      }));
      const start = args.startFrame ?? 0;
      return { stackFrames: frames.slice(start, start + (args.levels || frames.length)), totalFrames: frames.length };
    });
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    this.answer(response, () => ({ scopes: this.vars().scopes(threadOfFrame(this.runtime, args.frameId), frameIndexOf(args.frameId)) }));
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const all = this.variables ? this.variables.variables(args.variablesReference) : [];
    const start = args.start ?? 0;
    const shown = args.count ? all.slice(start, start + args.count) : all.slice(start);
    // Every value on one line at most VALUE_TEXT_LIMIT characters (SECURITY.md), whoever made it.
    response.body = { variables: shown.map((v) => ({ ...v, value: cutText(v.value) })) };
    this.sendResponse(response);
  }

  protected override async sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): Promise<void> {
    const rec = this.runtime?.recording;
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
    const rec = this.runtime?.recording;
    const first = rec && rec.timeline.recordCount > 0 ? rec.sourceLocation?.(0) : undefined;
    response.body = { sources: [...(rec ? [this.recordingSource()] : []), ...(first ? [new Source(basename(first.path), first.path)] : [])] };
    this.sendResponse(response);
  }

  // ----- breakpoints -----

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const rt = this.runtime;
    const wanted = ((args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }))) as DebugProtocol.SourceBreakpoint[])
      .map((b) => ({ ...b, line: this.convertClientLineToDebugger(b.line), column: b.column === undefined ? undefined : this.convertClientColumnToDebugger(b.column) }));
    if (!rt) {
      response.body = { breakpoints: wanted.map((b) => this.clientBreakpoint({ verified: false, line: b.line, message: 'No recording is open yet.' })) };
      return this.sendResponse(response);
    }
    // The runtime decides where they go (breakpoint-routing.ts).
    const path = args.source.path === undefined ? undefined : this.convertClientPathToDebugger(args.source.path);
    const routed = rt.routing.set(args.source, path, wanted);
    // Those that went to a file name it; those waiting for the statements or refused do not.
    const named = routed.to === 'program' || routed.to === 'recording';
    response.body = { breakpoints: routed.breakpoints.map((b) => this.clientBreakpoint(b, named ? args.source : undefined)) };
    this.sendResponse(response);
    // Log points are evaluated at every hit of the whole run at once (issue 30), also while stopped.
    this.printLogPoints(rt, args.source.path, routed.logPoints);
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    const results = this.runtime?.breakpoints.setFunctionBreakpoints(args.breakpoints);
    response.body = { breakpoints: results ?? args.breakpoints.map(() => ({ verified: false, message: 'No recording is open yet.' })) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    const filters = [...args.filters, ...(args.filterOptions ?? []).map((f) => f.filterId)];
    const problem = this.runtime?.breakpoints.setExceptionFilters(filters);
    if (problem) this.sendEvent(new OutputEvent(`${problem}\n`, 'console'));
    response.body = { breakpoints: filters.map(() => ({ verified: this.runtime !== undefined })) };
    this.sendResponse(response);
  }

  protected override dataBreakpointInfoRequest(response: DebugProtocol.DataBreakpointInfoResponse, args: DebugProtocol.DataBreakpointInfoArguments): void {
    const fromScope = args.variablesReference !== undefined ? this.variables?.watchedScopes.get(args.variablesReference) ?? -1 : undefined;
    const fn = args.variablesReference !== undefined ? this.variables?.watchedFunctions.get(args.variablesReference) : undefined;
    response.body = dataBreakpointInfo(this.runtime, args.name, fromScope ?? threadOfFrame(this.runtime, args.frameId), fn);
    this.sendResponse(response);
  }

  protected override setDataBreakpointsRequest(response: DebugProtocol.SetDataBreakpointsResponse, args: DebugProtocol.SetDataBreakpointsArguments): void {
    const results = this.runtime?.breakpoints.setDataBreakpoints(args.breakpoints);
    response.body = { breakpoints: results ?? args.breakpoints.map(() => ({ verified: false, message: 'No recording is open yet.' })) };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const rt = this.runtime;
    if (!rt || rt.lastStop.reason !== 'exception') return this.fail(response, 1030, 'The replay is not stopped on an exception.');
    response.body = exceptionInfo(rt.recording, rt.lastStop);
    this.sendResponse(response);
  }

  // ----- moving -----

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.move(response, (rt) => rt.step('over', 1, args.threadId - 1));
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.move(response, (rt) => rt.step('into', 1, args.threadId - 1));
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.move(response, (rt) => rt.step('out', 1, args.threadId - 1));
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse, args: DebugProtocol.StepBackArguments): void {
    this.move(response, (rt) => rt.step('backOver', 1, args.threadId - 1));
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.move(response, (rt) => rt.run(true));
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.move(response, (rt) => rt.run(false));
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    const rt = this.runtime;
    this.sendResponse(response);
    if (rt?.running) rt.pause();
    else if (rt) this.report(rt.pausedHere());
  }

  protected override gotoTargetsRequest(response: DebugProtocol.GotoTargetsResponse, args: DebugProtocol.GotoTargetsArguments): void {
    const rt = this.runtime;
    const r = rt && isRecordingSource(rt.recording, args.source) ? rt.recordAtLine(this.convertClientLineToDebugger(args.line)) : -1;
    response.body = { targets: rt && r >= 0 ? [{ id: r + 1, label: rt.recording.describe(r).summary, line: args.line }] : [] };
    this.sendResponse(response);
  }

  protected override gotoRequest(response: DebugProtocol.GotoResponse, args: DebugProtocol.GotoArguments): void {
    this.move(response, (rt) => {
      const r = args.targetId - 1;
      if (r < 0 || r >= rt.timeline.recordCount) throw new RuntimeRefusal(1050, `No goto target ${args.targetId}.`);
      return Promise.resolve(rt.goto({ record: r }));
    });
  }

  protected override customRequest(command: string, response: DebugProtocol.Response, args: Record<string, unknown> | undefined): void {
    // VS Code shows an error response with showUser as a notification, and the extension that sent
    // a custom request shows its own: errors of custom requests go back without showUser (once).
    this.quiet = true;
    try {
      const handle = this.customs[command];
      if (handle) handle(response, args ?? {});
      else this.fail(response, 1099, `Unknown request ${command}.`);
    } finally {
      this.quiet = false;
    }
  }

  private setKey(response: DebugProtocol.Response, a: Record<string, unknown>): void {
    const key = typeof a.keyHex === 'string' ? a.keyHex.trim() : '';
    if (!KEY_PATTERN.test(key)) return this.fail(response, 1060, 'A capsule key is 64 hex digits (32 bytes).');
    this.keyHex = key.toLowerCase();
    response.body = { accepted: true, reopenNeeded: this.runtime?.timeline.traits.keyed === true } satisfies SetKeyResponseBody;
    this.sendResponse(response);
  }

  private toward(response: DebugProtocol.Response, toward: RunToward, a: TargetArguments): void {
    const line = typeof a.line === 'number' ? this.convertClientLineToDebugger(a.line) : undefined;
    const path = typeof a.path === 'string' ? this.convertClientPathToDebugger(a.path) : undefined;
    this.move(response, (rt) => rt.toward(toward, { record: a.record, position: a.position, line, path, statement: toward === 'goto' ? statementTarget(a.statement) : undefined }));
  }

  /** stepBackOut's thread: its `threadId`, else the thread of the last stop (as an index). */
  private threadArg(rt: ReplayRuntime, a: Record<string, unknown>): number {
    return typeof a.threadId === 'number' ? a.threadId - 1 : rt.lastStop.thread;
  }

  // ----- evaluate -----

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const rt = this.runtime;
    const vars = this.variables;
    // Never a notification: a watch and the console show the message in place; a hover over text
    // that is no name or field (VS Code sends the word under the mouse) just shows nothing.
    if (!rt || !vars) return this.fail(response, 1010, 'No recording is open.', false);
    const res = evaluateInThread(rt, vars, args.expression, threadOfFrame(rt, args.frameId), args.context, frameIndexOf(args.frameId));
    if (!res.ok) return this.fail(response, 1080, res.message, false);
    response.body = { result: res.result, type: res.type, variablesReference: res.variablesReference };
    this.sendResponse(response);
  }

  // ----- opening, starting, reporting -----

  private checked(raw: Record<string, unknown>): FrozenRunLaunchArguments {
    const checked = checkLaunchArguments(raw);
    if (typeof checked === 'string') throw new RuntimeRefusal(1001, checked);
    return checked;
  }

  /** Open the recording (and run the toolchain): a new runtime that carries over the breakpoints of the last. */
  private async open(args: FrozenRunLaunchArguments): Promise<ReplayRuntime> {
    this.toolchainEvent(args.noToolchain
      ? { state: 'off', message: 'Toolchain not run (noToolchain): showing the recording only' }
      : { state: 'running', message: `Reading ${basename(args.recording)} and replaying it with the toolchain when available...` });
    const options = openOptions(args, this.keyHex, (text) => this.toolchainEvent({ state: 'output', message: text }), this.abort.signal);
    if (this.env) options.env = this.env;
    let rec: Recording;
    try {
      const opened = this.source(args, options);
      this.opening = opened.then(() => undefined, () => undefined);
      rec = await opened;
    } catch (e) {
      const message = e instanceof RecordingError ? e.message : `${args.recording}: ${(e as Error).message ?? String(e)}`;
      this.toolchainEvent({ state: 'failed', message });
      throw new RuntimeRefusal(1002, message);
    }
    const rt = new ReplayRuntime(rec, { log: (text, r) => this.logPoint(text, r) }, { openedBy: args, previous: this.runtime });
    this.runtime = rt;
    this.variables = new VariableStore(rt);
    this.text = undefined;
    void rt.awaitValues()?.then((arrived) => this.valuesArrived(rt, arrived));
    for (const w of rec.warnings) this.sendEvent(new OutputEvent(`${w.line ? `line ${w.line}: ` : ''}${w.message}\n`, 'console'));
    if (rec.bestEffort) this.sendEvent(new OutputEvent('Best-effort recording (the program uses FFI): a replay may diverge from the recorded run.\n', 'console'));
    if (!args.noToolchain) this.toolchainEvent(toolchainOutcome(rec));
    this.sendEvent(new Event(EVENT.threads, threadsBody(rec)));
    const chain = causalChainBody(rec);
    if (chain) this.sendEvent(new Event(EVENT.causalChain, chain));
    return rt;
  }

  /** A deferred enrichment's values, taken by the runtime: what changed is told, then VS Code fetches them again. */
  private valuesArrived(rt: ReplayRuntime, arrived: ValuesArrived | null): void {
    if (!arrived || this.runtime !== rt) return;
    const rec = rt.recording;
    this.variables?.reset();
    for (const w of arrived.warnings) this.sendEvent(new OutputEvent(`${w.message}\n`, 'console'));
    if (rec.histories) this.toolchainEvent(toolchainOutcome(rec));
    if (arrived.bound) {
      const { file, breakpoints, logPoints } = arrived.bound;
      for (const b of breakpoints) this.sendEvent(new BreakpointEvent('changed', this.clientBreakpoint(b, file)));
      this.printLogPoints(rt, file.path, logPoints);
    }
    // The watched values at the cursor travel in the cursor event: send it again with them.
    if (this.stopReported) this.sendEvent(new Event(EVENT.cursor, cursorBody(rt, rt.lastStop)));
    if (arrived.noStatements) this.sendEvent(new OutputEvent(`${arrived.noStatements}\n`, 'console'));
    if (this.clientInvalidates) this.sendEvent(new InvalidatedEvent(arrived.moved ? ['stacks', 'variables'] : ['variables']));
    else if (arrived.moved) this.report(rt.lastStop);
  }

  private async begin(args: FrozenRunLaunchArguments): Promise<void> {
    const started = this.rt().start(args);
    if (started.note) this.sendEvent(new OutputEvent(`${started.note}\n`, 'console'));
    this.report(await started.stop);
  }

  private report(stop: Stop): void {
    const rt = this.rt();
    this.variables?.reset();
    // Every thread moved on: without this VS Code keeps each other thread's old reason ("Paused on
    // exception" on the goroutine that panicked) after the cursor left it.
    if (this.stopReported) this.sendEvent(new ContinuedEvent(stop.thread + 1, true));
    this.stopReported = true;
    // The cursor event goes first, so a view (or a test) that reacts to `stopped` already has it.
    this.sendEvent(new Event(EVENT.cursor, cursorBody(rt, stop)));
    const event = new StoppedEvent(dapReason(stop), stop.thread + 1) as DebugProtocol.StoppedEvent;
    event.body.description = stop.description;
    if (stop.text) event.body.text = stop.text;
    event.body.allThreadsStopped = true;
    if (stop.breakpointIds.length) event.body.hitBreakpointIds = stop.breakpointIds;
    this.sendEvent(event);
  }

  /** A breakpoint the runtime answered, in the client's lines and columns; `source`: the file it went to (none when it waits or went nowhere). */
  private clientBreakpoint(b: PlacedBreakpoint, source?: BreakpointFile): DebugProtocol.Breakpoint {
    const line = b.line !== undefined ? this.convertDebuggerLineToClient(b.line) : undefined;
    // (Each kind with its fields in the order the adapter has always sent them.)
    if (!source) return { ...(b.id !== undefined ? { id: b.id } : {}), verified: b.verified, line, message: b.message };
    return { id: b.id, verified: b.verified, message: b.message, line, ...(b.column !== undefined ? { column: this.convertDebuggerColumnToClient(b.column) } : {}), source };
  }

  /** Prints the hits of the log points the runtime says are new or changed; `path`: the program's, as the client named it. */
  private printLogPoints(rt: ReplayRuntime, path: string | undefined, logPoints: PrintedLogPoint[]): void {
    if (!path) return;
    for (const p of logPoints) this.printHits(rt, path, p);
  }

  /** A log point's hits in run order, each with the program's source and line (a click opens it there). */
  private printHits(rt: ReplayRuntime, path: string, spec: PrintedLogPoint): void {
    const { hits, lines, more } = consoleHits(rt, spec);
    const source = new Source(basename(path), path);
    hits.forEach((h, k) => {
      const e = new OutputEvent(`${lines[k]}\n`, 'console') as DebugProtocol.OutputEvent;
      e.body.source = source;
      e.body.line = this.convertDebuggerLineToClient(h.line);
      e.body.column = this.convertDebuggerColumnToClient(h.column);
      this.sendEvent(e);
    });
    if (more) this.sendEvent(new OutputEvent(`${more}\n`, 'console'));
  }

  private logPoint(text: string, record: number): void {
    if (record < 0) return void this.sendEvent(new OutputEvent(`${text}\n`, 'console'));
    const e = new OutputEvent(`${text}\n`, 'console') as DebugProtocol.OutputEvent;
    if (this.runtime) {
      e.body.source = this.recordingSource();
      e.body.line = this.convertDebuggerLineToClient(this.runtime.timeline.lineOf(record));
    }
    this.sendEvent(e);
  }

  private toolchainEvent(body: ToolchainEventBody): void {
    this.sendEvent(new Event(EVENT.toolchain, body));
  }

  private recordingSource(): Source {
    const s = servedSource(this.rt().recording);
    const src = new Source(s.name, undefined, s.sourceReference, s.origin) as DebugProtocol.Source;
    src.presentationHint = 'emphasize';
    return src as Source;
  }

  // ----- answering -----

  private rt(): ReplayRuntime {
    if (!this.runtime) throw new RuntimeRefusal(1010, 'No recording is open.');
    return this.runtime;
  }

  private vars(): VariableStore {
    if (!this.variables) throw new RuntimeRefusal(1010, 'No recording is open.');
    return this.variables;
  }

  /** Answer with what `body` gives, or with the runtime's refusal; `then` runs after the response. */
  private answer<T>(response: DebugProtocol.Response, body: () => T, then?: (body: T) => void): void {
    let value: T;
    try {
      value = body();
    } catch (e) {
      return this.refuse(response, e);
    }
    response.body = value;
    this.sendResponse(response);
    then?.(value);
  }

  /** Launch and restart: respond once ready, then run what comes after (the first stop). */
  private async answerAsync(response: DebugProtocol.Response, what: string, ready: () => Promise<() => Promise<void>>): Promise<void> {
    let after: () => Promise<void>;
    try {
      after = await ready();
    } catch (e) {
      if (e instanceof RuntimeRefusal) return this.fail(response, e.id, e.message);
      return this.fail(response, 1000, `Frozen Run could not ${what}: ${(e as Error).message ?? String(e)}`);
    }
    this.sendResponse(response);
    await this.moved(after);
  }

  /**
   * A move: checked by the runtime (a refusal is an error response: a forward move from where
   * nothing was recorded ahead says why), answered, then run; where it stopped is reported.
   */
  private move(response: DebugProtocol.Response, how: (rt: ReplayRuntime) => Promise<Stop>): void {
    let run: Promise<Stop>;
    try {
      run = how(this.rt().ready());
    } catch (e) {
      return this.refuse(response, e);
    }
    this.sendResponse(response);
    void this.moved(async () => this.report(await run));
  }

  private async moved(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (e) {
      this.sendEvent(new OutputEvent(`${(e as Error).message}\n`, 'stderr'));
    }
  }

  private refuse(response: DebugProtocol.Response, e: unknown): void {
    if (e instanceof RuntimeRefusal) return this.fail(response, e.id, e.message);
    this.fail(response, 1000, `Frozen Run: unexpected error: ${(e as Error).message ?? String(e)}`);
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

/** A goto's `statement` as a client sent it: a goroutine id and an event index, else undefined. */
function statementTarget(v: unknown): StatementTarget | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if ((typeof o.thread !== 'string' && typeof o.thread !== 'number') || typeof o.event !== 'number') return undefined;
  return { thread: String(o.thread), event: o.event, after: o.after === true };
}
