// Puts what the program source tells into a recording: goroutine labels (the function each runs)
// and source locations for stack frames. Needs no toolchain: only the `.mfl` file.
import type { Recording, SourceLocation } from '../model/recording';
import type { HeaderFact } from '../model/timeline';
import type { MflProgram } from './mfl-program';
import { goroutineFunction } from './source/program-functions';

type Locate = (record: number) => SourceLocation | undefined;

/**
 * The header's `Program` fact names the file used (a trace mailed from CI names a path of that
 * machine, and the `.mfl` beside the trace is the one read and replayed), the recorded path after
 * it as `recorded as`.
 */
export function showProgramUsed(facts: HeaderFact[], used: string): void {
  const i = facts.findIndex((f) => f.key === 'program');
  if (i < 0 || facts[i].value === used) return;
  const recorded = facts[i].value;
  facts[i] = { ...facts[i], value: used };
  const j = facts.findIndex((f) => f.key === 'recordedProgram');
  const fact = { key: 'recordedProgram', label: 'recorded as', value: j >= 0 ? facts[j].value : recorded };
  if (j >= 0) facts[j] = fact;
  else facts.splice(i + 1, 0, fact);
}

/**
 * Labels the recording's goroutines from the program and makes `sourceLocation(record)` answer
 * with the function the record's goroutine runs (`threadLocation(thread)` likewise, for a
 * goroutine with no records). A label the recording already has is kept.
 */
export function attachProgram(rec: Recording, program: MflProgram): void {
  const tl = rec.timeline;
  showProgramUsed(tl.facts, program.path);
  rec.programUsed = program.path;
  const perThread: Array<SourceLocation | undefined> = tl.threads.map((t) => {
    const fn = goroutineFunction(program, t.id);
    if (fn && !t.label) t.label = fn.name;
    return fn ? { path: program.path, line: fn.line, name: fn.name } : undefined;
  });
  const locate: Locate = (record) => (record >= 0 && record < tl.recordCount ? perThread[tl.thread[record]] : undefined);
  const locateThread = (thread: number) => perThread[thread];
  // MflrrRecording routes sourceLocation() / threadLocation() through its hooks; other recordings get the methods.
  const hooked = rec as Recording & { locateSource?: Locate | null; locateThread?: typeof locateThread | null };
  if ('locateSource' in hooked) {
    hooked.locateSource = locate;
    hooked.locateThread = locateThread;
  } else {
    rec.sourceLocation = locate;
    rec.threadLocation = locateThread;
  }
}
