// A panic with other goroutines' probe lines inside it, read apart. machin 0.137.0 writes a panic
// in pieces, without the lock its probe lines are printed under (codegen.go mfl_panic):
// `fputs("panic: ")`, `fputs(msg)`, `fputc('\n')`, then the location line; with `--json`,
// `{"panic":"`, the message one character at a time, the fields, the chain one goroutine at a time
// and `]}\n`. Each probe line is one write (mfl_rr_probe's fprintf), so whole probe lines of
// other goroutines can land between any two pieces: before the message, glued right after it (and
// then more whole lines before the panic's own newline, 20 and more seen under load), after that
// newline, and anywhere inside the JSON form. The message and every probe are read here, the
// probes in the order machin printed them.

import { isCount, isRecord, parseLooseJson } from './loose-json';
import type { ReplayPanic } from './machin-output';
import { matchAt, probeAt } from './probe-line';

/** machin's location line after a text panic. */
export const PANIC_WHERE = /^ {2}\((replay|record): goroutine (\S+), schedule op (\d+)\/(\d+)\)$/;

/**
 * How far past a panic's start its end is looked for (characters): the same bound for a whole
 * output and one read in chunks, so both read it the same.
 */
export const PANIC_SPAN = 1 << 20;

export type ProbeFields = [goroutine: string, name: string, value: string, op: number];

export interface PanicBlock {
  panic: ReplayPanic;
  /** The probes printed inside it, in order. */
  probes: ProbeFields[];
  /** Where the text after it starts. */
  next: number;
}

/**
 * The panic starting at `s` (a line that starts with `panic: ` or `{"panic":"`): null when no
 * panic of machin's form ends within PANIC_SPAN (its lines are then read as lines); 'more' when
 * its end may be in text not read yet (`final` false: more text is coming).
 */
export function readPanicBlock(text: string, s: number, final: boolean): PanicBlock | 'more' | null {
  const json = matchAt(text, s, '{"panic":"');
  const span = Math.min(text.length, s + PANIC_SPAN);
  for (let q = s; q < span; ) {
    const nl = text.indexOf('\n', q);
    if (nl < 0 && !final) break;
    const e = nl < 0 ? text.length : nl;
    const end = e > q && text.charCodeAt(e - 1) === 0x0d ? e - 1 : e;
    const next = nl < 0 ? text.length : nl + 1;
    const block = json ? jsonBlock(text, s, end) : q > s ? textBlock(text, s, q, end) : null;
    if (block) return { ...block, next };
    q = next;
  }
  return !final && text.length < s + PANIC_SPAN ? 'more' : null;
}

/** The text form, if the line [L, end) is its location line: what lies between is read apart. */
function textBlock(text: string, s: number, L: number, end: number): Omit<PanicBlock, 'next'> | null {
  if (!matchAt(text, L, '  (')) return null;
  const where = PANIC_WHERE.exec(text.slice(L, end));
  if (!where) return null;
  const body = textBody(text, s + 'panic: '.length, L);
  if (!body) return null;
  const panic: ReplayPanic = {
    message: body.message,
    goroutine: where[2],
    scheduleOp: Number(where[3]),
    scheduleTotal: Number(where[4]),
    causalChain: null,
    form: 'text',
  };
  return { panic, probes: body.probes };
}

/**
 * text[b, L) as machin wrote it: probes, the message, probes, the panic's newline, probes (each
 * probe whole, ending in its own newline). The message ends at the first place after which only
 * that can follow, so a message over several lines, or one that merely holds the word `probe`, is
 * kept whole.
 */
function textBody(text: string, b: number, L: number): { message: string; probes: ProbeFields[] } | null {
  const probes: ProbeFields[] = [];
  const probesFrom = (p: number) => {
    for (let n = probeBefore(text, p, L, probes); n >= 0; n = probeBefore(text, p, L, probes)) p = n;
    return p;
  };
  const c = probesFrom(b);
  const before = probes.length;
  for (let e = c; e < L; e++) {
    const code = text.charCodeAt(e);
    if (code !== 0x0a && code !== 0x0d && code !== 0x70 /* p */) continue;
    probes.length = before;
    let p = probesFrom(e);
    const newline = newlineAt(text, p);
    if (newline === 0) continue;
    p = probesFrom(p + newline);
    if (p === L) return { message: text.slice(c, e), probes };
  }
  return null;
}

/**
 * The JSON form, if it ends at `end` (a line ending in `]}`): parsed as printed, else with every
 * whole probe inside it taken out.
 */
function jsonBlock(text: string, s: number, end: number): Omit<PanicBlock, 'next'> | null {
  if (!(text.charCodeAt(end - 1) === 0x7d && text.charCodeAt(end - 2) === 0x5d)) return null;
  const printed = jsonPanic(text.slice(s, end));
  if (printed) return { panic: printed, probes: [] };
  const probes: ProbeFields[] = [];
  const pieces: string[] = [];
  let from = s;
  for (let k = text.indexOf('probe ', s); k >= 0 && k < end; k = text.indexOf('probe ', k)) {
    const next = probeBefore(text, k, end, probes);
    if (next < 0) {
      k++;
      continue;
    }
    pieces.push(text.slice(from, k));
    from = k = next;
  }
  if (probes.length === 0) return null;
  pieces.push(text.slice(from, end));
  const panic = jsonPanic(pieces.join(''));
  return panic ? { panic, probes } : null;
}

/** `{"panic":MSG,"goroutine":G,"scheduleOp":P,"scheduleTotal":N,"causalChain":[...]}`, or null. */
export function jsonPanic(text: string): ReplayPanic | null {
  const value = parseLooseJson(text);
  if (!isRecord(value)) return null;
  const { panic, goroutine, scheduleOp, scheduleTotal, causalChain } = value;
  if (
    typeof panic !== 'string' ||
    typeof goroutine !== 'string' ||
    !isCount(scheduleOp) ||
    !isCount(scheduleTotal) ||
    !Array.isArray(causalChain) ||
    !causalChain.every((g) => typeof g === 'string')
  ) {
    return null;
  }
  return { message: panic, goroutine, scheduleOp, scheduleTotal, causalChain: causalChain as string[], form: 'json' };
}

/** A whole probe at p that ends (its newline included) at or before `limit`: added, and where it ends; else -1. */
function probeBefore(text: string, p: number, limit: number, probes: ProbeFields[]): number {
  if (!matchAt(text, p, 'probe ')) return -1;
  const nl = text.indexOf('\n', p);
  if (nl < 0 || nl >= limit) return -1;
  const end = nl > p && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
  let found = null as ProbeFields | null;
  const next = probeAt(text, p, end, (g, n, v, op) => (found = [g, n, v, op]));
  if (next < 0 || next > limit || !found) return -1;
  probes.push(found);
  return next;
}

/** The length of the newline at p (1, or 2 for CR LF), 0 for none. */
function newlineAt(text: string, p: number): number {
  const c = text.charCodeAt(p);
  if (c === 0x0a) return 1;
  return c === 0x0d && text.charCodeAt(p + 1) === 0x0a ? 2 : 0;
}
