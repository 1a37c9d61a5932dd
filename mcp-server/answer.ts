// Every tool answers one JSON object twice, as MCP's structured output asks: as `structuredContent`
// (checked against the tool's outputSchema) and as the text block older clients read; or one line
// of error: the engine's own message (which names the file, the place and what to do), never a
// stack trace. Every answer fits the page bound (fitAnswer): lists are cut with the cursor to go on.
import { UsageError } from '../replay-engine/model/errors';
import { RecordingError } from '../replay-engine/model/errors';
import { fitAnswer, pageBytes } from './fit-answer';
import { forMcp } from './mcp-wording';

export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the SDK hands a tool besides its arguments (the parts the tools use). */
export interface ToolExtra {
  signal?: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification?: (n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** An engine message can list every name it knows (10,000 effects of a capsule): cut it there. */
const MAX_ERROR = 2000;

export function errorText(err: unknown): string {
  if (err instanceof RecordingError || err instanceof UsageError) {
    const text = forMcp(oneLine(err.message));
    return text.length <= MAX_ERROR ? text : `${text.slice(0, MAX_ERROR)}… (${text.length - MAX_ERROR} more characters)`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `internal error: ${oneLine(message)} (please report it)`;
}

/** A tool's value as its answer: structured, and the same JSON as text, within the page bound. */
export function structuredAnswer(value: object): ToolAnswer {
  const fitted = fitAnswer(value as Record<string, unknown>, pageBytes());
  return { content: [{ type: 'text', text: fitted.text }], structuredContent: fitted.value };
}

export function errorAnswer(err: unknown): ToolAnswer {
  return { content: [{ type: 'text', text: errorText(err) }], isError: true };
}

/** Wrap a tool's body: its value as a structured answer, or its error as a tool error. */
export function answering<A>(body: (args: A, extra?: ToolExtra) => Promise<object> | object): (args: A, extra?: ToolExtra) => Promise<ToolAnswer> {
  return async (args: A, extra?: ToolExtra) => {
    try {
      return structuredAnswer(await body(args, extra));
    } catch (err) {
      return errorAnswer(err);
    }
  };
}

/**
 * Progress notifications for a request that asked for them (its `_meta.progressToken`): each
 * report a step further, with a message. Without a token, reports go nowhere.
 */
export function progressReporter(extra: ToolExtra | undefined): (message: string) => void {
  const token = extra?._meta?.progressToken;
  const send = extra?.sendNotification;
  if (token === undefined || !send) return () => undefined;
  let step = 0;
  return (message: string) => {
    step++;
    void send({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
  };
}
