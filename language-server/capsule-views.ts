// Hovers, inlay hints, outline, folding and lenses on a decoded capsule document.
import { InlayHintKind, SymbolKind, type CodeLens, type DocumentSymbol, type FoldingRange, type Hover, type InlayHint, type Range } from 'vscode-languageserver';
import type { CapsuleEffect, CapsuleIndex } from './capsule-index';
import { MAX_RECORD_LENSES, recordingLenses } from './code-lenses';
import { code, escapeMarkdown } from './markdown';
import type { PanicFacts, RunFactsStore } from './run-facts';
import { MAX_THREAD_SYMBOLS, childrenPerThread, foldRuns } from './trace-outline';
import { plural } from './trace-records';

/** What each effect kind asks of the outside world (formats/tcap.md). */
const KIND_MEANING: Record<string, string> = {
  'tide.now@1': 'monotonic clock reading',
  'tide.wall@1': 'wall clock reading',
  'dice.seed@1': "the request's random seed",
  'seal.random@1': 'random bytes',
  'wire.http@1': 'outgoing HTTP request',
  'wire.dial@1': 'socket connect',
  'wire.read@1': 'socket read',
  'wire.write@1': 'socket write',
  'redis@1': 'Redis command',
  'kafka@1': 'Kafka request',
  'mysql@1': 'MySQL query',
  'postgres@1': 'PostgreSQL query',
  'mysql.tx@1': 'MySQL transaction',
  'postgres.tx@1': 'PostgreSQL transaction',
  'websocket.dial@1': 'WebSocket connect',
  'websocket.read@1': 'WebSocket read',
  'websocket.write@1': 'WebSocket write',
  'quarry.read@1': 'file read',
  'quarry.write@1': 'file write',
  'quarry.stat@1': 'file stat',
  'quarry.dir@1': 'directory listing',
  'quarry.fs@1': 'file system change',
  'sched.select@1': 'select: which arm won',
  'sched.resume@1': 'task switch',
  'sched.cancel@1': 'cancellation at a boundary',
};

const FACT_MEANING: Record<string, string> = {
  Format: 'the capsule envelope (1: authenticated and encrypted with the replay key) and body schema (2 added the peer address).',
  Tin: 'the Tin version that recorded the request (`dev` for development builds).',
  Program: "the server's argv[0] when it recorded.",
  Started: 'the wall clock when the request started.',
  Core: 'the core that served the request.',
  Status: 'the response status: 500, or 504 after a panic. Capsules are written for status >= 500 or a panic, plus sampled requests.',
  Flags: 'bit 1: the handler panicked; bit 2: kept by sampling.',
  Request: 'the request as received (HTTP/1.1), secret header values replaced by handles (`tin-secret:...`): a key holder can test a candidate secret against a handle, never read it.',
  Peer: 'the client address (schema 2).',
  Panic: 'the panic message; the panic came after the last effect.',
  Effects: 'every effect the handler asked of the outside world, in the order they completed; `tin replay --against BUILD` answers each from the capsule.',
};

export function capsulePanic(uri: string, index: CapsuleIndex, facts: RunFactsStore): PanicFacts | undefined {
  const told = facts.panic(uri);
  if (told) return told;
  const message = index.fact('Panic')?.value;
  const flags = index.fact('Flags')?.value ?? '';
  if (message === undefined && !/\(panicked/.test(flags)) return undefined;
  const last = index.effects[index.effects.length - 1];
  // The engine's rule (TcapRecording): the panic follows every effect, on the last effect's task.
  return { position: index.effects.length, thread: String(last?.task ?? 0), message };
}

function taskName(uri: string, facts: RunFactsStore, task: number): string {
  const label = facts.label(uri, String(task), 'capsule');
  return label ? `task ${task} (${label})` : `task ${task}`;
}

function taskNameMarkdown(uri: string, facts: RunFactsStore, task: number): string {
  return escapeMarkdown(taskName(uri, facts, task));
}

export function capsuleHover(uri: string, index: CapsuleIndex, facts: RunFactsStore, line: number): Hover | null {
  const range = { start: { line, character: 0 }, end: { line, character: index.lineLength(line) } };
  const e = index.effectAtLine[line];
  if (e >= 0) return { contents: { kind: 'markdown', value: effectHover(uri, index, facts, index.effects[e], e) }, range };
  const fact = index.factAtLine(line);
  if (fact && FACT_MEANING[fact.label]) {
    return { contents: { kind: 'markdown', value: `**${fact.label}**: ${FACT_MEANING[fact.label]}\n\n${code(fact.value, 300)}` }, range };
  }
  const text = index.lineText(line);
  if (/^ {2}[^:]+: tin-secret:[0-9a-f]+ {3}\(secret handle\)$/.test(text)) {
    return { contents: { kind: 'markdown', value: '**Secret handle**: Tin stored this header value as `tin-secret:` + an HMAC of the text under the capsule key, never the text itself. With the key, Frozen Run can test whether a candidate text is the secret (Test a Secret...); nobody can read it back.' }, range };
  }
  return null;
}

function effectHover(uri: string, index: CapsuleIndex, facts: RunFactsStore, effect: CapsuleEffect, n: number): string {
  const total = index.effects.length;
  const lines = [
    `**Effect ${effect.seq}** of ${total.toLocaleString('en-US')} · ${taskNameMarkdown(uri, facts, effect.task)} · ${code(effect.kind, 80)}${KIND_MEANING[effect.kind] ? ` (${KIND_MEANING[effect.kind]})` : ''}`,
    '',
  ];
  if (effect.key) lines.push(`Asked: ${code(effect.key)}`, '');
  lines.push(`${effect.fault ? 'Fault' : 'Result'}: ${code(effect.result)}`);
  const panic = capsulePanic(uri, index, facts);
  if (panic) {
    lines.push('', n < panic.position
      ? `**Causal chain**: effect ${n + 1} of the ${panic.position} that led to the panic in ${taskNameMarkdown(uri, facts, Number(panic.thread))}${panic.message ? ` (${code(panic.message, 200)})` : ''}.`
      : '**After the panic**: replay never reaches this effect.');
  }
  return lines.join('\n');
}

export function capsuleInlayHints(uri: string, index: CapsuleIndex, facts: RunFactsStore, range: Range): InlayHint[] {
  const out: InlayHint[] = [];
  const last = Math.min(range.end.line, index.lines - 1, range.start.line + 5000);
  for (let line = Math.max(0, range.start.line); line <= last; line++) {
    const e = index.effectAtLine[line];
    if (e < 0) continue;
    const effect = index.effects[e];
    const meaning = KIND_MEANING[effect.kind];
    out.push({
      position: { line, character: index.lineLength(line) },
      label: `${e + 1}/${index.effects.length} · ${taskName(uri, facts, effect.task)} · ${effect.kind}${meaning ? ` (${meaning})` : ''}${effect.fault ? ' · fault' : ''}`,
      kind: InlayHintKind.Parameter,
      paddingLeft: true,
    });
  }
  return out;
}

export function capsuleSymbols(uri: string, index: CapsuleIndex, facts: RunFactsStore): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const firstEffect = index.effects[0]?.line ?? index.lines;
  if (firstEffect > 0) {
    out.push({ name: 'capsule', detail: index.fact('Request')?.value ?? '', kind: SymbolKind.Namespace, range: lines(0, firstEffect - 1), selectionRange: lines(0, 0) });
  }
  const tasks = [...index.taskEffects.keys()].sort((a, b) => a - b).slice(0, MAX_THREAD_SYMBOLS);
  const perTask = childrenPerThread(tasks.length);
  for (const task of tasks) {
    const list = index.taskEffects.get(task)!;
    const first = index.effects[list[0]].line;
    const last = index.effects[list[list.length - 1]].line;
    out.push({
      name: taskName(uri, facts, task),
      detail: `${plural(list.length, 'effect')}${list.length > perTask ? ` (first ${perTask} listed)` : ''}`,
      kind: SymbolKind.Class,
      range: lines(first, last),
      selectionRange: lines(first, first),
      children: list.slice(0, perTask).map((e) => {
        const effect = index.effects[e];
        return { name: `#${effect.seq} ${effect.kind}`, detail: effect.result.slice(0, 80), kind: effect.fault ? SymbolKind.Event : SymbolKind.Function, range: lines(effect.line, effect.line), selectionRange: lines(effect.line, effect.line) };
      }),
    });
  }
  return out;
}

export function capsuleFoldingRanges(index: CapsuleIndex, limit: number): FoldingRange[] {
  const out: FoldingRange[] = [];
  const firstEffect = index.effects[0]?.line ?? index.lines;
  if (firstEffect > 2) out.push({ startLine: 0, endLine: firstEffect - 2, kind: 'imports' });
  const runs = index.runs();
  for (const range of foldRuns(runs, limit - out.length, (i) => `task ${runs[i + 2]}: ${runs[i + 1] - runs[i] + 1} effects`)) out.push(range); // no spread: the client sets the limit
  return out;
}

export function capsuleLenses(uri: string, index: CapsuleIndex, facts: RunFactsStore): CodeLens[] {
  if (index.effects.length === 0) return [];
  const panic = capsulePanic(uri, index, facts);
  const panicTitle = panic ? `task ${panic.thread}, after effect ${panic.position - 1}` : '';
  const title = (line: number) => {
    const e = index.effects[index.effectAtLine[line]];
    return `#${e.seq} · task ${e.task}`;
  };
  let targets: number[];
  if (index.effects.length <= MAX_RECORD_LENSES) {
    targets = index.effects.map((e) => e.line);
  } else {
    const runs = index.runs();
    targets = [];
    for (let i = 0; i < runs.length; i += 3) targets.push(runs[i]);
  }
  const panicLine = panic && panic.position > 0 ? (index.effects[panic.position - 1]?.line ?? -1) : -1;
  return recordingLenses(uri, panicTitle, targets, title, panicLine);
}

function lines(start: number, end: number) {
  return { start: { line: start, character: 0 }, end: { line: end, character: 0x7fffffff } };
}
