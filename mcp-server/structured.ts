// A tool's answer as both forms MCP clients read: structuredContent (checked by the SDK against the
// tool's outputSchema) and the same JSON as text for clients before structured output. Errors stay
// one line of text (answer.ts).
import { answering, type ToolAnswer } from './answer';

export function answeringStructured<A>(body: (args: A, extra?: { signal?: AbortSignal }) => Promise<object> | object): (args: A, extra?: { signal?: AbortSignal }) => Promise<ToolAnswer> {
  const plain = answering(body);
  return async (args: A, extra?: { signal?: AbortSignal }) => {
    const answer = await plain(args, extra);
    if (answer.isError) return answer;
    return { ...answer, structuredContent: JSON.parse(answer.content[0].text) as Record<string, unknown> };
  };
}
