// The decoded key's JSON of effects whose key was seen before. A streaming or chatty handler
// names the same few things over and over (the connection it writes to, the file it reads, the
// topic), and a key the byte writer has no writer of its own for is decoded into a value tree
// and JSON.stringify'd: 2 to 4 µs a line. Keyed by kind and the key's bytes (compared in full on
// a hit); a kind whose keys rarely repeat stops being looked up (RepeatJudge).
import { decodeKey } from '../decode/effect-kinds';
import { hashRun, RepeatJudge, sameRun } from './repeats';

/** Longer keys are decoded each time (their JSON is not kept). */
const MAX_KEY = 256;
const SLOTS = 2048;

interface Entry {
  hash: number;
  kind: number;
  key: Uint8Array;
  json: Uint8Array;
}

export class DecodedKeys {
  private readonly slots: Array<Entry | undefined> = new Array<Entry | undefined>(SLOTS).fill(undefined);
  private readonly judge = new RepeatJudge();

  constructor(private readonly names: readonly string[]) {}

  /** JSON.stringify(decodeKey(kind, key)) as UTF-8 bytes, made once for a key seen before. */
  json(kind: number, body: Uint8Array, keyAt: number, keyLength: number): Uint8Array {
    if (keyLength > MAX_KEY || !this.judge.on(kind)) return this.make(kind, body, keyAt, keyLength);
    const h = hashRun(Math.imul(kind + 1, 0x9e3779b1) ^ keyLength, body, keyAt, keyAt + keyLength);
    const slot = h & (SLOTS - 1);
    const e = this.slots[slot];
    const hit = e !== undefined && e.hash === h && e.kind === kind && e.key.length === keyLength && sameRun(e.key, 0, body, keyAt, keyLength);
    this.judge.looked(kind, hit);
    if (hit) return e.json;
    const json = this.make(kind, body, keyAt, keyLength);
    this.slots[slot] = { hash: h, kind, key: body.slice(keyAt, keyAt + keyLength), json };
    return json;
  }

  private make(kind: number, body: Uint8Array, keyAt: number, keyLength: number): Uint8Array {
    return Buffer.from(JSON.stringify(decodeKey(this.names[kind], body.subarray(keyAt, keyAt + keyLength))), 'utf8');
  }
}
