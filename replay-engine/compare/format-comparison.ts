// A comparison as a few lines for a human (the CLI without --json, the extension's messages).
import type { Comparison, DivergenceSide } from './compare-recordings';
import { FORMAT_TRAITS } from '../model/format-traits';
import { baseName } from './same-program';


export function threadName(id: string | null, label: string | null): string {
  if (id === null) return '(nothing: the run has ended)';
  // A label that repeats the id (`task 1` for task 1) adds nothing.
  return label && !label.split(' ').includes(id) ? `${id} (${label})` : id;
}

function where(c: Comparison, s: DivergenceSide): string {
  const u = FORMAT_TRAITS[c.format].units;
  if (s.record === null) {
    return c.firstDivergence?.cause === 'io' ? `has no such read (after ${s.op} ${u.step}s)` : `has ended after ${s.op} ${u.step}s`;
  }
  const who = `${u.thread} ${threadName(s.thread, s.threadLabel)}`;
  // A schedule op is fully said by its goroutine; an effect or I/O line needs its summary.
  return s.kind === 'sched' ? `runs ${who} at line ${s.line}` : `${who}, line ${s.line}: ${s.summary ?? s.kind}`;
}

function clip(text: string | null, max = 60): string {
  if (text === null) return '(none)';
  const t = JSON.stringify(text);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The one-sentence answer: where the two runs part, or that they do not. */
export function divergenceSentence(c: Comparison): string {
  const u = FORMAT_TRAITS[c.format].units;
  const a = baseName(c.files.a);
  const b = baseName(c.files.b);
  const d = c.firstDivergence;
  if (!d) {
    if (c.identical) return `${a} and ${b} are the same run (${c.ops.a} ${u.step}s).`;
    return `${a} and ${b} take the same ${FORMAT_TRAITS[c.format].sequence} (${c.ops.a} ${u.step}s); only values differ.`;
  }
  const what = d.cause === 'schedule' ? 'schedules part' : d.cause === 'effect' ? 'effects part' : 'I/O parts';
  return `The ${what} at ${u.step} ${d.a.op}: ${a} ${where(c, d.a)}; ${b} ${where(c, d.b)}.`;
}

export function formatComparison(c: Comparison): string {
  const u = FORMAT_TRAITS[c.format].units;
  const a = baseName(c.files.a);
  const b = baseName(c.files.b);
  const program = baseName(c.program.a || c.program.b) || '(unnamed program)';
  const details = detailLines(c);
  const rows = c.threads.map((t) => [threadName(t.id, t.label), String(t.a), String(t.b)]);
  let w = u.threads.length; // a loop, not Math.max(...): there can be more threads than a call has arguments
  for (const r of rows) w = Math.max(w, r[0].length);
  const table = [`${u.threads.padEnd(w)}  ${'A'.padStart(7)}  ${'B'.padStart(7)}`];
  for (const [name, na, nb] of rows.slice(0, 12)) table.push(`${name.padEnd(w)}  ${na.padStart(7)}  ${nb.padStart(7)}${na !== nb ? '  *' : ''}`);
  if (rows.length > 12) table.push(`... ${rows.length - 12} more`);
  return [`compare ${a} (A) with ${b} (B): runs of ${program}`, divergenceSentence(c), details[0], ...table, ...details.slice(1)]
    .map((l, i) => (i === 0 ? l : `  ${l}`))
    .join('\n');
}

/** The facts under the headline, one per line: common prefix, values, variables, alignment, warnings. */
export function detailLines(c: Comparison): string[] {
  const u = FORMAT_TRAITS[c.format].units;
  const lines: string[] = [];
  lines.push(`common prefix: ${c.commonPrefix.ops} ${u.step}s (${c.commonPrefix.records} records); ${u.step}s: A ${c.ops.a}, B ${c.ops.b}`);
  const v = c.firstValueDifference;
  // Where a format has I/O queues (a trace's reads), they (below) say it better than pairs inside the alignment.
  if (v && FORMAT_TRAITS[c.format].otherRecord === null) {
    lines.push(
      `effect results that differ: ${c.valueDifferences.total}; first: ${u.thread} ${v.thread} ${v.kind} at ${u.step} ${v.a.op}: A ${clip(v.a.value)}, B ${clip(v.b.value)}`,
    );
  }
  const q = c.ioQueues[0];
  if (q) {
    const at = (r: typeof q.a) => (r ? `${clip(r.value)} at op ${r.op}` : '(no such read)');
    lines.push(
      `I/O queues that differ: ${c.ioQueues.length} goroutine(s); first: ${threadName(q.thread, q.threadLabel)}, read ${q.read}: A ${at(q.a)}, B ${at(q.b)}`,
    );
  }
  const h = c.firstVariableDifference;
  if (h) {
    lines.push(
      `first variable that differs: ${h.name} on ${u.thread} ${threadName(h.thread, h.threadLabel)}, assignment ${h.assignment}: ` +
        `A ${clip(h.a.value)}${h.a.op !== null ? ` at ${u.step} ${h.a.op}` : ''}, B ${clip(h.b.value)}${h.b.op !== null ? ` at ${u.step} ${h.b.op}` : ''}`,
    );
  } else if (FORMAT_TRAITS[c.format].toolchain !== null && !(c.histories.a && c.histories.b)) {
    lines.push(`variables: not compared (needs ${FORMAT_TRAITS[c.format].toolchain} value histories for both runs)`);
  }
  const places = c.alignment.hunks === 1 ? '1 place differs' : `${c.alignment.hunks} places differ`;
  lines.push(`alignment: ${places}; unmatched records: A ${c.alignment.unmatched.a}, B ${c.alignment.unmatched.b}`);
  for (const warning of c.warnings) lines.push(`warning: ${warning}`);
  return lines;
}
