// `frozen-run inspect FILE`: reads any recording, adds the toolchain's results unless
// --no-toolchain, prints JSON or a short summary.
import { MflrrRecording } from '../mflrr/recording';
import type { Recording } from '../model/recording';
import { openRecording } from '../open';
import { capsuleInspectDocument, capsuleInspectText } from '../tcap/inspect';
import { OPEN_OPTIONS, parse } from './args';
import { capsuleLimitMB, timeLimitMs } from '../option-values';
import { traceInspectDocument, traceInspectText } from '../mflrr/inspect-document';
import { writeText } from './printable';
import { writeJsonDocument } from './write-chunks';

export async function runInspect(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, OPEN_OPTIONS, { min: 1, max: 1, names: 'FILE' });
  const rec = await openRecording(positionals[0], {
    // prints no statements: one machin replay, not the plain one plus the instrumented one
    sourceLevel: false,
    noToolchain: values['no-toolchain'] === true,
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    keyHex: values.key as string | undefined,
    keyFile: values['key-file'] as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
    capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb']),
  });
  // JSON stays exact (and streamed); text for a person is made printable.
  if (values.json === true) await writeJsonDocument(inspectDocument(rec));
  else writeText(process.stdout, inspectText(rec));
  return 0;
}

/** The JSON document, written in chunks: its large arrays (effects, threads, chains) item by item. */
function inspectDocument(rec: Recording): object {
  if (rec instanceof MflrrRecording) return traceInspectDocument(rec);
  return capsuleInspectDocument(rec);
}

function inspectText(rec: Recording): string {
  if (rec instanceof MflrrRecording) return traceInspectText(rec);
  return capsuleInspectText(rec);
}
