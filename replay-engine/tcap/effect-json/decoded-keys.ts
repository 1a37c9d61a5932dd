// The decoded key's JSON of effects whose key was seen before. A streaming or chatty handler
// names the same few things over and over (the connection it writes to, the file it reads, the
// topic), and a key the byte writer has no writer of its own for is decoded into a value tree
// and JSON.stringify'd: 2 to 4 µs a line. Keyed by kind and the key's bytes (compared in full on
// a hit); a kind whose keys rarely repeat stops being looked up after its first MEASURE keys.
import { decodeKey } from '../decode/effect-kinds';

/** Longer keys are decoded each time (their JSON is not kept). */
const MAX_KEY = 256;
const SLOTS = 2048;
const MEASURE = 512;

interface Entry {
  hash: number;
  kind: number;
  key: Uint8Array;
  json: Uint8Array;
}

export class DecodedKeys {
  private readonly slots: Array<Entry | undefined> = new Array<Entry | undefined>(SLOTS).fill(undefined);
  private readonly tries = new Uint32Array(256);
  private readonly hits = new Uint32Array(256);
  private readonly off = new Uint8Array(256);

  constructor(private readonly names: readonly string[]) {}

  /** JSON.stringify(decodeKey(kind, key)) as UTF-8 bytes, made once for a key seen before. */
  json(kind: number, body: Uint8Array, keyAt: number, keyLength: number): Uint8Array {
    if (keyLength > MAX_KEY || this.off[kind] === 1) return this.make(kind, body, keyAt, keyLength);
    let h = Math.imul(kind + 1, 0x9e3779b1) ^ keyLength;
    for (let i = keyAt; i < keyAt + keyLength; i++) h = Math.imul(h ^ body[i], 16777619);
    const n = ++this.tries[kind];
    const slot = h & (SLOTS - 1);
    const e = this.slots[slot];
    if (e && e.hash === h && e.kind === kind && e.key.length === keyLength && same(e.key, body, keyAt)) {
      this.hits[kind]++;
      return e.json;
    }
    if (n === MEASURE && this.hits[kind] < n >> 2) this.off[kind] = 1;
    const json = this.make(kind, body, keyAt, keyLength);
    this.slots[slot] = { hash: h, kind, key: body.slice(keyAt, keyAt + keyLength), json };
    return json;
  }

  private make(kind: number, body: Uint8Array, keyAt: number, keyLength: number): Uint8Array {
    return Buffer.from(JSON.stringify(decodeKey(this.names[kind], body.subarray(keyAt, keyAt + keyLength))), 'utf8');
  }
}

function same(a: Uint8Array, b: Uint8Array, from: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}
