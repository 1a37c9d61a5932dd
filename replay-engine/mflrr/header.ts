// The `.mflrr` header (formats/mflrr.md): `MFLRR 1`, then `boundary`, `program`, `safe` lines
// before the first record. Parsed on the reader's slow path, one line at a time.
import type { HeaderFact } from '../model/timeline';

export type Boundary = 'faithful' | 'best-effort';

export interface MflrrHeader {
  version: number;
  /** null when the trace has no `boundary` line. */
  boundary: Boundary | null;
  /** The source file the recording ran (a path on the recording machine); null when missing. */
  program: string | null;
  /** Built with `--safe`; null when the trace has no `safe` line. */
  safe: boolean | null;
}

export const HEADER_KEYWORDS = ['boundary', 'program', 'safe'] as const;
export type HeaderKeyword = (typeof HEADER_KEYWORDS)[number];

/** The only format version that exists (machin 0.137.0). */
export const MFLRR_VERSION = 1;

export function headerFacts(h: MflrrHeader, scheduleTotal: number, ioTotal: number): HeaderFact[] {
  return [
    { key: 'program', label: 'Program', value: h.program ?? '(none: replay impossible)' },
    { key: 'boundary', label: 'Boundary', value: h.boundary ?? '(unknown)' },
    { key: 'safe', label: 'Safe build', value: h.safe === null ? '(unknown)' : h.safe ? 'yes (--safe)' : 'no' },
    { key: 'version', label: 'Format', value: `MFLRR ${h.version}` },
    { key: 'scheduleTotal', label: 'Schedule ops', value: String(scheduleTotal) },
    { key: 'ioTotal', label: 'I/O records', value: String(ioTotal) },
  ];
}
