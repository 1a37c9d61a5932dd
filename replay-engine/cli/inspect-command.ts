// `frozen-run inspect FILE`: reads any recording, adds the toolchain's results unless
// --no-toolchain, prints JSON or a short summary.
import { openRecording } from '../open';
import { OPEN_OPTIONS, parse } from './args';
import { capsuleLimitMB, timeLimitMs } from '../option-values';
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
  // The JSON document is written in chunks: its large arrays (effects, threads, chains) item by item.
  if (values.json === true) await writeJsonDocument(rec.inspectDocument());
  else writeText(process.stdout, rec.inspectText());
  return 0;
}

