// Decodes the bytes of one `I` record for humans. A trace does not say which call produced an I/O
// value (clock, stdin, read_file, a select case...), so anything beyond "text" or "hex" is an
// interpretation and is labelled as one.
import type { DecodedValue } from '../model/recording';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Clock readings between 2000-01-01 and 2100-01-01 are plausible dates. */
const MIN_SECONDS = 946_684_800;
const MAX_SECONDS = 4_102_444_800;
/** A select case index is a small decimal; bigger numbers are not read as one. */
const MAX_SELECT_CASE = 255;

/**
 * How many records back a reader looks for the goroutine's previous record to tell whether an
 * I/O record follows its own step (followsOwnStep): MflrrRecording.describe and the language
 * server's trace index use this one number, so that they read a select case the same way.
 */
export const SELECT_LOOKBACK = 100_000;

export interface IoContext {
  /** The same goroutine's previous record is an `S` (a `select` logs its case right after its turn). */
  followsOwnStep: boolean;
  /**
   * At source level, what did that op: the `select` at this place (then the value is its case), or
   * `false`, a statement that is no select (then it is no case). Undefined: not known (a guess).
   */
  select?: { place: string } | false;
}

export function decodeIo(bytes: Uint8Array, ctx: IoContext): DecodedValue {
  const hex = toHex(bytes);
  const text = utf8(bytes);
  const base: Array<{ name: string; value: DecodedValue }> = [];
  if (text !== undefined) base.push({ name: 'text', value: { text: quote(text), type: 'text' } });
  base.push({ name: 'hex', value: { text: hex === '' ? '(empty)' : hex, type: 'hex' } });
  base.push({ name: 'bytes', value: { text: String(bytes.length), type: 'number' } });

  if (bytes.length === 0) return { text: '"" (empty)', type: 'empty', children: base };
  if (text !== undefined && /^-?(0|[1-9][0-9]*)$/.test(text)) {
    return { ...decimal(text, ctx), children: [...interpretations(text, ctx), ...base] };
  }
  if (text !== undefined && isPrintable(text)) return { text: quote(text), type: 'text', children: base };
  return { text: hex, type: 'hex', children: base };
}

/** Whether a decimal may be a select's case: after the goroutine's own op, small, and not known to follow another statement. */
function maybeCase(n: number, ctx: IoContext): boolean {
  return ctx.followsOwnStep && ctx.select !== false && n >= 0 && n <= MAX_SELECT_CASE;
}

function decimal(text: string, ctx: IoContext): DecodedValue {
  const n = Number(text);
  if (maybeCase(n, ctx)) {
    // Known to follow a select (source level): its case, without a question mark.
    return { text: ctx.select ? `${text} (select case ${text}, ${ctx.select.place})` : `${text} (select case ${text}?)`, type: 'select' };
  }
  const time = clockReading(text);
  if (time) return { text: `${text} (${time.iso}, if ${time.unit})`, type: 'time' };
  return { text, type: 'number' };
}

function interpretations(text: string, ctx: IoContext): Array<{ name: string; value: DecodedValue }> {
  const out: Array<{ name: string; value: DecodedValue }> = [];
  const n = Number(text);
  if (maybeCase(n, ctx)) {
    const said = ctx.select ? `the \`select\` at ${ctx.select.place} took case ${text} (0-based)` : `${text}: if this goroutine's last op was a \`select\`, it took case ${text} (0-based)`;
    out.push({ name: 'select case', value: { text: said, type: 'select' } });
  }
  const time = clockReading(text);
  if (time) {
    out.push({ name: 'as a clock', value: { text: `${time.iso} if this is a \`${time.call}\` reading (${time.unit} since 1970)`, type: 'time' } });
  }
  out.push({ name: 'number', value: { text, type: 'number' } });
  return out;
}

interface ClockReading {
  iso: string;
  unit: string;
  call: string;
}

/** Reads a decimal as a Unix clock value when its magnitude fits one unit with a plausible date. */
export function clockReading(text: string): ClockReading | undefined {
  if (text.startsWith('-') || text.length < 10) return undefined;
  const n = BigInt(text);
  const units: Array<[bigint, string, string]> = [
    [1n, 'seconds', 'now'],
    [1_000n, 'milliseconds', 'now_ms'],
    [1_000_000n, 'microseconds', 'now'],
    [1_000_000_000n, 'nanoseconds', 'now'],
  ];
  for (const [per, unit, call] of units) {
    const seconds = n / per;
    if (seconds >= BigInt(MIN_SECONDS) && seconds < BigInt(MAX_SECONDS)) {
      const ms = Number((n * 1000n) / per);
      return { iso: new Date(ms).toISOString(), unit, call };
    }
  }
  return undefined;
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Text a human can read: no control characters other than tab, newline and carriage return. */
function isPrintable(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/.test(text);
}

/** Quoted with escapes for \n, \t, \r, quotes and other control characters. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return s;
}
