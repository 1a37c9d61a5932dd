// The failure signature that puts capsules of the same bug in one group: the status, the panic
// message with its numbers and ids masked (so "index 3" and "index 7" are one panic), the route
// (method and path, query arguments kept by name only, path segments that are numbers, UUIDs or long
// hex ids as `{id}`: `POST /checkout/137` and `/checkout/174` are one route) and the kind of the
// first failing effect with its key templated the same way.

/** What a group of capsules has in common. */
export interface FailureSignature {
  status: number | null;
  /** The panic message masked; '' when there was no panic. */
  panic: string;
  /** `METHOD /path/{id}?name=&other=`: the path templated (templateRoute), query values dropped. */
  route: string;
  /**
   * The kind of the first effect that ended in a fault; null when none did. `undefined` when it
   * cannot be known without opening the body (a version 2 capsule, summarised from its plain text).
   */
  faultKind: string | null | undefined;
  /** That effect's key templated (templateKey: `3:GET {id}:cart:{id}`); null/undefined as faultKind. Absent in older indexes. */
  faultKey?: string | null;
}

// Ids first (they contain digits), then every remaining run of digits.
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_PREFIXED = /\b0x[0-9a-f]+\b/gi;
/** A run of 8 or more hex digits with at least one digit in it: a hash, a trace id, a handle. */
const HEX_ID = /\b(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b/gi;
const DIGITS = /\d+/g;

/** The panic message with numbers (`<n>`) and ids (`<id>`) masked. */
export function maskPanic(message: string): string {
  return message.replace(UUID, '<id>').replace(HEX_PREFIXED, '<id>').replace(HEX_ID, '<id>').replace(DIGITS, '<n>');
}

const WHOLE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHOLE_HEX_ID = /^(?=[0-9a-f]*[0-9])[0-9a-f]{8,}$/i;

/** A path with each segment that is a number, a UUID or a long hex id as `{id}`: `/checkout/{id}/items`. */
export function templatePath(path: string): string {
  return path
    .split('/')
    .map((seg) => (/^\d+$/.test(seg) || WHOLE_UUID.test(seg) || WHOLE_HEX_ID.test(seg) ? '{id}' : seg))
    .join('/');
}

/** An effect key with its ids and numbers as `{id}` (`3:GET 8:cart:137` and `3:GET 8:cart:174` are one key), on one line. */
export function templateKey(key: string): string {
  return key.trim().replace(UUID, '{id}').replace(HEX_PREFIXED, '{id}').replace(HEX_ID, '{id}').replace(DIGITS, '{id}').replace(/\r?\n/g, '⏎');
}

/** `METHOD target` templated: path ids as `{id}` (templatePath), every query value dropped: `GET /search?q=&page=`. */
export function routeOf(method: string, target: string): string {
  const q = target.indexOf('?');
  let path = templatePath(q >= 0 ? target.slice(0, q) : target);
  if (q >= 0) {
    const names = target
      .slice(q + 1)
      .split('&')
      .filter((p) => p !== '')
      .map((p) => {
        const eq = p.indexOf('=');
        return `${eq < 0 ? p : p.slice(0, eq)}=`;
      });
    path = `${path}${names.length ? `?${names.join('&')}` : ''}`;
  }
  return `${method} ${path}`.trim();
}

/** A stable key of a signature (groups are keyed by it). */
export function signatureKey(s: FailureSignature): string {
  return JSON.stringify([s.status, s.panic, s.route, s.faultKind === undefined ? '?' : s.faultKind, s.faultKey ?? null]);
}

/** One line for people: `500 GET /orders/9 · panic "…" · first fault redis@1`. */
export function describeSignature(s: FailureSignature): string {
  const parts = [`${s.status ?? '?'} ${s.route || '(no request line)'}`];
  if (s.panic) parts.push(`panic "${s.panic}"`);
  parts.push(s.faultKind === undefined ? 'first fault unknown (version 2, sealed)' : s.faultKind === null ? 'no failing effect' : `first fault ${s.faultKind}${s.faultKey ? ` ${s.faultKey}` : ''}`);
  return parts.join(' · ');
}
