// JSON written in pieces, never built as one string or one object tree: a document is a plain
// value in which any array may be a JsonSequence (a length and the JSON text of item i, made on
// demand). jsonChunks yields the text in chunks of about CHUNK characters: the document's own
// fields indented by two spaces, and each item of a sequence compact on a line of its own (a
// 300,000-effect capsule is 300,000 lines, not millions). JSON.parse of the joined chunks gives
// the document with every sequence as an array.

/** An array whose items are made one at a time: `json(i)` is the JSON text of item i. */
export class JsonSequence {
  constructor(
    readonly length: number,
    readonly json: (i: number) => string,
  ) {}
}

const CHUNK = 1 << 16;

export function* jsonChunks(value: unknown): Generator<string> {
  const out = new Chunker();
  yield* out.value(value, '');
  out.text('\n');
  yield* out.flush(true);
}

/** The whole document as one string: for small documents and tests only. */
export function jsonText(value: unknown): string {
  return Array.from(jsonChunks(value)).join('');
}

class Chunker {
  private pending = '';

  private get size(): number {
    return this.pending.length;
  }

  text(s: string): void {
    this.pending += s;
  }

  *flush(always = false): Generator<string> {
    if (this.pending.length === 0 || (!always && this.pending.length < CHUNK)) return;
    const chunk = this.pending;
    this.pending = '';
    yield chunk;
  }

  *value(v: unknown, pad: string): Generator<string> {
    if (v instanceof JsonSequence) {
      if (v.length === 0) return this.text('[]');
      const inner = `${pad}  `;
      this.text('[\n');
      for (let i = 0; i < v.length; i++) {
        this.text(inner);
        this.text(v.json(i));
        this.text(i + 1 < v.length ? ',\n' : '\n');
        if (this.size >= CHUNK) yield* this.flush();
      }
      this.text(`${pad}]`);
      return;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && containsSequence(v)) {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      const inner = `${pad}  `;
      this.text('{\n');
      for (let k = 0; k < entries.length; k++) {
        this.text(`${inner}${JSON.stringify(entries[k][0])}: `);
        yield* this.value(entries[k][1], inner);
        this.text(k + 1 < entries.length ? ',\n' : '\n');
      }
      this.text(`${pad}}`);
      return;
    }
    // A plain value: small by construction (sequences hold whatever is large).
    this.text((JSON.stringify(v, null, 2) ?? 'null').replace(/\n/g, `\n${pad}`));
    yield* this.flush();
  }
}

function containsSequence(v: object): boolean {
  for (const x of Object.values(v)) {
    if (x instanceof JsonSequence) return true;
    if (x !== null && typeof x === 'object' && !Array.isArray(x) && containsSequence(x)) return true;
  }
  return false;
}
