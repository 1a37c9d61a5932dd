// Every tool answers JSON text, or one line of error: the engine's own message (which names the
// file, the place and what to do), never a stack trace.
import { UsageError } from '../replay-engine/cli/args';
import { RecordingError } from '../replay-engine/model/errors';

export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** An engine message can list every name it knows (10,000 effects of a capsule): cut it there. */
const MAX_ERROR = 2000;

export function errorText(err: unknown): string {
  if (err instanceof RecordingError || err instanceof UsageError) {
    const text = oneLine(err.message);
    return text.length <= MAX_ERROR ? text : `${text.slice(0, MAX_ERROR)}… (${text.length - MAX_ERROR} more characters)`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `internal error: ${oneLine(message)} (please report it)`;
}

/** Wrap a tool's body: its value as JSON, or its error as a tool error. */
export function answering<A>(body: (args: A, extra?: { signal?: AbortSignal }) => Promise<object> | object): (args: A, extra?: { signal?: AbortSignal }) => Promise<ToolAnswer> {
  return async (args: A, extra?: { signal?: AbortSignal }) => {
    try {
      const value = await body(args, extra);
      return { content: [{ type: 'text', text: JSON.stringify(value) }] };
    } catch (err) {
      return { content: [{ type: 'text', text: errorText(err) }], isError: true };
    }
  };
}
