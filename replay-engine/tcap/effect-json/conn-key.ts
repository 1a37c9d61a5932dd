// decodeKey's connKey (wire.read@1, websocket.read@1: `CONN MAX`; wire.write@1,
// websocket.write@1: `CONN BYTES`) as JSON without a value tree, for a connection of plain ASCII
// and, for reads, a plain maximum; the bytes written take bytes-result.ts's writer. A streaming
// handler's writes each have a key of their own (the bytes are in it), so no key is seen twice:
// through the generic decoder such a line took 4 to 7 µs. Anything else returns false before
// writing, for the generic path.
import { piece, type ByteSink } from '../../byte-sink';
import { bytesShape, bytesValueAgain, innerBytesText } from './bytes-result';
import { copyAt } from './line-bytes';

/** Longer keys take the generic path (so that the whole key fits the room made for it). */
const MAX_KEY = 1024;
const ROOM = 4096;

type KeyWriter = (sink: ByteSink, b: Uint8Array, from: number, to: number) => boolean;

/** Bytes JSON and plain() leave as they are: printable ASCII but `"` and `\`. */
function plainRun(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i];
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function copyFrom(sink: ByteSink, b: Uint8Array, from: number, to: number): void {
  sink.pos = copyAt(sink.buf, sink.pos, b, from, to);
}

export function connKeyWriter(restName: 'max' | 'bytes'): KeyWriter {
  const head = piece('{"text":"conn ');
  const rest = piece(` ${restName} `);
  const connection = piece('","type":"connection","children":[{"name":"connection","value":{"text":"');
  const restChild = piece(`","type":"number"}},{"name":"${restName}","value":`);
  const end = piece('}]}');
  const asBytes = restName === 'bytes';
  return (sink, b, from, to) => {
    if (to - from > MAX_KEY) return false;
    let space = -1;
    for (let i = from; i < to; i++) {
      if (b[i] === 0x20) {
        space = i;
        break;
      }
    }
    if (space < 0 || !plainRun(b, from, space)) return false;
    const shape = asBytes ? bytesShape(b, space + 1, to) : undefined;
    if (asBytes ? shape === undefined : !plainRun(b, space + 1, to)) return false;
    sink.room(ROOM);
    sink.put(head);
    copyFrom(sink, b, from, space);
    sink.put(rest);
    if (!asBytes || shape === undefined) {
      copyFrom(sink, b, space + 1, to);
      sink.put(connection);
      copyFrom(sink, b, from, space);
      sink.put(restChild);
      sink.ascii('{"text":"');
      copyFrom(sink, b, space + 1, to);
      sink.ascii('","type":"number"}');
      sink.put(end);
      return true;
    }
    // The bytes' text inside the parent's text, then again as the child's own.
    const at = sink.pos;
    const inner = innerBytesText(sink, b, space + 1, to, shape);
    sink.put(connection);
    copyFrom(sink, b, from, space);
    sink.put(restChild);
    sink.ascii('{"text":"');
    bytesValueAgain(sink, at, inner, shape);
    sink.put(end);
    return true;
  };
}
