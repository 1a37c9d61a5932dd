// Protocol logging through the adapter library's `logger`, as its LoggingDebugSession does, with
// two differences that matter here: nothing is turned into text unless the `trace` launch
// attribute asked for a log (LoggingDebugSession stringifies every message, which for the served
// text of a 100 MB trace is a second copy and seconds of blocking), and what must never reach a
// log (a capsule key, the recording's text) is left out: `frozenRun/setKey`'s arguments are not
// logged at all, and every other message is logged with its keys redacted (log-redaction.ts), so
// a key a client sends where none belongs (a refused `key` attribute) does not reach it either.
import { DebugSession, Logger, logger } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { redactedJson } from './log-redaction';

/** Requests whose arguments are never logged: they carry a key. */
const SECRET_REQUESTS = new Set(['frozenRun/setKey']);

export class TracedSession extends DebugSession {
  private tracing = false;

  constructor() {
    super();
    // Inline (DebugAdapterInlineImplementation) `start` is never called: the logger is set up here.
    logger.init((e) => this.sendEvent(e));
    logger.setup(Logger.LogLevel.Stop, false);
  }

  override start(inStream: NodeJS.ReadableStream, outStream: NodeJS.WritableStream): void {
    super.start(inStream, outStream);
    logger.init((e) => this.sendEvent(e));
    logger.setup(this.tracing ? Logger.LogLevel.Verbose : Logger.LogLevel.Stop, false);
  }

  /** The `trace` launch attribute: log the protocol to the Debug Console. */
  protected setTracing(on: boolean): void {
    this.tracing = on;
    logger.setup(on ? Logger.LogLevel.Verbose : Logger.LogLevel.Stop, false);
  }

  protected override dispatchRequest(request: DebugProtocol.Request): void {
    if (this.tracing) logger.verbose(`From client: ${request.command}(${SECRET_REQUESTS.has(request.command) ? '<not logged>' : redactedJson(request.arguments)})`);
    super.dispatchRequest(request);
  }

  override sendResponse(response: DebugProtocol.Response): void {
    if (this.tracing) {
      const logged = response.command === 'source' && response.success ? { ...response, body: '<the recording\'s text, not logged>' } : response;
      logger.verbose(`To client: ${redactedJson(logged)}`);
    }
    super.sendResponse(response);
  }

  override sendEvent(event: DebugProtocol.Event): void {
    if (this.tracing && !(event instanceof Logger.LogOutputEvent)) logger.verbose(`To client: ${redactedJson(event)}`);
    super.sendEvent(event);
  }
}
