// The DAP session: a translation of Debug Adapter Protocol requests onto the replay runtime
// (runtime.ts owns the rules: where to start, which record a request names, which way a run may
// go, how breakpoints stop it, whether a restart reads the recording anew, where a file's
// breakpoints go, what changes when deferred values come), one short method per request: it
// converts the client's lines, columns and paths and turns the runtime's answers into DAP bodies
// and events (answering-session.ts answers and reports). It runs inline in the extension host,
// handed the extension's recording (extension/debug-provider.ts), and standalone over stdio
// (debug-adapter/main.ts), where it opens the recording itself.
import { BreakpointEvent, Event, InitializedEvent, InvalidatedEvent, OutputEvent, Source, TerminatedEvent, Thread } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { basename } from 'node:path';
import { RecordingError } from '../replay-engine/model/errors';
import { cutText } from '../replay-engine/model/cut-text';
import { readyStatements, type Recording } from '../replay-engine/model/recording';
import { sortForListing } from '../replay-engine/model/thread-order';
import { openRecording } from '../replay-engine/open';
import { AnsweringSession } from './answering-session';
import { unplaced } from './breakpoint-routing';
import { capabilities } from './capabilities';
import { EVENT, REQUEST, type SetKeyResponseBody, type StatementsEventBody, type TargetArguments, type ToolchainEventBody } from './contract';
import { dapBreakpoint, wantedBreakpoints } from './dap-breakpoints';
import { dataBreakpointInfo } from './data-breakpoint-info';
import { evaluateInThread } from './evaluate';
import { exceptionInfo } from './exception-info';
import { frameIndexOf, threadOfFrame } from './frames';
import { checkLaunchArguments, openOptions, type FrozenRunLaunchArguments } from './launch-config';
import type { PrintedLogPoint } from './log-point-changes';
import { hitLines, messageLine } from './log-point-output';
import { openedEvents } from './opened-events';
import { cursorBody, toolchainOutcome } from './reports';
import { ANSWERED_WITH_STATEMENTS, ANSWERED_WITHOUT_VALUES } from './requests-without-values';
import { gotoStatement, lineCountsBody, logPointHits, valueOriginBody } from './run-questions';
import { ReplayRuntime, RuntimeRefusal, type RunToward, type ValuesArrived } from './runtime';
import { ServedText } from './served-text';
import type { FrozenRunSessionOptions, RecordingSource } from './session-options';
import { isRecordingSource, servedSource, RECORDING_SOURCE_REFERENCE } from './sources';
import { recordingSource, stackFrames } from './stack-frames';
import { targetArguments } from './target-arguments';
import { ToolchainRuns } from './toolchain-runs';
import { listedThreads, listedThreadsNote } from './thread-list';
import { threadName, timelineChunk, type TimelineRequest } from './timeline-data';
import { VariableStore } from './variables';
import { groupDigits } from '../replay-engine/model/group-digits';

const KEY_PATTERN = /^[0-9a-fA-F]{64}$/;
/** How long launch waits for configurationDone before going on (a client that never sends it). */
const CONFIGURATION_WAIT_MS = 10_000;

export class FrozenRunSession extends AnsweringSession {
  private keyHex: string | undefined;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly source: RecordingSource;
  private readonly ownReverseButtons: boolean;
  private args: FrozenRunLaunchArguments | undefined;
  private configured: () => void = () => undefined;
  private configurationDone: Promise<void> = new Promise((resolve) => (this.configured = resolve));
  private clientInvalidates = false;
  private readonly toolchain = new ToolchainRuns();
  /** Whether the console was told that the threads list is cut (once a session). */
  private threadsNoted = false;
  private readonly servedText = new ServedText();

  /** Custom requests, by name (debug-adapter/contract.ts). */
  private readonly customs: Record<string, (response: DebugProtocol.Response, a: Record<string, unknown>) => void> = {
    [REQUEST.setKey]: (response, a) => this.answer(response, () => this.setKey(a)),
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
   * Stopped at the panic while machin still prints the statements, then the values: a move is
   * answered once the runtime has the statements (and the values too when a breakpoint reads
   * them); what shows values (variables, evaluations) once it has the values.
   */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const rt = this.runtime;
    const command = request.command;
    const statements = rt?.statementsPending;
    const values = rt?.valuesPending;
    if (statements && !ANSWERED_WITHOUT_VALUES.has(command)) {
      void statements.then(() => this.dispatchRequest(request));
      return;
    }
    if (values && !ANSWERED_WITHOUT_VALUES.has(command) && !(ANSWERED_WITH_STATEMENTS.has(command) && !rt!.movesReadValues)) {
      void values.then(() => this.dispatchRequest(request));
      return;
    }
    super.dispatchRequest(request);
  }

  // ----- lifecycle -----

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.clientInvalidates = args.supportsInvalidatedEvent === true;
    response.body = capabilities(this.ownReverseButtons);
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
    this.toolchain.stop();
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }

  /**
   * Stops the toolchain (its whole process group: SIGTERM, SIGKILL after a grace) and answers only
   * once the children have exited and the temporary copy is gone: the standalone adapter exits
   * right after it answers, and a child that ignores SIGTERM must not outlive it.
   */
  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): Promise<void> {
    this.toolchain.stop();
    await this.toolchain.stopped();
    super.disconnectRequest(response, args, request);
  }

  /** The client went away (stdin closed) or disconnected: the same stop, then the base class's exit. */
  override shutdown(): void {
    this.toolchain.stop();
    void this.toolchain.stopped().then(() => super.shutdown());
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
      const frames = stackFrames(rt, t, this.toClient);
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
      response.body = { content: await this.servedText.of(rec), mimeType: servedSource(rec).mimeType };
      this.sendResponse(response);
    } catch (e) {
      this.refuse(response, e);
    }
  }

  protected override loadedSourcesRequest(response: DebugProtocol.LoadedSourcesResponse): void {
    const rec = this.runtime?.recording;
    const first = rec && rec.timeline.recordCount > 0 ? rec.sourceLocation?.(0) : undefined;
    response.body = { sources: [...(rec ? [recordingSource(rec)] : []), ...(first ? [new Source(basename(first.path), first.path)] : [])] };
    this.sendResponse(response);
  }

  // ----- breakpoints -----

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const rt = this.runtime;
    const wanted = wantedBreakpoints(args, this.toDebugger);
    const path = args.source.path === undefined ? undefined : this.toDebugger.path(args.source.path);
    // The runtime decides where they go (breakpoint-routing.ts).
    const routed = rt ? rt.routing.set(args.source, path, wanted) : unplaced(wanted, 'No recording is open yet.');
    // Those that went to a file name it; those waiting for the statements or refused do not.
    const named = routed.to === 'program' || routed.to === 'recording';
    response.body = { breakpoints: routed.breakpoints.map((b) => dapBreakpoint(b, this.toClient, named ? args.source : undefined)) };
    this.sendResponse(response);
    // Log points are evaluated at every hit of the whole run at once (issue 30), also while stopped.
    if (rt) this.printLogPoints(rt, args.source.path, routed.logPoints);
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
    const r = rt && isRecordingSource(rt.recording, args.source) ? rt.recordAtLine(this.toDebugger.line(args.line)) : -1;
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

  /** The key the next open is given (a keyed capsule open now has to be opened again with it). */
  private setKey(a: Record<string, unknown>): SetKeyResponseBody {
    const key = typeof a.keyHex === 'string' ? a.keyHex.trim() : '';
    if (!KEY_PATTERN.test(key)) throw new RuntimeRefusal(1060, 'A capsule key is 64 hex digits (32 bytes).');
    this.keyHex = key.toLowerCase();
    return { accepted: true, reopenNeeded: this.runtime?.timeline.traits.keyed === true };
  }

  private toward(response: DebugProtocol.Response, toward: RunToward, a: TargetArguments): void {
    this.move(response, (rt) => rt.toward(toward, targetArguments(a, toward, this.toDebugger)));
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
    const options = openOptions(args, this.keyHex, (text) => this.toolchainEvent({ state: 'output', message: text }), this.toolchain.signal);
    if (this.env) options.env = this.env;
    let rec: Recording;
    try {
      const opened = this.source(args, options);
      this.toolchain.track(opened);
      rec = await opened;
    } catch (e) {
      const message = e instanceof RecordingError ? e.message : `${args.recording}: ${(e as Error).message ?? String(e)}`;
      this.toolchainEvent({ state: 'failed', message });
      throw new RuntimeRefusal(1002, message);
    }
    const rt = new ReplayRuntime(rec, { log: (text, r) => this.logPoint(text, r) }, { openedBy: args, previous: this.runtime });
    this.runtime = rt;
    this.variables = new VariableStore(rt);
    this.servedText.forget();
    void rt.awaitStatements()?.then((arrived) => this.statementsArrived(rt, arrived));
    void rt.awaitValues()?.then((arrived) => this.valuesArrived(rt, arrived));
    for (const e of openedEvents(rec, !args.noToolchain)) this.sendEvent(e);
    return rt;
  }

  /** A source-level launch's statements, taken by the runtime before its values: what changed is told, and the statements event sent. */
  private statementsArrived(rt: ReplayRuntime, arrived: ValuesArrived | null): void {
    if (!arrived || this.runtime !== rt) return;
    const status = rt.recording.sourceLevel;
    const index = readyStatements(rt.recording);
    const body: StatementsEventBody = index
      ? { state: 'ready', message: `statement index ready: ${groupDigits(index.eventCount)} statements executed; the values follow`, events: index.eventCount }
      : { state: 'unavailable', message: status?.state === 'unavailable' ? status.reason : 'no statements came' };
    this.valuesArrived(rt, arrived);
    this.sendEvent(new Event(EVENT.statements, body));
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
      for (const b of breakpoints) this.sendEvent(new BreakpointEvent('changed', dapBreakpoint(b, this.toClient, file)));
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

  /** Prints the hits of the log points the runtime says are new or changed; `path`: the program's, as the client named it. */
  /** Every hit of each log point; a message reads values, so while they are coming it is printed once they are in. */
  private printLogPoints(rt: ReplayRuntime, path: string | undefined, logPoints: PrintedLogPoint[]): void {
    if (!path || logPoints.length === 0) return;
    const values = rt.valuesPending;
    if (values) {
      void values.then(() => this.runtime === rt && this.printLogPoints(rt, path, logPoints));
      return;
    }
    for (const p of logPoints) for (const e of hitLines(rt, path, p, this.toClient)) this.sendEvent(e);
  }

  /** A record-level log point's message, on the recording's line when it has a record. */
  private logPoint(text: string, record: number): void {
    const rt = this.runtime;
    this.sendEvent(messageLine(text, record >= 0 && rt ? { source: recordingSource(rt.recording), line: this.toClient.line(rt.timeline.lineOf(record)) } : undefined));
  }

  private toolchainEvent(body: ToolchainEventBody): void {
    this.sendEvent(new Event(EVENT.toolchain, body));
  }
}
