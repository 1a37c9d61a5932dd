// JSON written in pieces, never built as one string or one object tree: a document is a plain
// value in which any array may be a JsonSequence (a length and item i, made on demand, either as
// its JSON text or written as bytes into the sink). writeJson writes the document into a
// ByteSink: its own fields indented by two spaces, and each item of a sequence compact on a line
// of its own (a 300,000-effect capsule is 300,000 lines, not millions). JSON.parse of the output
// gives the document with every sequence as an array.
import { ByteSink, CollectTarget, piece } from './byte-sink';

/** An array whose items are made one at a time: `json(i)` is the JSON text of item i. */
export class JsonSequence {
  constructor(
    readonly length: number,
    readonly json: (i: number) => string,
    /** The same JSON written into the sink as bytes, without making a string (when the kind of item allows it). */
    readonly write?: (i: number, sink: ByteSink) => void,
  ) {}
}

/**
 * Writes the document; yields whenever a chunk was handed to the sink's target since the last
 * yield, so that the caller can wait for a slow reader there. The last bytes stay in the sink
 * (the caller flushes).
 */
export function* writeJson(value: unknown, sink: ByteSink): Generator<void> {
  yield* writeValue(value, '', sink);
  sink.ascii('\n');
}

/** The whole document as one string: for small documents and tests only. */
export function jsonText(value: unknown): string {
  const target = new CollectTarget();
  const sink = new ByteSink(target);
  for (const _ of writeJson(value, sink));
  sink.flush();
  return target.text();
}

function* writeValue(v: unknown, pad: string, sink: ByteSink): Generator<void> {
  if (v instanceof JsonSequence) {
    if (v.length === 0) return sink.ascii('[]');
    // `[`, then before each item a newline and its indent (after a comma but for the first)
    const inner = `${pad}  `;
    sink.put(piece(`[\n${inner}`));
    const next = piece(`,\n${inner}`);
    for (let i = 0; i < v.length; ) {
      i = writeItems(v, i, next, sink);
      sink.clearHandedOff();
      yield;
    }
    sink.ascii('\n');
    sink.ascii(`${pad}]`);
    return;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && containsSequence(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    const inner = `${pad}  `;
    sink.ascii('{\n');
    for (let k = 0; k < entries.length; k++) {
      sink.text(`${inner}${JSON.stringify(entries[k][0])}: `);
      yield* writeValue(entries[k][1], inner, sink);
      sink.ascii(k + 1 < entries.length ? ',\n' : '\n');
    }
    sink.ascii(`${pad}}`);
    return;
  }
  // A plain value: small by construction (sequences hold whatever is large).
  sink.text((JSON.stringify(v, null, 2) ?? 'null').replace(/\n/g, `\n${pad}`));
  if (sink.handedOff) {
    sink.clearHandedOff();
    yield;
  }
}

/**
 * Items from `from` on, each after `next` but the first, until the sink handed a chunk over or
 * the sequence ended; the index to go on from. A plain function: the loop inside the generator
 * cost 120 ns an item, a third of writing a clock read's line.
 */
function writeItems(v: JsonSequence, from: number, next: Uint8Array, sink: ByteSink): number {
  const write = v.write;
  let i = from;
  while (i < v.length) {
    if (i > 0) sink.put(next);
    if (write) write(i, sink);
    else sink.text(v.json(i));
    i++;
    if (sink.handedOff) break;
  }
  return i;
}

function containsSequence(v: object): boolean {
  for (const x of Object.values(v)) {
    if (x instanceof JsonSequence) return true;
    if (x !== null && typeof x === 'object' && !Array.isArray(x) && containsSequence(x)) return true;
  }
  return false;
}
