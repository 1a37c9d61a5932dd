// `frozen-run inspect FILE`: reads any recording, adds the toolchain's results unless
// --no-toolchain, prints JSON or a short summary.
import { MflrrRecording } from '../mflrr/recording';
import type { Recording } from '../model/recording';
import { openRecording } from '../open';
import { capsuleInspectJson, capsuleInspectText } from '../tcap/inspect';
import { OPEN_OPTIONS, parse, timeLimitMs } from './args';
import { traceInspectJson, traceInspectText } from './inspect-trace';
import { writeText } from './printable';

export async function runInspect(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, OPEN_OPTIONS, { min: 1, max: 1, names: 'FILE' });
  const rec = await openRecording(positionals[0], {
    noToolchain: values['no-toolchain'] === true,
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    keyHex: values.key as string | undefined,
    keyFile: values['key-file'] as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
  });
  const json = values.json === true;
  if (json) process.stdout.write(JSON.stringify(inspectJson(rec), null, 2) + '\n');
  else writeText(process.stdout, inspectText(rec));
  return 0;
}

function inspectJson(rec: Recording): object {
  if (rec instanceof MflrrRecording) return traceInspectJson(rec);
  return capsuleInspectJson(rec);
}

function inspectText(rec: Recording): string {
  if (rec instanceof MflrrRecording) return traceInspectText(rec);
  return capsuleInspectText(rec);
}
