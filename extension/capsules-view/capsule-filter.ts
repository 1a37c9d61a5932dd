// The Capsules view's quick filter, a line of terms that must all match:
//   words            text in the route, panic, first fault, peer, file name or status
//   status:504       that status; status:5xx a class; status:500,504 either
//   since:TIME       at or after TIME: an ISO date (2025-12-01, 2025-12-01T10:30) in UTC, or a
//   until:TIME       duration back from the newest capsule of the spool (30m, 2h, 7d)
// No vscode here: the view and the tests share it.
import type { SpoolCapsule } from '../../replay-engine/tcap/spool/capsule-summary';

export interface CapsuleFilter {
  text: string[];
  statuses: Array<(s: number | null) => boolean>;
  since?: TimeBound;
  until?: TimeBound;
}

type TimeBound = { at: bigint } | { back: bigint };

const UNIT_NS: Record<string, bigint> = { s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n, d: 86_400_000_000_000n };

export class FilterError extends Error {}

export function parseFilter(line: string): CapsuleFilter {
  const f: CapsuleFilter = { text: [], statuses: [] };
  for (const term of line.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(status|since|until):(.*)$/i.exec(term);
    if (!m) {
      f.text.push(term.toLowerCase());
      continue;
    }
    const [, name, value] = m;
    if (name.toLowerCase() === 'status') f.statuses.push(statusTest(value));
    else f[name.toLowerCase() as 'since' | 'until'] = timeBound(value, name);
  }
  return f;
}

function statusTest(value: string): (s: number | null) => boolean {
  const tests = value.split(',').filter(Boolean).map((v) => {
    if (/^\d{3}$/.test(v)) return (s: number | null) => s === Number(v);
    if (/^\dxx$/i.test(v)) return (s: number | null) => s !== null && Math.floor(s / 100) === Number(v[0]);
    throw new FilterError(`status:${value}: give a status (504), a class (5xx) or several (500,504)`);
  });
  if (tests.length === 0) throw new FilterError('status: needs a value, as in status:504 or status:5xx');
  return (s) => tests.some((t) => t(s));
}

function timeBound(value: string, name: string): TimeBound {
  const d = /^(\d+)([smhd])$/i.exec(value);
  if (d) return { back: BigInt(d[1]) * UNIT_NS[d[2].toLowerCase()] };
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?Z?$/.test(value) ? Date.parse(value.endsWith('Z') ? value : `${value}${value.includes('T') ? 'Z' : 'T00:00Z'}`) : NaN;
  if (Number.isNaN(iso)) throw new FilterError(`${name}:${value}: give a UTC date (2025-12-01 or 2025-12-01T10:30) or a time back from the newest capsule (30m, 2h, 7d)`);
  return { at: BigInt(iso) * 1_000_000n };
}

export function isEmptyFilter(f: CapsuleFilter): boolean {
  return f.text.length === 0 && f.statuses.length === 0 && !f.since && !f.until;
}

/** A test for one capsule; `newest` is the spool's newest wall clock (for durations). */
export function capsuleMatcher(f: CapsuleFilter, newest: bigint | null): (c: SpoolCapsule) => boolean {
  const bound = (b: TimeBound | undefined): bigint | undefined => (b === undefined ? undefined : 'at' in b ? b.at : newest === null ? undefined : newest - b.back);
  const since = bound(f.since);
  const until = bound(f.until);
  return (c) => {
    if (since !== undefined && (c.wall === null || c.wall < since)) return false;
    if (until !== undefined && (c.wall === null || c.wall > until)) return false;
    const status = c.readable ? c.status : null;
    if (f.statuses.length && !f.statuses.every((t) => t(status))) return false;
    if (f.text.length === 0) return true;
    const hay = (
      c.readable
        ? [c.name, c.status, `${c.method} ${c.target}`, c.panic, c.firstFault?.kind, c.firstFault?.message, c.peer]
        : [c.name, c.reason, 'unreadable']
    ).join('\n').toLowerCase();
    return f.text.every((t) => hay.includes(t));
  };
}
