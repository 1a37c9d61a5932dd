// What every request handler stands on: the runtime and the variables it answers from, the
// client's lines, columns and paths (place-conversion.ts), and how a request is answered: with the
// body it gives, or with the runtime's refusal as an error response; a move is answered first,
// then run, and where it stopped is reported (the cursor event, then `stopped`). Between
// TracedSession (the protocol log) and FrozenRunSession (one method per request).
import { ContinuedEvent, Event, OutputEvent, StoppedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EVENT } from './contract';
import type { PlaceConversion } from './place-conversion';
import { cursorBody, dapReason } from './reports';
import { RuntimeRefusal, type ReplayRuntime, type Stop } from './runtime';
import { TracedSession } from './traced-session';
import type { VariableStore } from './variables';

export class AnsweringSession extends TracedSession {
  protected runtime: ReplayRuntime | undefined;
  protected variables: VariableStore | undefined;
  /** A stop was reported since launch or restart (the next one first says every thread moved on). */
  protected stopReported = false;
  /** While a custom request is handled: its errors are not shown by VS Code (the extension shows them). */
  protected quiet = false;
  /** The runtime's lines, columns and paths as the client's, and the client's as the runtime's. */
  protected readonly toClient: PlaceConversion = {
    line: (l) => this.convertDebuggerLineToClient(l),
    column: (c) => this.convertDebuggerColumnToClient(c),
    path: (p) => this.convertDebuggerPathToClient(p),
  };
  protected readonly toDebugger: PlaceConversion = {
    line: (l) => this.convertClientLineToDebugger(l),
    column: (c) => this.convertClientColumnToDebugger(c),
    path: (p) => this.convertClientPathToDebugger(p),
  };

  protected rt(): ReplayRuntime {
    if (!this.runtime) throw new RuntimeRefusal(1010, 'No recording is open.');
    return this.runtime;
  }

  protected vars(): VariableStore {
    if (!this.variables) throw new RuntimeRefusal(1010, 'No recording is open.');
    return this.variables;
  }

  /** Answer with what `body` gives, or with the runtime's refusal; `then` runs after the response. */
  protected answer<T>(response: DebugProtocol.Response, body: () => T, then?: (body: T) => void): void {
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
  protected async answerAsync(response: DebugProtocol.Response, what: string, ready: () => Promise<() => Promise<void>>): Promise<void> {
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
  protected move(response: DebugProtocol.Response, how: (rt: ReplayRuntime) => Promise<Stop>): void {
    let run: Promise<Stop>;
    try {
      run = how(this.rt().ready());
    } catch (e) {
      return this.refuse(response, e);
    }
    this.sendResponse(response);
    void this.moved(async () => this.report(await run));
  }

  protected report(stop: Stop): void {
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

  private async moved(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (e) {
      this.sendEvent(new OutputEvent(`${(e as Error).message}\n`, 'stderr'));
    }
  }

  protected refuse(response: DebugProtocol.Response, e: unknown): void {
    if (e instanceof RuntimeRefusal) return this.fail(response, e.id, e.message);
    this.fail(response, 1000, `Frozen Run: unexpected error: ${(e as Error).message ?? String(e)}`);
  }

  /**
   * An error response. VS Code turns `showUser` into a notification; without it the message still
   * shows where the request came from (a watch, the console, the caller of a custom request).
   */
  protected fail(response: DebugProtocol.Response, id: number, message: string, showUser = !this.quiet): void {
    // No variables: braces in an engine message (a path, a JSON fragment) are shown as they are.
    this.sendErrorResponse(response, { id, format: message, variables: {}, showUser });
  }
}
