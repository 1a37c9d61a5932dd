// wire.http@1: the key is `METHOD URL`, then `\n` `Name: value` per header, then `\n\n` and the
// body; the result is a word status, a string head and a string body.
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, looseText, malformed, plain, quote } from './bytes-text';
import { isSecretHandle } from './http-request';
import { readWord } from './words';

export function httpKeyValue(key: Uint8Array): DecodedValue {
  const text = looseText(key);
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? text : text.slice(0, blank);
  const lines = head.split('\n');
  const [method = '', ...urlParts] = (lines[0] ?? '').split(' ');
  const url = urlParts.join(' ');
  const headers = lines.slice(1).filter((l) => l !== '').map((l) => {
    const colon = l.indexOf(':');
    const name = colon < 0 ? l : l.slice(0, colon);
    const value = colon < 0 ? '' : l.slice(colon + 1).trim();
    return child(name, isSecretHandle(value) ? { text: `${value} (secret handle)`, type: 'secret' } : { text: quote(value), type: 'text' });
  });
  const bodyStart = blank < 0 ? key.length : Buffer.byteLength(text.slice(0, blank + 2), 'utf8');
  return {
    text: `${plain(method)} ${plain(url)}`,
    type: 'http-request',
    children: [
      child('method', { text: plain(method), type: 'text' }),
      child('url', { text: quote(url), type: 'text' }),
      child('headers', { text: `${headers.length} headers`, type: 'headers', children: headers }),
      child('body', bytesValue(key.subarray(bodyStart))),
    ],
  };
}

export function httpResultValue(data: Uint8Array): DecodedValue {
  const status = readWord(data, 0);
  const headLength = readWord(data, 8);
  if (status === undefined || headLength === undefined || headLength < 0n || headLength > BigInt(data.length - 16)) {
    return malformed('not word status, string head, string body', data);
  }
  const headEnd = 16 + Number(headLength);
  const bodyLength = readWord(data, headEnd);
  if (bodyLength === undefined || bodyLength !== BigInt(data.length - headEnd - 8)) {
    return malformed('the body length does not match the bytes that remain', data);
  }
  const head = looseText(data.subarray(16, headEnd));
  const body = data.subarray(headEnd + 8);
  const statusLine = head.split(/\r?\n/)[0] ?? '';
  const reason = statusLine.split(' ').slice(2).join(' ');
  const headers = head.split(/\r?\n/).slice(1).filter((l) => l !== '').map((l) => {
    const colon = l.indexOf(':');
    return child(colon < 0 ? l : l.slice(0, colon), { text: quote(colon < 0 ? '' : l.slice(colon + 1).trim()), type: 'text' });
  });
  const b = bytesValue(body);
  return {
    text: `${status}${reason ? ` ${plain(reason)}` : ''}, body ${b.text}`,
    type: 'http',
    children: [
      child('status', { text: status.toString(), type: 'number' }),
      child('head', { text: quote(head), type: 'text', children: headers }),
      child('body', b),
    ],
  };
}
