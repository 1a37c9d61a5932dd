// `frozen-run hits TRACE FILE:LINE [--expr E] [--goroutine G] [--json]` and `frozen-run origin
// TRACE VAR [--at POSITION] [--goroutine G] [--json]` (issue 30): every hit of a program line with
// an expression's value at each, or how often each line ran (LINE omitted: `FILE` alone); where a
// variable's value came from. Both need machin's replay against the instrumented program.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hitLine, LogPoint, LogPointError } from '../../debug-adapter/log-point-hits';
import { OriginError, ValueOrigins } from '../machin/source/value-origin';
import { lineCounts } from '../model/line-counts';
import { RecordingError } from '../model/errors';
import { readyStatements, type Recording } from '../model/recording';
import type { SourceStatements } from '../model/source-level';
import { openRecording } from '../open';
import { OPEN_OPTIONS, parse, type Parsed } from './args';
import { timeLimitMs } from '../option-values';
import { UsageError } from '../model/errors';
import { statementPlace } from '../model/step-words';
import { writeText } from './printable';

async function openAtSourceLevel(file: string, values: Parsed['values']): Promise<{ rec: Recording; s: SourceStatements }> {
  if (values['no-toolchain']) throw new UsageError('this command needs machin; it cannot run with --no-toolchain');
  const rec = await openRecording(file, {
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
  });
  const s = readyStatements(rec);
  if (!s) {
    const why = rec.sourceLevel?.state === 'unavailable' ? rec.sourceLevel.reason : rec.warnings.map((w) => w.message).join('; ') || 'machin gave no statements';
    throw new RecordingError('toolchain-failed', `${file}: the program's statements are not known: ${why}`, { file });
  }
  return { rec, s };
}

export async function runHits(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, { ...OPEN_OPTIONS, expr: { type: 'string' }, goroutine: { type: 'string' } }, { min: 2, max: 2, names: 'TRACE and FILE:LINE' });
  const [file, where] = positionals;
  const m = /^(.*?)(?::(\d+))?$/.exec(where)!;
  const { rec, s } = await openAtSourceLevel(file, values);
  if (m[1] && resolve(m[1]) !== resolve(s.file) && !s.file.endsWith(`/${m[1]}`)) throw new UsageError(`${m[1]} is not the recording's program (${s.file})`);
  if (m[2] === undefined) {
    const counts = lineCounts(s, rec.timeline);
    if (values.json) process.stdout.write(JSON.stringify(counts, null, 2) + '\n');
    else {
      const lines = counts.lines.map((l) => `  line ${String(l.line).padStart(5)}  ${String(l.hits).padStart(8)}  ${Object.entries(l.byGoroutine).map(([g, n]) => `${g}:${n}`).join(' ')}${l.thisReplayOnly ? `  (${l.thisReplayOnly} this replay only)` : ''}`);
      writeText(process.stdout, `${counts.file}: ${counts.lines.length} lines ran\n${lines.join('\n')}\nnot reached in this run: ${counts.notReached.join(', ') || 'none'}\n`);
    }
    return 0;
  }
  const line = Number(m[2]);
  const programLines = readFileSync(s.file, 'utf8').replace(/\n$/, '').split('\n').length;
  if (line < 1 || line > programLines) throw new UsageError(`line ${line} is not in ${s.file} (it has ${programLines} lines)`);
  let hits;
  try {
    const expr = (values.expr as string | undefined) ?? '';
    const lp = new LogPoint(rec, s, { line, logMessage: expr ? `{${expr}}` : '' });
    hits = lp.all({ goroutine: values.goroutine as string | undefined });
  } catch (e) {
    if (e instanceof LogPointError) throw new RecordingError('malformed', `${file}: ${e.message}`, { file });
    throw e;
  }
  if (values.json) process.stdout.write(JSON.stringify({ file: s.file, line, expression: values.expr ?? null, hits }, null, 2) + '\n');
  else writeText(process.stdout, `${s.file}:${line}: ${hits.length} hit${hits.length === 1 ? '' : 's'}\n${hits.map((h) => `  ${hitLine(h, rec.timeline.stepCount)}`).join('\n')}${hits.length ? '\n' : ''}`);
  return 0;
}

export async function runOrigin(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, { ...OPEN_OPTIONS, at: { type: 'string' }, goroutine: { type: 'string' } }, { min: 2, max: 2, names: 'TRACE and VAR' });
  const [file, variable] = positionals;
  const { rec, s } = await openAtSourceLevel(file, values);
  const tl = rec.timeline;
  const at = values.at === undefined ? tl.stepCount : Number(values.at);
  if (!Number.isInteger(at) || at < 0 || at > tl.stepCount) throw new UsageError(`--at wants a position 0..${tl.stepCount}, got \`${values.at}\``);
  const g = (values.goroutine as string | undefined) ?? (rec.panic ? tl.threads[rec.panic.thread].id : '0');
  const t = tl.threadIndex(g);
  if (t < 0) throw new UsageError(`no goroutine ${g} in this recording`);
  // The goroutine's statement when `at` ops are done (its last at the end).
  const e = s.currentEvent(t, (at >= tl.stepCount ? s.eventCount : s.seqAtPosition(at)) - 1);
  if (e < 0) throw new RecordingError('malformed', `${file}: goroutine ${g} has run no statement at position ${at}`, { file });
  let chain;
  try {
    chain = new ValueOrigins(rec, s).chain(variable, t, e, at);
  } catch (err) {
    if (err instanceof OriginError) throw new RecordingError('malformed', `${file}: ${err.message}`, { file });
    throw err;
  }
  if (values.json) process.stdout.write(JSON.stringify(chain, null, 2) + '\n');
  else {
    const steps = chain.steps.map((x, k) => `  ${k + 1}. ${x.via.padEnd(7)} goroutine ${x.goroutine} ${x.function} line ${x.line}:${x.column} ${statementPlace(x.position, tl.stepCount, 'op')}  ${x.text}${x.value !== null ? `  (${x.variable} = ${x.value})` : ''}${x.thisReplayOnly ? '  (this replay only)' : ''}`);
    writeText(process.stdout, `${variable} = ${chain.value} in goroutine ${chain.goroutine}\n${steps.join('\n')}\n  end: ${chain.end.message}\n`);
  }
  return 0;
}
