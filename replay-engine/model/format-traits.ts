// What each recording format says about itself, in one table: the words views use for its steps
// and threads, what its records are, what the file alone tells of the run's end, and which parts
// of the product apply to it. Every view asks `timeline.traits` (plain data: the webviews get the
// same object in their model) instead of testing the format, so a view never holds a rule of its
// own about machin traces or Tin capsules.

export type RecordingFormat = 'mflrr' | 'tcap';

/** The words a view uses for a format's steps and threads ("op 3 of 8, goroutine 0.1"). */
export interface UnitWords {
  step: string;
  steps: string;
  thread: string;
  threads: string;
  /** Threads at the start of a sentence or a heading: `Goroutines`, `Tasks`. */
  Threads: string;
  /** A step where the word alone is unclear (the timeline's legend, its label): `schedule op`, `effect`. */
  stepLong: string;
  stepsLong: string;
  /** One record of the file, in a message: `a record (an S or I line)`, `an effect`. */
  record: string;
}

export interface FormatTraits {
  /** The file as a person calls it: `machin trace`, `Tin capsule`. */
  name: string;
  units: UnitWords;
  /** How a thread is named in text: by its label (`goroutine 0.1 worker` reads `0.1`'s label) or its id (`task 2`). */
  threadName: 'label' | 'id';
  /** What the lane search takes. */
  threadQuery: string;
  /** A record that is not a step, as the timeline's legend says it; null when every record is a step. */
  otherRecord: string | null;
  /** The name of the Variables scope that lists what a thread took in so far. */
  takenScope: string;
  /**
   * Whether the file alone says how the run ended: a capsule records its panic (none recorded:
   * the run did not panic); a trace does not (only machin's replay says, with a verdict).
   */
  endRecorded: boolean;
  /** The toolchain whose replay adds the panic, the verdict and the program's values (`machin`); null: the file holds all there is. */
  toolchain: string | null;
  /** Whether the run has program statements to step through (a machin program); else why not. */
  statements: true | string;
  /** Why a thread shows no program values when the recording has none. */
  noValues: string;
  /** What two runs of it take the same of, in `compare`'s words: `schedule`, `effects`. */
  sequence: string;
  /** Where two runs part when a step differs (`compare`'s cause). */
  stepCause: 'schedule' | 'effect';
  /** Whether the thread is part of a record's identity (`compare`): a goroutine's op is its goroutine's; a task's effect is what it asked. */
  threadInIdentity: boolean;
  /** The file as `compare`'s refusal names it: `a machin trace (.mflrr)`. */
  fileKind: string;
  /** Opening it asks for a key. */
  keyed: boolean;
  /** The timeline's own action for this format. */
  viewAction: { id: 'openAsText' | 'replayAgainstBuild'; label: string; title: string };
  /** What the output says once the file is open (reports.ts), when the file alone is all there is. */
  opened: string | null;
  /** The document the debug adapter serves for it: the trace as it is, or the capsule decoded. */
  served: { suffix: string; mimeType: string; origin: string };
}

export const FORMAT_TRAITS: Record<RecordingFormat, FormatTraits> = {
  mflrr: {
    name: 'machin trace',
    units: { step: 'op', steps: 'ops', thread: 'goroutine', threads: 'goroutines', Threads: 'Goroutines', stepLong: 'schedule op', stepsLong: 'schedule ops', record: 'a record (an S or I line)' },
    threadName: 'label',
    threadQuery: 'id (0.1.5), parent path (0.1.*) or name',
    otherRecord: 'I/O read',
    takenScope: 'I/O consumed so far',
    endRecorded: false,
    toolchain: 'machin',
    statements: true,
    noValues: 'machin did not run: program values come from `machin replay --print` (set frozenRun.machinPath, or install machin)',
    sequence: 'schedule',
    stepCause: 'schedule',
    threadInIdentity: true,
    fileKind: 'a machin trace (.mflrr)',
    keyed: false,
    viewAction: { id: 'openAsText', label: 'Open as Text', title: 'Open the trace in a text editor' },
    opened: null,
    served: { suffix: 'replay', mimeType: 'text/x-mflrr', origin: 'recording (read-only)' },
  },
  tcap: {
    name: 'Tin capsule',
    units: { step: 'effect', steps: 'effects', thread: 'task', threads: 'tasks', Threads: 'Tasks', stepLong: 'effect', stepsLong: 'effects', record: 'an effect' },
    threadName: 'id',
    threadQuery: 'task id or name',
    otherRecord: null,
    takenScope: 'Effects of this task so far',
    endRecorded: true,
    toolchain: null,
    statements: 'a capsule has no program statements',
    noValues: 'this capsule has no effect results to show',
    sequence: 'effects',
    stepCause: 'effect',
    threadInIdentity: false,
    fileKind: 'a Tin capsule (.tcap)',
    keyed: true,
    viewAction: { id: 'replayAgainstBuild', label: 'Replay Against Build…', title: 'Replay against a build and mark where it diverges' },
    opened: 'Capsule opened',
    served: { suffix: 'decoded', mimeType: 'text/x-tcap-decoded', origin: 'decoded capsule (read-only)' },
  },
};
