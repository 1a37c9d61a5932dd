// A second, deliberately plain implementation of the capsule format for tests: it builds bodies
// field by field and seals them (one createHmac call per keystream block, as the document reads),
// so capsules with any content, including broken ones, can be made under any key.
import { createHmac, randomBytes } from 'node:crypto';

export const FIXTURE_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

export type Bytes = Uint8Array | string;

/** A Buffer as a plain Uint8Array (the project's Node typings do not accept a Buffer as one). */
export function u8(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function bytes(b: Bytes): Uint8Array {
  return typeof b === 'string' ? u8(Buffer.from(b, 'utf8')) : b;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class BodyWriter {
  private parts: Uint8Array[] = [];

  word(v: number | bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
    this.parts.push(b);
    return this;
  }

  string(s: Bytes): this {
    const b = bytes(s);
    return this.word(b.length).raw(b);
  }

  raw(b: Bytes): this {
    this.parts.push(bytes(b));
    return this;
  }

  get length(): number {
    return this.parts.reduce((n, p) => n + p.length, 0);
  }

  toBytes(): Uint8Array {
    return u8(Buffer.concat(this.parts));
  }
}

export interface EffectSpec {
  kind: string;
  key?: Bytes;
  outcome?: number;
  ident?: number;
  data?: Bytes;
  seq?: number;
}

export interface BodySpec {
  schema?: number;
  tin?: Bytes;
  program?: Bytes;
  wall?: bigint;
  core?: number;
  status?: number;
  flags?: number;
  request?: Bytes;
  panic?: Bytes;
  peer?: Bytes;
  count?: number;
  effects: EffectSpec[];
  trailing?: Bytes;
}

export function buildBody(spec: BodySpec): Uint8Array {
  const w = new BodyWriter();
  const schema = spec.schema ?? 2;
  w.word(schema)
    .string(spec.tin ?? 'dev')
    .string(spec.program ?? '/srv/app/bin/server')
    .word(spec.wall ?? 1700000000123456789n)
    .word(spec.core ?? 3)
    .word(spec.status ?? 500)
    .word(spec.flags ?? 0)
    .string(spec.request ?? 'GET / HTTP/1.1\r\nHost: test.example\r\n\r\n')
    .string(spec.panic ?? '');
  if (schema >= 2) w.string(spec.peer ?? '127.0.0.1:1');
  w.word(spec.count ?? spec.effects.length);
  spec.effects.forEach((e, i) => {
    w.word(e.seq ?? i).string(e.kind).string(e.key ?? '').word(e.outcome ?? 0).word(e.ident ?? 0).string(e.data ?? '');
  });
  if (spec.trailing !== undefined) w.raw(spec.trailing);
  return w.toBytes();
}

export function word(v: number | bigint): Uint8Array {
  return new BodyWriter().word(v).toBytes();
}

function hmac(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return u8(h.digest());
}

const text = (s: string): Uint8Array => u8(Buffer.from(s, 'latin1'));
const fromHex = (s: string): Uint8Array => u8(Buffer.from(s, 'hex'));

/** Seals a body under a key (64 hex digits) as envelope version 1. */
export function seal(body: Uint8Array, keyHex: string, nonce: Uint8Array = u8(randomBytes(16))): Uint8Array {
  const k = fromHex(keyHex);
  const ke = hmac(k, text('tin replay enc'));
  const km = hmac(k, text('tin replay mac'));
  const enc = new Uint8Array(body.length);
  for (let i = 0; i * 32 < body.length; i++) {
    const block = hmac(ke, nonce, word(i));
    for (let j = 0; j < 32 && i * 32 + j < body.length; j++) enc[i * 32 + j] = body[i * 32 + j] ^ block[j];
  }
  const head = u8(Buffer.concat([text('TINCAP\x01\x00'), nonce, enc]));
  return u8(Buffer.concat([head, hmac(km, head)]));
}

/** Opens a version 1 capsule the plain way (no tag check shortcuts): the body, or undefined on a tag mismatch. */
export function unseal(file: Uint8Array, keyHex: string): Uint8Array | undefined {
  const k = fromHex(keyHex);
  const km = hmac(k, text('tin replay mac'));
  const ke = hmac(k, text('tin replay enc'));
  const head = file.subarray(0, file.length - 32);
  if (!equalBytes(hmac(km, head), file.subarray(file.length - 32))) return undefined;
  const nonce = file.subarray(8, 24);
  const enc = file.subarray(24, file.length - 32);
  const body = new Uint8Array(enc.length);
  for (let i = 0; i * 32 < enc.length; i++) {
    const block = hmac(ke, nonce, word(i));
    for (let j = 0; j < 32 && i * 32 + j < enc.length; j++) body[i * 32 + j] = enc[i * 32 + j] ^ block[j];
  }
  return body;
}

export function secretHandleOf(keyHex: string, candidate: string): string {
  const ks = hmac(fromHex(keyHex), text('tin replay secret'));
  return `tin-secret:${Buffer.from(hmac(ks, u8(Buffer.from(candidate, 'utf8'))).subarray(0, 16)).toString('hex')}`;
}

export function randomKeyHex(): string {
  return randomBytes(32).toString('hex');
}
