// websocket.read@1's result (kind-decoders.ts's websocketRead: a word of message kind, then the
// message as a string) as JSON without a value tree, for the kinds the decoder names (text,
// binary, close, ping, pong) and a message bytes-result.ts's writer takes. A websocket handler
// reads a message an effect, never the same twice: through the generic decoder 6 µs a line.
import { piece, type ByteSink } from '../../byte-sink';
import { WEBSOCKET_MESSAGE_KINDS } from '../decode/kind-decoders';
import { bytesShape, bytesValueAgain, innerBytesText } from './bytes-result';

/** Longer messages take the generic path (so that the line fits the room made for it; their text is cut anyway). */
const MAX_MESSAGE = 1024;
const ROOM = 4096;

/** Per message kind (1 to 10): `{"text":"NAME message ` and `","type":"websocket",…"text":"K (NAME)","type":"number"}},{"name":"data","value":`. */
const HEADS: Array<Uint8Array | undefined> = [];
const MIDDLES: Array<Uint8Array | undefined> = [];
for (const [k, name] of Object.entries(WEBSOCKET_MESSAGE_KINDS)) {
  HEADS[Number(k)] = piece(`{"text":"${name} message `);
  MIDDLES[Number(k)] = piece(`","type":"websocket","children":[{"name":"kind","value":{"text":"${k} (${name})","type":"number"}},{"name":"data","value":{"text":"`);
}
const END = piece('}]}');

export function websocketReadResult(sink: ByteSink, b: Uint8Array, view: DataView, at: number, length: number): boolean {
  if (length < 16 || length - 16 > MAX_MESSAGE) return false;
  const kind = view.getUint32(at, true);
  const head = kind <= 10 && view.getUint32(at + 4, true) === 0 ? HEADS[kind] : undefined;
  const middle = MIDDLES[kind];
  // the string's length word says the rest of the data
  if (!head || !middle || view.getUint32(at + 8, true) !== length - 16 || view.getUint32(at + 12, true) !== 0) return false;
  const shape = bytesShape(b, at + 16, at + length);
  if (shape === undefined) return false;
  sink.room(ROOM);
  sink.put(head);
  const textAt = sink.pos;
  const inner = innerBytesText(sink, b, at + 16, at + length, shape);
  sink.put(middle);
  bytesValueAgain(sink, textAt, inner, shape);
  sink.put(END);
  return true;
}
