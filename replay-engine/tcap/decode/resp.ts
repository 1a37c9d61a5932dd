// Redis replies (RESP2, and the RESP3 types Redis 6+ may send): simple strings, errors, integers,
// bulk strings, nulls and nested arrays. A pipelined call holds several replies back to back.
import type { DecodedValue } from '../../model/recording';
import { cutText } from '../../model/cut-text';
import { bytesValue, child, malformed, quote } from './bytes-text';

const MAX_DEPTH = 64;

class RespError extends Error {}

interface Parsed {
  value: DecodedValue;
  end: number;
}

export function respValue(data: Uint8Array): DecodedValue {
  if (data.length === 0) return { text: 'no reply', type: 'empty' };
  const replies: DecodedValue[] = [];
  let pos = 0;
  try {
    while (pos < data.length) {
      const p = parseReply(data, pos, 0);
      replies.push(p.value);
      pos = p.end;
    }
  } catch (e) {
    if (e instanceof RespError) return malformed(`not a RESP reply at byte ${pos}: ${e.message}`, data);
    throw e;
  }
  if (replies.length === 1) return replies[0];
  return {
    text: cutText(`${replies.length} replies: ${replies.slice(0, 5).map((r) => r.text).join(', ')}${replies.length > 5 ? ', …' : ''}`),
    type: 'resp-pipeline',
    children: replies.map((v, i) => child(`reply ${i + 1}`, v)),
  };
}

function line(data: Uint8Array, pos: number): { text: string; end: number } {
  for (let i = pos; i + 1 < data.length; i++) {
    if (data[i] === 0x0d && data[i + 1] === 0x0a) {
      return { text: Buffer.from(data.buffer, data.byteOffset + pos, i - pos).toString('utf8'), end: i + 2 };
    }
  }
  throw new RespError('a line without CRLF');
}

/**
 * An integer's decimal text as BigInt would print it, without BigInt: its parse and print take
 * time quadratic in the digits (a RESP3 big number of 4 million digits took 5 to 16 s to decode).
 */
function integerText(text: string): string {
  const m = /^([-+]?)(\d+)$/.exec(text);
  if (!m) throw new RespError(`${quote(cutText(text, 40))} is not an integer`);
  const digits = m[2].replace(/^0+(?=\d)/, '');
  return m[1] === '-' && digits !== '0' ? `-${digits}` : digits;
}

/** Lengths and counts are compared as BigInt; any of more than 30 digits is beyond every file. */
function integer(text: string): bigint {
  const t = integerText(text);
  if (t.length <= 31) return BigInt(t);
  return t.startsWith('-') ? -(10n ** 31n) : 10n ** 31n;
}

function parseReply(data: Uint8Array, pos: number, depth: number): Parsed {
  if (depth > MAX_DEPTH) throw new RespError(`nested more than ${MAX_DEPTH} deep`);
  if (pos >= data.length) throw new RespError('a reply is cut');
  const type = String.fromCharCode(data[pos]);
  const l = line(data, pos + 1);
  switch (type) {
    case '+':
      return { value: { text: quote(l.text), type: 'resp-simple' }, end: l.end };
    case '-':
    case '!': {
      if (type === '!') return blob(data, l, 'resp-error', (b) => ({ text: `error ${bytesValue(b).text}`, type: 'resp-error' }));
      return { value: { text: cutText(`error ${l.text}`), type: 'resp-error' }, end: l.end };
    }
    case ':':
      return { value: { text: integerText(l.text), type: 'resp-integer' }, end: l.end };
    case '(':
      return { value: { text: integerText(l.text), type: 'resp-integer' }, end: l.end };
    case ',':
      return { value: { text: cutText(l.text), type: 'resp-double' }, end: l.end };
    case '#':
      return { value: { text: l.text === 't' ? 'true' : 'false', type: 'resp-bool' }, end: l.end };
    case '_':
      return { value: { text: 'nil', type: 'resp-null' }, end: l.end };
    case '$':
    case '=':
      return blob(data, l, 'resp-bulk', (b) => {
        const v = bytesValue(b);
        return { text: v.type === 'empty' ? '""' : v.text, type: 'resp-bulk', children: v.children };
      });
    case '*':
    case '~':
    case '>':
    case '%':
    case '|':
      return aggregate(data, type, l, depth);
    default:
      throw new RespError(`unknown reply type byte 0x${data[pos].toString(16).padStart(2, '0')}`);
  }
}

function blob(data: Uint8Array, l: { text: string; end: number }, type: string, show: (b: Uint8Array) => DecodedValue): Parsed {
  const n = integer(l.text);
  if (n === -1n) return { value: { text: 'nil', type: 'resp-null' }, end: l.end };
  if (n < 0n || n > BigInt(data.length - l.end - 2)) throw new RespError(`bulk length ${cutText(integerText(l.text), 40)} is more than the bytes that remain`);
  const len = Number(n);
  const end = l.end + len;
  if (data[end] !== 0x0d || data[end + 1] !== 0x0a) throw new RespError('a bulk string not ended by CRLF');
  const v = show(data.subarray(l.end, end));
  return { value: { ...v, type }, end: end + 2 };
}

function aggregate(data: Uint8Array, type: string, l: { text: string; end: number }, depth: number): Parsed {
  const n = integer(l.text);
  if (n === -1n) return { value: { text: 'nil', type: 'resp-null' }, end: l.end };
  const per = type === '%' || type === '|' ? 2n : 1n;
  // Every element takes at least 3 bytes (`_\r\n`): check the count before making room for it.
  if (n < 0n || n * per * 3n > BigInt(data.length - l.end)) throw new RespError(`${cutText(integerText(l.text), 40)} elements cannot fit in the bytes that remain`);
  const count = Number(n * per);
  const items: DecodedValue[] = [];
  let pos = l.end;
  for (let i = 0; i < count; i++) {
    const p = parseReply(data, pos, depth + 1);
    items.push(p.value);
    pos = p.end;
  }
  const kindName = type === '%' ? 'map' : type === '~' ? 'set' : type === '>' ? 'push' : type === '|' ? 'attributes' : 'array';
  const children =
    per === 2n
      ? Array.from({ length: count / 2 }, (_, i) => child(items[2 * i].text, items[2 * i + 1]))
      : items.map((v, i) => child(`[${i}]`, v));
  const shown = children.slice(0, 5).map((c) => (per === 2n ? `${c.name}: ${c.value.text}` : c.value.text)).join(', ');
  return {
    // Each level's text is cut, so nested levels do not each repeat their whole subtree's text.
    value: { text: cutText(`${kindName} of ${Number(n)}${Number(n) ? ` [${shown}${Number(n) > 5 ? ', …' : ''}]` : ''}`), type: 'resp-array', children },
    end: pos,
  };
}
