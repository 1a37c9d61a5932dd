// The server's stdio transport: newline-delimited JSON-RPC on stdin/stdout, as the SDK's
// StdioServerTransport, with two differences that keep the server up under hostile use:
//  - a message longer than MAX_MESSAGE_BYTES is skipped up to its line end, never buffered, and
//    answered with a JSON-RPC error (its id is read from the message's first or last bytes), where
//    the SDK's transport closes and the server exits 0 without a word;
//  - a line that is not JSON-RPC gets a parse error answer and the next line is read;
//  - every message sent is bounded (bounded-message.ts): error texts cut, never a message the
//    client's reader would refuse.
// The end of stdin (the client went away) is reported as onclose, so the server can stop machin.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { boundedLine, messageBound } from './bounded-message';
import { pageBytes } from './fit-answer';

/** The SDK client's own limit on a message (STDIO_DEFAULT_MAX_BUFFER_SIZE): 10 MB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Bytes of a skipped message kept from its start and its end, to find its id. */
const ID_WINDOW = 256;

type Id = string | number;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Skipping a message that is too long: its first bytes, its length so far, and its last bytes. */
  private skipping: { head: Buffer; length: number; tail: Buffer } | null = null;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (buf.length) {
      const nl = buf.indexOf(0x0a);
      const part = nl < 0 ? buf : buf.subarray(0, nl);
      buf = nl < 0 ? Buffer.alloc(0) : buf.subarray(nl + 1);
      this.take(part);
      if (nl >= 0) this.endLine();
    }
  };

  private take(part: Buffer): void {
    if (this.skipping) {
      const s = this.skipping;
      s.length += part.length;
      s.tail = Buffer.concat([s.tail, part]).subarray(-ID_WINDOW);
      return;
    }
    if (this.size + part.length > this.maxBytes) {
      const all = Buffer.concat([...this.chunks, part]);
      this.skipping = { head: all.subarray(0, ID_WINDOW), length: all.length, tail: Buffer.from(all.subarray(-ID_WINDOW)) };
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const s = this.skipping;
      this.skipping = null;
      const id = idOf(s.head, s.tail);
      this.onerror?.(new Error(`a message of ${s.length} bytes was refused (the limit is ${this.maxBytes})`));
      if (id !== undefined) {
        void this.send({
          jsonrpc: '2.0',
          id,
          error: { code: -32600, message: `request too large: ${s.length} bytes, more than the server's limit of ${this.maxBytes} bytes (10 MB); send a smaller request (a shorter condition, fewer variables)` },
        });
      }
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      const id = idOf(Buffer.from(line.slice(0, ID_WINDOW)), Buffer.from(line.slice(-ID_WINDOW)));
      void this.send({ jsonrpc: '2.0', id: id ?? null, error: { code: -32700, message: 'not a JSON-RPC message: each line must be one JSON-RPC 2.0 request, notification or response' } } as unknown as JSONRPCMessage);
      return;
    }
    this.onmessage?.(message);
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onInputError = (err: Error): void => {
    this.onerror?.(err);
  };

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const { line, note } = boundedLine(message, messageBound(pageBytes(), MAX_MESSAGE_BYTES));
      if (note) this.onerror?.(new Error(note));
      if (line === null) return resolve();
      if (this.output.write(`${line}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.chunks = [];
    this.skipping = null;
    this.onclose?.();
  }
}

/**
 * The id of a JSON-RPC request from its first and last bytes: the SDK's client writes it last
 * (`…,"jsonrpc":"2.0","id":7}`), others first (`{"jsonrpc":"2.0","id":7,…`).
 */
export function idOf(head: Buffer, tail: Buffer): Id | undefined {
  const value = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,100}")/;
  const end = new RegExp(`${value.source}\\s*}\\s*$`).exec(tail.toString('utf8'));
  const start = /^\s*\{[^{[]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,100}")/.exec(head.toString('utf8'));
  const m = end ?? start;
  if (!m) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}
