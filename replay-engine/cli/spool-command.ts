// `frozen-run spool DIR [--json]`: a spool's capsules in groups by failure signature, largest
// first, with count, first and last time and example capsules; the capsules that cannot be read,
// each with its reason. Exit as inspect: 0 the folder was read (unreadable capsules are listed,
// not fatal), 1 it cannot be, 2 usage. Progress goes to stderr when it is a terminal.
import { isoFromNanos } from '../tcap/decode/words';
import type { CapsuleSummary } from '../tcap/spool/capsule-summary';
import { describeSignature } from '../tcap/spool/signature';
import { groupSpool, type SpoolGroup, type SpoolGroups } from '../tcap/spool/spool-groups';
import { readSpool } from '../tcap/spool/spool-index';
import { parse, type Options } from './args';
import { capsuleLimitMB } from '../option-values';
import { UsageError } from '../model/errors';
import { printable, writeText } from './printable';

export const SPOOL_USAGE = `usage:
  frozen-run spool DIR [--key HEX | --key-file PATH] [--examples N] [--threads N] [--capsule-limit-mb N] [--json]
      the capsules of a Tin spool folder in groups (same status, panic with numbers and ids
      masked, route, first failing effect), largest first; unreadable capsules with the reason
      --threads 1 reads on one thread; default: worker threads for a large spool on 3+ cores
      --capsule-limit-mb N lists capsules over N MiB as unreadable, unread (default 1024)
      exit 0 the folder was read, 1 it cannot be, 2 usage`;

const OPTIONS: Options = {
  json: { type: 'boolean' },
  key: { type: 'string' },
  'key-file': { type: 'string' },
  examples: { type: 'string' },
  threads: { type: 'string' },
  'capsule-limit-mb': { type: 'string' },
};

const time = (w: bigint | null): string | null => (w === null ? null : isoFromNanos(w));

export async function runSpool(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, OPTIONS, { min: 1, max: 1, names: 'DIR' });
  if (values.key !== undefined && values['key-file'] !== undefined) throw new UsageError('give --key or --key-file, not both');
  const examples = values.examples === undefined ? 3 : Number(values.examples);
  if (!Number.isInteger(examples) || examples < 0) throw new UsageError(`--examples wants a count, got \`${String(values.examples)}\``);
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64)) throw new UsageError(`--threads wants 1 to 64, got \`${String(values.threads)}\``);
  const showProgress = values.json !== true && process.stderr.isTTY === true;
  const index = await groupSpool(
    readSpool(positionals[0], {
      keyHex: values.key as string | undefined,
      keyFile: values['key-file'] as string | undefined,
      env: process.env,
      threads,
      capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb']),
      onProgress: showProgress ? (p) => process.stderr.write(`\rfrozen-run: ${p.done}/${p.total} capsules, ${(p.bytes / 1e6).toFixed(1)} MB`) : undefined,
    }),
  );
  if (showProgress) process.stderr.write('\n');
  const folder = positionals[0];
  // Panics, routes and fault messages are the sender's text: made printable for a terminal (JSON stays exact).
  if (values.json === true) process.stdout.write(`${JSON.stringify(spoolJson(folder, index, examples), null, 2)}\n`);
  else writeText(process.stdout, spoolText(folder, index, examples));
  return 0;
}

function capsuleJson(c: CapsuleSummary): object {
  return {
    file: c.file,
    name: c.name,
    envelope: c.envelope,
    wall: c.wall?.toString() ?? null,
    wallTime: time(c.wall),
    core: c.core,
    status: c.status,
    panicked: c.panicked,
    panic: c.panic,
    method: c.method,
    target: c.target,
    peer: c.peer,
    effectCount: c.effectCount,
    firstFault: c.firstFault,
  };
}

function groupJson(g: SpoolGroup, examples: number): object {
  return {
    signature: { ...g.signature, faultKind: g.signature.faultKind === undefined ? 'unknown' : g.signature.faultKind },
    description: describeSignature(g.signature),
    count: g.count,
    first: g.first?.toString() ?? null,
    firstTime: time(g.first),
    last: g.last?.toString() ?? null,
    lastTime: time(g.last),
    examples: g.capsules.slice(0, examples).map(capsuleJson),
    capsules: g.capsules.map((c) => c.name),
  };
}

function spoolJson(folder: string, index: SpoolGroups, examples: number): object {
  const groups = index.groups();
  const unreadable = index.unreadable();
  return {
    folder,
    capsules: index.size,
    readable: index.size - unreadable.length,
    groups: groups.map((g) => groupJson(g, examples)),
    unreadable: unreadable.map((u) => ({ file: u.file, name: u.name, wall: u.wall?.toString() ?? null, wallTime: time(u.wall), code: u.code, reason: u.reason })),
  };
}

function spoolText(folder: string, index: SpoolGroups, examples: number): string {
  const groups = index.groups();
  const unreadable = index.unreadable();
  const lines = [`${nameText(folder)}: ${index.size} capsule${index.size === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'}${unreadable.length ? `, ${unreadable.length} unreadable` : ''}`];
  for (const g of groups) {
    lines.push('', `${String(g.count).padStart(6)}  ${describeSignature(g.signature)}`);
    lines.push(`        first ${time(g.first) ?? '?'}  last ${time(g.last) ?? '?'}`);
    for (const c of g.capsules.slice(0, examples)) {
      const fault = c.firstFault ? `  ${c.firstFault.kind} #${c.firstFault.seq}: ${oneLine(c.firstFault.message)}` : '';
      lines.push(`        ${nameText(c.name)}  ${c.method} ${c.target}${c.peer ? ` from ${c.peer}` : ''}${fault}`);
    }
    if (g.count > examples && examples > 0) lines.push(`        … and ${g.count - examples} more`);
  }
  if (unreadable.length) {
    lines.push('', `Unreadable (${unreadable.length}):`);
    // The engine's reason whole (its own messages are a few hundred characters), on one line.
    for (const u of unreadable) lines.push(`  ${nameText(u.name)}: ${oneLine(u.reason.startsWith(u.file) ? u.reason.slice(u.file.length + 2) : u.reason, REASON_CHARS)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A file or folder name on one line: a name may hold line breaks (a capsule named
 * `x\n     9  500 GET …` would print a forged group line), shown as `\n` and `\t`, the rest as printable() shows it.
 */
function nameText(s: string): string {
  return printable(s).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/** A reason is cut at this many characters; a recorded fault message at 160. */
const REASON_CHARS = 600;

function oneLine(s: string, max = 160): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
