// The recorded request (HTTP/1.1 text as received, secret header values replaced by handles):
// method, target, version, headers with secret handles marked, query arguments, body.
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, looseText, plain, quote } from './bytes-text';

export const SECRET_HANDLE_PREFIX = 'tin-secret:';

export interface HeaderField {
  name: string;
  value: string;
  /** The value is a secret handle (`tin-secret:` + 32 hex digits), not the secret. */
  secret: boolean;
}

export interface RequestParts {
  method: string;
  target: string;
  version: string;
  headers: HeaderField[];
  query: HeaderField[];
  body: Uint8Array;
  /** Why the text is not a well-formed HTTP/1.1 request, when it is not (it is still shown raw). */
  problem?: string;
}

export function isSecretHandle(value: string): boolean {
  return value.startsWith(SECRET_HANDLE_PREFIX);
}

function indexOfBytes(data: Uint8Array, pattern: number[], from = 0): number {
  outer: for (let i = from; i + pattern.length <= data.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (data[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

export function parseRequest(raw: Uint8Array): RequestParts {
  let headEnd = indexOfBytes(raw, [13, 10, 13, 10]);
  let sep = 4;
  if (headEnd < 0) {
    headEnd = indexOfBytes(raw, [10, 10]);
    sep = 2;
  }
  const problem = headEnd < 0 ? 'no blank line after the headers (the request is cut or not HTTP/1.1)' : undefined;
  const head = looseText(headEnd < 0 ? raw : raw.subarray(0, headEnd));
  const body = headEnd < 0 ? new Uint8Array(0) : raw.subarray(headEnd + sep);
  const lines = head.split(/\r?\n/);
  const [method = '', target = '', version = ''] = (lines[0] ?? '').split(' ');
  const headers: HeaderField[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    headers.push({ name, value, secret: isSecretHandle(value) });
  }
  return { method, target, version, headers, query: parseQuery(target), body, problem: problem ?? (version.startsWith('HTTP/') ? undefined : 'the first line is not `METHOD TARGET HTTP/x.y`') };
}

function parseQuery(target: string): HeaderField[] {
  const q = target.indexOf('?');
  if (q < 0) return [];
  return target
    .slice(q + 1)
    .split('&')
    .filter((s) => s !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '' : safeDecode(pair.slice(eq + 1));
      return { name, value, secret: isSecretHandle(value) };
    });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function fieldValue(f: HeaderField): DecodedValue {
  return f.secret
    ? { text: `${f.value} (secret handle: the value is not in the capsule)`, type: 'secret' }
    : { text: quote(f.value), type: 'text' };
}

export function requestValue(raw: Uint8Array): DecodedValue {
  const p = parseRequest(raw);
  const children = [
    child('method', { text: plain(p.method), type: 'text' }),
    child('target', { text: quote(p.target), type: 'text' }),
    child('version', { text: plain(p.version), type: 'text' }),
    child('headers', {
      text: `${p.headers.length} headers${p.headers.some((h) => h.secret) ? ', secrets as handles' : ''}`,
      type: 'headers',
      children: p.headers.map((h) => child(h.name, fieldValue(h))),
    }),
  ];
  if (p.query.length) {
    children.push(child('query', { text: `${p.query.length} arguments`, type: 'query', children: p.query.map((h) => child(h.name, fieldValue(h))) }));
  }
  children.push(child('body', bytesValue(p.body)));
  if (p.problem) children.push(child('problem', { text: p.problem, type: 'malformed' }));
  return { text: plain(`${p.method} ${p.target} ${p.version}`.trim()), type: 'request', children };
}
