// A deliberately plain reading of formats/mflrr.md and docs/cli.md ("How a trace is read"), line
// by line on a string, as the oracle for the streaming reader. Shares no code with it.

export interface RefRecord {
  kind: 'sched' | 'io';
  id: string;
  hex: string;
  line: number;
}

export interface RefRead {
  records: RefRecord[];
  program: string | null;
  cutLine: number | null;
  error?: { line: number | undefined; why: string };
}

const ID = /^0(\.[1-9][0-9]{0,9})*$/;
const HEX = /^([0-9a-fA-F]{2})*$/;

export function referenceRead(text: string): RefRead {
  const out: RefRead = { records: [], program: null, cutLine: null };
  if (text.length === 0) return { ...out, error: { line: undefined, why: 'empty' } };
  if (!text.startsWith('MFLRR'.slice(0, Math.min(5, text.length)))) return { ...out, error: { line: undefined, why: 'not a trace' } };
  const lines = text.split('\n');
  const cut = lines.pop() ?? '';
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const l = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const fail = (why: string): RefRead => ({ ...out, error: { line: n, why } });
    if (n === 1) {
      if (l !== 'MFLRR 1') return fail('magic');
      continue;
    }
    if (l === '') continue;
    const sp = l.indexOf(' ');
    const tag = sp < 0 ? l : l.slice(0, sp);
    const rest = sp < 0 ? '' : l.slice(sp + 1);
    if (tag === 'boundary' || tag === 'program' || tag === 'safe') {
      if (out.records.length > 0 || seen.has(tag)) return fail('header');
      seen.add(tag);
      if (tag === 'program') out.program = rest;
      continue;
    }
    if (tag === 'S' && sp >= 0) {
      if (!ID.test(rest)) return fail('S id');
      out.records.push({ kind: 'sched', id: rest, hex: '', line: n });
      continue;
    }
    if (tag === 'I' && sp >= 0) {
      const sp2 = rest.indexOf(' ');
      const g = sp2 < 0 ? rest : rest.slice(0, sp2);
      const h = sp2 < 0 ? '' : rest.slice(sp2 + 1);
      if (!ID.test(g)) return fail('I id');
      if (!HEX.test(h)) return fail('hex');
      out.records.push({ kind: 'io', id: g, hex: h.toLowerCase(), line: n });
      continue;
    }
    return fail('tag');
  }
  if (cut !== '') {
    const n = lines.length + 1;
    const c = cut.endsWith('\r') ? cut.slice(0, -1) : cut;
    if (n === 1) return { ...out, error: { line: 1, why: 'cut magic' } };
    // A cut line is ignored when a valid line can start with it.
    const plausible = /^S( [0-9.]*)?$/.test(c) || /^I( [0-9.]*( [0-9a-fA-F]*)?)?$/.test(c);
    if (!plausible) return { ...out, error: { line: n, why: 'cut garbage' } };
    out.cutLine = n;
  }
  return out;
}
