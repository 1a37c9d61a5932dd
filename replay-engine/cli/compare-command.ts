// `frozen-run compare A B [--json] [--no-toolchain]`: where two runs of the same program part.
// Exit 0 when both were read and compared (whether or not they differ), 1 when either cannot be
// read or they are not comparable (different programs or formats), 2 for a usage error.
import { compareRecordings } from '../compare/compare-recordings';
import { compareJson } from '../compare/compare-json';
import { formatComparison } from '../compare/format-comparison';
import type { OpenOptions } from '../open-options';
import { openRecording } from '../open';
import { OPEN_OPTIONS, parse } from './args';
import { capsuleLimitMB, timeLimitMs } from '../option-values';
import { writeText } from './printable';

export async function runCompareCommand(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, OPEN_OPTIONS, { min: 2, max: 2, names: 'A B (two recordings)' });
  const options: OpenOptions = {
    // prints no statements: one machin replay, not the plain one plus the instrumented one
    sourceLevel: false,
    noToolchain: values['no-toolchain'] === true,
    machinPath: values.machin as string | undefined,
    program: values.program as string | undefined,
    keyHex: values.key as string | undefined,
    timeLimitMs: timeLimitMs(values['time-limit']),
    capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb']),
  };
  // One after the other: each may run machin, and a failure names its own file.
  const a = await openRecording(positionals[0], options);
  const b = await openRecording(positionals[1], options);
  const { comparison } = compareRecordings(a, b);
  if (values.json === true) process.stdout.write(JSON.stringify(compareJson(comparison), null, 2) + '\n');
  else writeText(process.stdout, formatComparison(comparison) + '\n');
  return 0;
}
