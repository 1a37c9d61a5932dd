// The recorded request (HTTP/1.1 text as received, secret header values replaced by handles):
// method, target, version, headers with secret handles marked, query arguments, body.
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, looseText, plain, quote } from './bytes-text';
import { longList } from './long-list';

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
  /** The first MAX_REQUEST_HEADERS headers (all of them in any usual request); headerCount says how many there are. */
  headers: HeaderField[];
  headerCount: number;
  /** Header i of all headerCount (0-based), made when asked. */
  header(i: number): HeaderField;
  query: HeaderField[];
  body: Uint8Array;
  /** Why the text is not a well-formed HTTP/1.1 request, when it is not (it is still shown raw). */
  problem?: string;
}

/** Headers made up front; a request with more (millions, in an attack) has the rest made when asked. */
export const MAX_REQUEST_HEADERS = 1000;

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
  const head = headEnd < 0 ? raw : raw.subarray(0, headEnd);
  const body = headEnd < 0 ? new Uint8Array(0) : raw.subarray(headEnd + sep);
  const lines = lineStarts(head);
  const line = (i: number) => looseText(head.subarray(lines[i], lineEnd(lines, head, i)));
  const [method = '', target = '', version = ''] = line(0).split(' ');
  // Header lines: every line after the first that is not empty.
  const headerLine: number[] = [];
  let headerCount = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lineEnd(lines, head, i) === lines[i]) continue;
    if (headerLine.length < MAX_REQUEST_HEADERS) headerLine.push(i);
    headerCount++;
  }
  let allHeaderLines: Uint32Array | undefined;
  const headerAt = (i: number): number => {
    if (i < headerLine.length) return headerLine[i];
    allHeaderLines ??= nonEmptyLines(lines, head);
    return allHeaderLines[i];
  };
  const header = (i: number): HeaderField => headerField(line(headerAt(i)));
  return {
    method,
    target,
    version,
    headers: headerLine.map((l) => headerField(line(l))),
    headerCount,
    header,
    query: parseQuery(target),
    body,
    problem: problem ?? (version.startsWith('HTTP/') ? undefined : 'the first line is not `METHOD TARGET HTTP/x.y`'),
  };
}

function headerField(text: string): HeaderField {
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const value = colon < 0 ? '' : text.slice(colon + 1).trim();
  return { name, value, secret: isSecretHandle(value) };
}

/** Where each line of `head` starts (lines end at LF; a CR before it is not part of the line). */
function lineStarts(head: Uint8Array): Uint32Array {
  let n = 1;
  for (let i = 0; i < head.length; i++) if (head[i] === 0x0a) n++;
  const starts = new Uint32Array(n);
  let k = 1;
  for (let i = 0; i < head.length; i++) if (head[i] === 0x0a) starts[k++] = i + 1;
  return starts;
}

/** Where line i ends: before its LF, and before a CR ending it. */
function lineEnd(lines: Uint32Array, head: Uint8Array, i: number): number {
  let end = i + 1 < lines.length ? lines[i + 1] - 1 : head.length;
  if (end > lines[i] && head[end - 1] === 0x0d) end--;
  return end;
}

/** The lines after the first that hold something (the header lines). */
function nonEmptyLines(lines: Uint32Array, head: Uint8Array): Uint32Array {
  const out = new Uint32Array(lines.length);
  let n = 0;
  for (let i = 1; i < lines.length; i++) if (lineEnd(lines, head, i) > lines[i]) out[n++] = i;
  return out.subarray(0, n);
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
      text: `${p.headerCount.toLocaleString('en')} headers${p.headers.some((h) => h.secret) ? ', secrets as handles' : ''}`,
      type: 'headers',
      ...longList(p.headerCount, (i) => {
        const h = p.header(i);
        return child(h.name, fieldValue(h));
      }),
    }),
  ];
  if (p.query.length) {
    children.push(child('query', { text: `${p.query.length} arguments`, type: 'query', children: p.query.map((h) => child(h.name, fieldValue(h))) }));
  }
  children.push(child('body', bytesValue(p.body)));
  if (p.problem) children.push(child('problem', { text: p.problem, type: 'malformed' }));
  return { text: plain(`${p.method} ${p.target} ${p.version}`.trim()), type: 'request', children };
}
