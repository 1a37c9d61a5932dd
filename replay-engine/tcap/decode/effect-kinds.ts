// Decoding any effect of a capsule: the key (what was asked) and the result or fault (what came
// back), as DecodedValue trees for the views and one-line texts for lists, by the kind's entry in
// the table of capsule kinds (kinds.ts). A kind the table lacks shows its bytes.
import type { DecodedValue } from '../../model/recording';
import { bytesValue } from './bytes-text';
import { faultValue } from './kind-decoders';
import { capsuleKind } from './kinds';

export { faultValue, WEBSOCKET_MESSAGE_KINDS } from './kind-decoders';

export function decodeKey(kind: string, key: Uint8Array): DecodedValue {
  const k = capsuleKind(kind);
  return k ? k.key(key) : bytesValue(key);
}

export function decodeResult(kind: string, key: Uint8Array, data: Uint8Array, outcome: number, ident: number): DecodedValue {
  if (outcome === 1) return faultValue(kind, data, ident);
  const k = capsuleKind(kind);
  return k ? k.result(key, data) : bytesValue(data);
}
