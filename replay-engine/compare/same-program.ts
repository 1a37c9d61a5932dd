// Two recordings can be compared only when they are of the same format and the same program.
// Programs are compared by base name: a trace mailed from CI names `/home/ci/app/flaky.mfl`,
// one recorded here `/Users/me/src/flaky.mfl`; both are runs of `flaky.mfl`.
import { RecordingError } from '../model/errors';
import type { Recording } from '../model/recording';

export interface ProgramCheck {
  /** The program as each recording names it ('' when it names none). */
  a: string;
  b: string;
  /** What was compared, for the report: "base names". */
  compared: string;
  /** Why the check could not be made, when one side names no program. */
  warnings: string[];
}

/** The program a recording names, or '' when it names none. */
export function programOf(recording: Recording): string {
  return recording.programNamed();
}

/** The last path component, for `/` and `\` paths alike (a trace may come from Windows). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1];
}

export function checkSameProgram(a: Recording, b: Recording): ProgramCheck {
  const ta = a.timeline;
  const tb = b.timeline;
  if (ta.format !== tb.format) {
    throw new RecordingError(
      'not-comparable',
      `${baseName(ta.file)} is ${ta.traits.fileKind} and ${baseName(tb.file)} is ${tb.traits.fileKind}: ` +
        'only two recordings of the same format (and program) can be compared.',
      { file: tb.file },
    );
  }
  const pa = programOf(a);
  const pb = programOf(b);
  const warnings: string[] = [];
  if (pa && pb && baseName(pa) !== baseName(pb)) {
    throw new RecordingError(
      'not-comparable',
      `${baseName(ta.file)} is a run of ${baseName(pa)} (${pa}) but ${baseName(tb.file)} is a run of ${baseName(pb)} (${pb}): ` +
        'runs of different programs cannot be compared (their program file names were compared, since a mailed ' +
        'recording names the path on the machine that recorded it). Pick a recording of the same program.',
      { file: tb.file },
    );
  }
  for (const [t, p] of [
    [ta, pa],
    [tb, pb],
  ] as const) {
    if (!p) warnings.push(`${baseName(t.file)} names no program: could not check that both are runs of the same program.`);
  }
  return { a: pa, b: pb, compared: 'program file base names', warnings };
}
