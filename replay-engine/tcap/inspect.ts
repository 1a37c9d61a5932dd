// `frozen-run inspect FILE.tcap`: the whole capsule as JSON (every field and effect, exact), or a
// short human summary (facts, the request line, effect counts by kind and by task).
//
// Words are exact: `wall` (~1.7e18 ns, beyond a double) is a string of its exact decimal digits,
// with `wallTime` its UTC date; other words are JSON numbers while they are safe integers, else
// strings of their digits. Texts that are not valid UTF-8 come with a `...Hex` twin.
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';
import { hex, printableText } from './decode/bytes-text';
import { isoFromNanos } from './decode/words';
import { JsonSequence, jsonText } from '../json-chunks';
import { effectWriter } from './effect-json/effect-writer';
import type { TcapRecording } from './tcap-recording';

/** Tasks listed one a line in the text summary; a capsule may have more than a terminal should scroll. */
const MAX_TASKS_SHOWN = 16;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function asCapsule(rec: Recording): TcapRecording {
  if (rec.format !== 'tcap') throw new RecordingError('usage', `${rec.timeline.file}: not a Tin capsule`);
  return rec as TcapRecording;
}

export function wordJson(w: bigint): number | string {
  return w >= BigInt(Number.MIN_SAFE_INTEGER) && w <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(w) : w.toString();
}

/** `{name: text}` plus `{nameHex: hex}` when the bytes are not valid UTF-8 (so nothing is lost). */
function textField(name: string, bytes: Uint8Array, alwaysHex = false): Record<string, string> {
  let text: string;
  let exact = true;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = Buffer.from(bytes).toString('utf8');
    exact = false;
  }
  return exact && !alwaysHex ? { [name]: text } : { [name]: text, [`${name}Hex`]: hex(bytes) };
}

/**
 * The capsule as a JSON document whose `effects` is a sequence: each effect's JSON is written
 * when its turn comes (writeJson), as bytes for the common kinds (effect-json/), so no
 * per-effect object outlives its line.
 */
export function capsuleInspectDocument(recording: Recording, withEffects = true): object {
  const rec = asCapsule(recording);
  const h = rec.header;
  const tl = rec.timeline;
  const req = rec.request;
  const bodyText = printableText(req.body);
  return {
    format: 'tcap',
    file: tl.file,
    envelope: rec.envelope,
    schema: h.schema,
    ...textField('tin', h.tin),
    ...textField('program', h.program),
    wall: h.wall.toString(),
    wallTime: isoFromNanos(h.wall),
    core: wordJson(h.core),
    status: wordJson(h.status),
    flags: wordJson(h.flags),
    panicked: rec.panicked,
    sampled: rec.sampled,
    request: {
      ...textField('raw', h.request, true),
      method: req.method,
      target: req.target,
      version: req.version,
      headerCount: req.headerCount,
      headers: new JsonSequence(req.headerCount, (i) => {
        const x = req.header(i);
        return JSON.stringify({ name: x.name, value: x.value, secret: x.secret });
      }),
      query: req.query.map((x) => ({ name: x.name, value: x.value, secret: x.secret })),
      body: bodyText ?? null,
      bodyHex: hex(req.body),
      ...(req.problem ? { problem: req.problem } : {}),
    },
    ...textField('panic', h.panic),
    ...(h.peer === null ? { peer: null } : textField('peer', h.peer)),
    threads: tl.threads.map((t) => ({ id: t.id, task: Number(t.id), label: t.label })),
    tasks: tl.threads.map((t) => Number(t.id)),
    effectCount: tl.recordCount,
    ...(withEffects ? { effects: new JsonSequence(tl.recordCount, effectJson(rec), effectWriter(rec)) } : {}),
    warnings: rec.warnings,
  };
}

/** The document as an object (every effect built unless `withEffects` is false): for small capsules, tests and the MCP summary. */
export function capsuleInspectJson(recording: Recording, withEffects = true): object {
  return JSON.parse(jsonText(capsuleInspectDocument(recording, withEffects))) as object;
}

/**
 * The JSON text of effect r, written field by field: the generic path, for every kind (the byte
 * writer, effect-json/effect-writer.ts, must give the same text; a test holds them together). The decoded key of an empty key is the same
 * for every effect of a kind, so it is made once per kind.
 */
export function effectJson(rec: TcapRecording): (r: number) => string {
  const tl = rec.timeline;
  const kindJson = tl.kinds.map((k) => JSON.stringify(k));
  const emptyKeyJson: Array<string | undefined> = [];
  return (r) => {
    const kind = tl.kind[r];
    const key = rec.key(r);
    const fault = rec.outcome(r) === 1;
    const d = rec.decodedOnce(r);
    let keyFields: string;
    let decodedKey: string;
    if (key.length === 0) {
      keyFields = '"key":""';
      decodedKey = emptyKeyJson[kind] ??= JSON.stringify(d.key);
    } else {
      keyFields = textFieldJson('key', key);
      decodedKey = JSON.stringify(d.key);
    }
    const outcome = fault ? 'fault' : 'result';
    return `{"seq":${r},"kind":${kindJson[kind]},${keyFields},"outcome":"${outcome}","ident":${rec.ident(r)},"thread":${rec.task(r)},"dataHex":"${hex(rec.data(r))}","decoded":{"key":${decodedKey},"${outcome}":${JSON.stringify(d.result)}}}`;
  };
}

/** textField's members as JSON text, without the braces. */
function textFieldJson(name: string, bytes: Uint8Array): string {
  const f = textField(name, bytes);
  const text = JSON.stringify(f);
  return text.slice(1, -1);
}

export function capsuleInspectText(recording: Recording): string {
  const rec = asCapsule(recording);
  const tl = rec.timeline;
  const lines = [`${tl.file}`];
  for (const f of tl.facts) lines.push(`  ${f.label}: ${f.value}`);
  // Counted by kind index and thread index (by the body scan, typed arrays), then named.
  const { byKind: kindCount, byThread: threadCount } = rec.effectCounts();
  const byKind = new Map<string, number>();
  const byTask = new Map<number, number>();
  for (let k = 0; k < kindCount.length; k++) if (kindCount[k] > 0) byKind.set(tl.kinds[k], kindCount[k]);
  for (let t = 0; t < threadCount.length; t++) if (threadCount[t] > 0) byTask.set(Number(tl.threads[t].id), threadCount[t]);
  if (byKind.size) {
    lines.push('  Effects by kind:');
    for (const [k, n] of [...byKind].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) lines.push(`    ${String(n).padStart(8)}  ${k}`);
    lines.push('  Effects by task:');
    const tasks = [...byTask].sort((a, b) => a[0] - b[0]);
    for (const [t, n] of tasks.slice(0, MAX_TASKS_SHOWN)) lines.push(`    ${String(n).padStart(8)}  task ${t}${t === 0 ? ' (request)' : ''}`);
    if (tasks.length > MAX_TASKS_SHOWN) lines.push(`    … and ${(tasks.length - MAX_TASKS_SHOWN).toLocaleString('en-US')} more tasks`);
  }
  if (rec.panic) lines.push(`  Panicked after effect ${tl.recordCount - 1} on task ${tl.threads[rec.panic.thread]?.id ?? '?'}: ${rec.panic.message}`);
  return `${lines.join('\n')}\n`;
}
