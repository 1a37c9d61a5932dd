// The failure signature that puts capsules of the same bug in one group: the status, the panic
// message with its numbers and ids masked (so "index 3" and "index 7" are one panic), the route
// (method and path, query arguments kept by name only) and the kind of the first failing effect.

/** What a group of capsules has in common. */
export interface FailureSignature {
  status: number | null;
  /** The panic message masked; '' when there was no panic. */
  panic: string;
  /** `METHOD /path?name=&other=`: the path as recorded, query values dropped. */
  route: string;
  /**
   * The kind of the first effect that ended in a fault; null when none did. `undefined` when it
   * cannot be known without opening the body (a version 2 capsule, summarised from its plain text).
   */
  faultKind: string | null | undefined;
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

/** `METHOD target` with every query value dropped: `GET /search?q=&page=`. */
export function routeOf(method: string, target: string): string {
  const q = target.indexOf('?');
  let path = target;
  if (q >= 0) {
    const names = target
      .slice(q + 1)
      .split('&')
      .filter((p) => p !== '')
      .map((p) => {
        const eq = p.indexOf('=');
        return `${eq < 0 ? p : p.slice(0, eq)}=`;
      });
    path = `${target.slice(0, q)}${names.length ? `?${names.join('&')}` : ''}`;
  }
  return `${method} ${path}`.trim();
}

/** A stable key of a signature (groups are keyed by it). */
export function signatureKey(s: FailureSignature): string {
  return JSON.stringify([s.status, s.panic, s.route, s.faultKind === undefined ? '?' : s.faultKind]);
}

/** One line for people: `500 GET /orders/9 · panic "…" · first fault redis@1`. */
export function describeSignature(s: FailureSignature): string {
  const parts = [`${s.status ?? '?'} ${s.route || '(no request line)'}`];
  if (s.panic) parts.push(`panic "${s.panic}"`);
  parts.push(s.faultKind === undefined ? 'first fault unknown (version 2, sealed)' : s.faultKind === null ? 'no failing effect' : `first fault ${s.faultKind}`);
  return parts.join(' · ');
}
