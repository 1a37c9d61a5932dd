// The table of capsule kinds: every effect kind of formats/tcap.md, one entry each, with all a
// reader knows of it: how its key (what was asked) and its result (what came back) decode, and
// the fast writers `inspect --json` uses for them (each writes the same text as JSON.stringify of
// the decoder's value, or returns false before writing, and the decoder's value is written).
// A kind not in this table is refused by the readers (KNOWN_KINDS in format.ts is its names).
// Adding a kind is adding an entry here; test/tcap/kind-table.test.ts fails when one lacks a part.
import type { ByteSink } from '../../byte-sink';
import type { DecodedValue } from '../../model/recording';
import { bytesResult } from '../effect-json/bytes-result';
import { connKeyWriter } from '../effect-json/conn-key';
import { redisKey, redisReply } from '../effect-json/redis';
import { pathKey as pathKeyWriter, randomBytes, siteKey } from '../effect-json/small-writers';
import { websocketReadResult } from '../effect-json/websocket-read';
import { monotonicResult, wordResult } from '../effect-json/word-results';
import { bytesValue, hex, looseText, plain, quote } from './bytes-text';
import { httpKeyValue, httpResultValue } from './http-effect';
import { cancelKey, connKey, dirListing, empty, kafkaKey, opKey, pathKey, quarryWriteKey, statResult, text, websocketRead } from './kind-decoders';
import { redisKeyValue } from './redis-command';
import { respValue } from './resp';
import { sqlKeyValue } from './sql';
import { monotonicValue, wallValue, wordValue } from './words';

/**
 * A fast writer of one decoded key or result, straight from the body's bytes [at, at + length):
 * true when it wrote the JSON of the decoder's value, false (having written nothing) when the
 * bytes are not of a shape it takes.
 */
export type FastWriter = (sink: ByteSink, body: Uint8Array, view: DataView, at: number, length: number) => boolean;

export interface CapsuleKind {
  /** The decoded key. */
  readonly key: (key: Uint8Array) => DecodedValue;
  /** The decoded result of outcome 0 (a fault is faultValue's, the same for every kind). */
  readonly result: (key: Uint8Array, data: Uint8Array) => DecodedValue;
  /** inspect --json's writer of the decoded key, or null: the decoder's value always. */
  readonly fastKey: FastWriter | null;
  /** inspect --json's writer of the decoded result, or null: the decoder's value always. */
  readonly fastResult: FastWriter | null;
}

const range = (f: (sink: ByteSink, b: Uint8Array, from: number, to: number) => boolean): FastWriter => (sink, body, _view, at, length) => f(sink, body, at, at + length);

function word(prefix: string, type: string): FastWriter {
  const w = wordResult(prefix, type);
  return (sink, _body, view, at, length) => w(sink, view, at, length);
}

/** A word after a fixed prefix (`connection 3`, `arm 1`, `task 2`), as its decoder and its writer. */
function wordAfter(prefix: string, type: string): Pick<CapsuleKind, 'result' | 'fastResult'> {
  return {
    result: (_key, data) => {
      const w = wordValue(data);
      return w.type === 'malformed' ? w : text(`${prefix}${w.text}`, type);
    },
    fastResult: word(prefix, type),
  };
}

/** A result shown as its bytes (text when printable, else hex; empty for writes). */
const BYTES_RESULT: Pick<CapsuleKind, 'result' | 'fastResult'> = {
  result: (_key, data) => bytesValue(data),
  fastResult: range(bytesResult),
};

/** A key that is empty for the kind (or shown as bytes when a writer put some there). */
const emptyOrBytes = (key: Uint8Array): DecodedValue => (key.length ? bytesValue(key) : empty());
const addressKey = (key: Uint8Array): DecodedValue => text(quote(looseText(key)), 'address');
const plainKey = (type: string) => (key: Uint8Array): DecodedValue => text(plain(looseText(key)), type);
const readConnKey = (key: Uint8Array): DecodedValue => connKey(key, 'max', false);
const writeConnKey = (key: Uint8Array): DecodedValue => connKey(key, 'bytes', true);
const readConnWriter = range(connKeyWriter('max'));
const writeConnWriter = range(connKeyWriter('bytes'));
const pathWriter = range(pathKeyWriter);

/** In the order of formats/tcap.md's list. */
export const CAPSULE_KINDS: ReadonlyMap<string, CapsuleKind> = new Map<string, CapsuleKind>([
  ['tide.now@1', { key: emptyOrBytes, fastKey: null, result: (_k, d) => monotonicValue(d), fastResult: (sink, _b, view, at, length) => monotonicResult(sink, view, at, length) }],
  // a wall clock read's line is written whole by effect-json/wall-line.ts
  ['tide.wall@1', { key: emptyOrBytes, fastKey: null, result: (_k, d) => wallValue(d), fastResult: null }],
  ['dice.seed@1', { key: emptyOrBytes, fastKey: null, result: (_k, d) => wordValue(d), fastResult: word('', 'number') }],
  [
    'seal.random@1',
    {
      key: (key) => text(`${plain(looseText(key))} bytes`, 'number'),
      fastKey: null,
      result: (_k, d) => (d.length ? { text: `${hex(d)} (${d.length} random bytes)`, type: 'hex' } : empty()),
      fastResult: (sink, body, _view, at, length) => randomBytes(sink, body, at, length),
    },
  ],
  // HTTP exchanges are few and varied: the decoder's value always
  ['wire.http@1', { key: httpKeyValue, fastKey: null, result: (_k, d) => httpResultValue(d), fastResult: null }],
  ['wire.dial@1', { key: addressKey, fastKey: null, ...wordAfter('connection ', 'number') }],
  ['wire.read@1', { key: readConnKey, fastKey: readConnWriter, ...BYTES_RESULT }],
  ['wire.write@1', { key: writeConnKey, fastKey: writeConnWriter, ...BYTES_RESULT }],
  ['redis@1', { key: redisKeyValue, fastKey: range(redisKey), result: (_k, d) => respValue(d), fastResult: range(redisReply) }],
  ['kafka@1', { key: kafkaKey, fastKey: null, ...BYTES_RESULT }],
  ['mysql@1', { key: sqlKeyValue, fastKey: null, ...BYTES_RESULT }],
  ['postgres@1', { key: sqlKeyValue, fastKey: null, ...BYTES_RESULT }],
  ['mysql.tx@1', { key: plainKey('op'), fastKey: null, ...BYTES_RESULT }],
  ['postgres.tx@1', { key: plainKey('op'), fastKey: null, ...BYTES_RESULT }],
  ['websocket.dial@1', { key: addressKey, fastKey: null, ...wordAfter('connection ', 'number') }],
  ['websocket.read@1', { key: readConnKey, fastKey: readConnWriter, result: (_k, d) => websocketRead(d), fastResult: websocketReadResult }],
  ['websocket.write@1', { key: writeConnKey, fastKey: writeConnWriter, ...BYTES_RESULT }],
  ['quarry.read@1', { key: pathKey, fastKey: pathWriter, ...BYTES_RESULT }],
  ['quarry.write@1', { key: quarryWriteKey, fastKey: null, ...BYTES_RESULT }],
  // a stat's result depends on the key's operation; a listing is a tree: the decoders' values
  ['quarry.stat@1', { key: (k) => opKey(k, 'path'), fastKey: null, result: statResult, fastResult: null }],
  ['quarry.dir@1', { key: pathKey, fastKey: pathWriter, result: (_k, d) => dirListing(d), fastResult: null }],
  ['quarry.fs@1', { key: (k) => opKey(k, 'paths'), fastKey: null, ...BYTES_RESULT }],
  ['sched.select@1', { key: plainKey('site'), fastKey: range(siteKey), ...wordAfter('arm ', 'select-arm') }],
  ['sched.resume@1', { key: emptyOrBytes, fastKey: null, ...wordAfter('task ', 'task') }],
  ['sched.cancel@1', { key: cancelKey, fastKey: null, ...BYTES_RESULT }],
]);

/** The entry of a kind, or undefined for a kind the format does not have. */
export function capsuleKind(kind: string): CapsuleKind | undefined {
  return CAPSULE_KINDS.get(kind);
}
