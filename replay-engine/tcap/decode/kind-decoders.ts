// The decoders the table of capsule kinds (kinds.ts) names: one function per shape of key or
// result, as DecodedValue trees for the views and one-line texts for lists.
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, hex, looseText, malformed, plain, printableText, quote } from './bytes-text';
import { readWord, wallFromNanos } from './words';

export const WEBSOCKET_MESSAGE_KINDS: Record<string, string> = { '1': 'text', '2': 'binary', '8': 'close', '9': 'ping', '10': 'pong' };

export function empty(): DecodedValue {
  return { text: 'empty', type: 'empty' };
}

export function text(t: string, type = 'text'): DecodedValue {
  return { text: t, type };
}

/** `conn rest`: a connection number, a space, then the rest (max bytes or the bytes written). */
export function connKey(key: Uint8Array, restName: string, restAsBytes: boolean): DecodedValue {
  const space = key.indexOf(0x20);
  if (space < 0) return malformed('expected `connection SPACE ...`', key);
  const conn = plain(looseText(key.subarray(0, space)));
  const rest = key.subarray(space + 1);
  const restValue = restAsBytes ? bytesValue(rest) : text(plain(looseText(rest)), 'number');
  return {
    text: `conn ${conn} ${restName} ${restValue.text}`,
    type: 'connection',
    children: [child('connection', text(conn, 'number')), child(restName, restValue)],
  };
}

export function pathKey(key: Uint8Array): DecodedValue {
  return text(quote(looseText(key)), 'path');
}

/** `op rest`: the first word names the operation. */
export function opKey(key: Uint8Array, restName: string): DecodedValue {
  const t = looseText(key);
  const space = t.indexOf(' ');
  const op = plain(space < 0 ? t : t.slice(0, space));
  const rest = space < 0 ? '' : t.slice(space + 1);
  return { text: `${op} ${quote(rest)}`, type: 'op', children: [child('op', text(op)), child(restName, text(quote(rest), 'path'))] };
}

export function faultValue(kind: string, data: Uint8Array, ident: number): DecodedValue {
  const message = printableText(data) ?? hex(data);
  const sentinel = ident ? ` (sentinel ${ident})` : '';
  const label = kind === 'sched.cancel@1' ? 'cancelled' : 'fault';
  return {
    text: `${label}: ${plain(message)}${sentinel}`,
    type: 'fault',
    children: [child('message', text(quote(message))), child('sentinel', text(ident ? String(ident) : 'none', 'number'))],
  };
}

export function kafkaKey(key: Uint8Array): DecodedValue {
  const t = looseText(key);
  const m = /^(\S+) v(\d+) /.exec(t);
  if (!m) return malformed('expected `Request vN body`', key);
  const body = key.subarray(Buffer.byteLength(m[0], 'utf8'));
  return {
    text: `${m[1]} v${m[2]}`,
    type: 'kafka',
    children: [child('request', text(m[1])), child('version', text(m[2], 'number')), child('body', bytesValue(body))],
  };
}

export function quarryWriteKey(key: Uint8Array): DecodedValue {
  const nl = key.indexOf(0x0a);
  const head = looseText(key.subarray(0, nl < 0 ? key.length : nl));
  if (nl < 0 || !/^[wa] /.test(head)) return malformed('expected `w PATH\\nDATA` or `a PATH\\nDATA`', key);
  const mode = head[0] === 'a' ? 'append' : 'write';
  const data = bytesValue(key.subarray(nl + 1));
  return {
    text: `${mode} ${quote(head.slice(2))} ${data.text}`,
    type: 'op',
    children: [child('mode', text(mode)), child('path', text(quote(head.slice(2)), 'path')), child('data', data)],
  };
}

export function cancelKey(key: Uint8Array): DecodedValue {
  const t = looseText(key);
  const m = /^(\S+) (\d+)$/.exec(t);
  if (!m) return malformed('expected `BOUNDARY TASK`', key);
  return {
    text: `${m[1]} boundary of task ${m[2]}`,
    type: 'cancel',
    children: [child('boundary', text(m[1])), child('task', text(m[2], 'number'))],
  };
}

export function websocketRead(data: Uint8Array): DecodedValue {
  const kind = readWord(data, 0);
  const length = readWord(data, 8);
  if (kind === undefined || length === undefined || length !== BigInt(data.length - 16)) {
    return malformed('not word message kind, string data', data);
  }
  const kindName = WEBSOCKET_MESSAGE_KINDS[kind.toString()] ?? `kind ${kind}`;
  const payload = bytesValue(data.subarray(16));
  return {
    text: `${kindName} message ${payload.text}`,
    type: 'websocket',
    children: [child('kind', text(`${kind} (${kindName})`, 'number')), child('data', payload)],
  };
}

export function statResult(key: Uint8Array, data: Uint8Array): DecodedValue {
  const w = readWord(data);
  if (w === undefined || data.length !== 8) return malformed(`a stat result is one 8-byte word, this one is ${data.length} bytes`, data);
  const op = looseText(key).split(' ')[0];
  if (op === 'exists' || op === 'isdir') return text(w !== 0n ? 'true' : 'false', 'bool');
  if (op === 'size') return text(`${w} bytes`, 'number');
  if (op === 'mtime') return wallFromNanos(w);
  return text(w.toString(), 'number');
}

export function dirListing(data: Uint8Array): DecodedValue {
  const names: DecodedValue[] = [];
  let pos = 0;
  while (pos < data.length) {
    const n = readWord(data, pos);
    if (n === undefined || n < 0n || n > BigInt(data.length - pos - 8)) {
      return malformed(`name ${names.length} at byte ${pos}: its length does not fit the bytes that remain`, data);
    }
    names.push(bytesValue(data.subarray(pos + 8, pos + 8 + Number(n))));
    pos += 8 + Number(n);
  }
  const shown = names.slice(0, 5).map((v) => v.text).join(', ');
  return {
    text: `${names.length} names${names.length ? `: ${shown}${names.length > 5 ? ', …' : ''}` : ''}`,
    type: 'list',
    children: names.map((v, i) => child(`[${i}]`, v)),
  };
}
