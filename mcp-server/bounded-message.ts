// The net under every message the server sends (issue 31, 3b): the SDK echoes what the client sent
// in its own errors ("Tool <name> not found", a resource's URI), so a 10 MB tool name came back as a
// 10 MB error, the client's reader refused it and closed, and the session was lost. Here, as each
// message is written (LineTransport.send):
//  - an error's text (a JSON-RPC error's message, a tool error's text) is cut to ERROR_TEXT_LIMIT
//    characters by the engine's cutText, which says how long the whole text was;
//  - a message still longer than the message bound has every string cut to 400 characters;
//  - one still longer is not sent: a response becomes an error saying how long it would have been
//    (a notification is dropped, and the transport reports it).
// The bound covers what one answer legitimately holds: the page of JSON twice (structuredContent
// and the same text as a content block, up to 3 UTF-8 bytes a character) and the tool list, and
// stays well under the client's 10 MB.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { cutText } from '../replay-engine/model/cut-text';

/** Longest error text sent, in characters: twice the tools' own cut (answer.ts), so no error they made is cut again. */
export const ERROR_TEXT_LIMIT = 4000;

/** The most bytes one outgoing message holds, for the server's page bound and the client's limit on a message. */
export function messageBound(page: number, clientLimit: number): number {
  return Math.min(clientLimit - 64 * 1024, 9 * page + 256 * 1024);
}

export interface BoundedLine {
  /** The line to write (without its line end). */
  line: string | null;
  /** Why the message was changed or dropped, for the transport's error report; null if unchanged. */
  note: string | null;
}

type Json = Record<string, unknown>;

/** The message as one line of JSON within `bound` bytes, errors cut; or null for a notification that cannot fit. */
export function boundedLine(message: JSONRPCMessage, bound: number): BoundedLine {
  let value = cutErrors(message as unknown as Json);
  let line = JSON.stringify(value);
  const cutError = value !== (message as unknown);
  if (Buffer.byteLength(line) <= bound) return { line, note: cutError ? `an error text was cut to ${ERROR_TEXT_LIMIT} characters` : null };
  const size = Buffer.byteLength(line);
  value = cutStrings(value) as Json;
  line = JSON.stringify(value);
  if (Buffer.byteLength(line) <= bound) return { line, note: `a message of ${size} bytes had its strings cut to fit ${bound} bytes` };
  const id = value.id;
  if (id === undefined || id === null || !('result' in value || 'error' in value)) {
    return { line: null, note: `a message of ${size} bytes (${String(value.method ?? 'a notification')}) was not sent: more than ${bound} bytes` };
  }
  const error = {
    code: -32603,
    message: `the answer would be ${size} bytes, more than the server's bound of ${bound} bytes for one message even with every text cut to 400 characters: ask for less (a smaller limit, no detail, one thread)`,
  };
  return { line: JSON.stringify({ jsonrpc: '2.0', id, error }), note: error.message };
}

/** A copy with every error text cut: a JSON-RPC error's message and data, a tool error's text blocks. */
function cutErrors(m: Json): Json {
  const error = m.error as Json | undefined;
  if (error && typeof error === 'object') {
    const message = typeof error.message === 'string' ? cutText(error.message, ERROR_TEXT_LIMIT) : error.message;
    const dataText = error.data === undefined ? '' : JSON.stringify(error.data);
    if (message === error.message && dataText.length <= ERROR_TEXT_LIMIT) return m;
    const cut: Json = { ...error, message };
    if (dataText.length > ERROR_TEXT_LIMIT) delete cut.data;
    return { ...m, error: cut };
  }
  const result = m.result as Json | undefined;
  if (result && typeof result === 'object' && result.isError === true && Array.isArray(result.content)) {
    const content = result.content as Json[];
    if (!content.some((c) => typeof c?.text === 'string' && (c.text as string).length > ERROR_TEXT_LIMIT)) return m;
    return { ...m, result: { ...result, content: content.map((c) => (typeof c?.text === 'string' ? { ...c, text: cutText(c.text as string, ERROR_TEXT_LIMIT) } : c)) } };
  }
  return m;
}

function cutStrings(v: unknown): unknown {
  if (typeof v === 'string') return cutText(v);
  if (Array.isArray(v)) return v.map(cutStrings);
  if (v && typeof v === 'object') {
    const out: Json = {};
    for (const [k, x] of Object.entries(v)) out[k] = cutStrings(x);
    return out;
  }
  return v;
}
