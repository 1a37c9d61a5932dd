// The timeline webview's model, built from a recording the engine read: the timeline's arrays as
// they are, plus facts, the panic and a capsule's request. No vscode import: the host sends it
// (extension/timeline-editor.ts, the compare view) and the webview tests and bench build the
// very same one.
import { basename } from 'node:path';
import type { Recording } from '../../replay-engine/model/recording';
import type { TimelineModel } from '../../webview-ui/protocol';
import { toolchainNoteOf, verdictOf } from '../faithfulness';
import { laneOrder } from '../lane-order';
import { programModel } from './program-model';

/** Summaries sent with the model, so hovers need no round trip; the rest come on request. */
export const SUMMARY_LIMIT = 10_000;

export function timelineModel(recording: Recording, summaryLimit = SUMMARY_LIMIT): TimelineModel {
  const tl = recording.timeline;
  const n = Math.min(tl.recordCount, summaryLimit);
  const summaries: string[] = [];
  for (let r = 0; r < n; r++) summaries.push(recording.describe(r).summary);
  const panic = recording.panic;
  // Lanes main first, then by id: the view's thread indices are lane numbers (lane-order.ts).
  const lanes = laneOrder(tl);
  return {
    format: tl.format,
    traits: tl.traits,
    fileName: basename(tl.file),
    facts: tl.facts.map((f) => ({ key: f.key, label: f.label, value: f.value })),
    threads: lanes.threads,
    kinds: [...tl.kinds],
    recordCount: tl.recordCount,
    recordThread: lanes.recordLane,
    recordKind: tl.kind,
    stepRecord: tl.stepRecords(),
    summaries,
    panic: panic ? { position: panic.position, thread: lanes.laneOf[panic.thread], message: panic.message } : null,
    bestEffort: recording.bestEffort,
    // A capsule's request, decoded, for the details panel before any selection (the extension's
    // one narrowing of the recording to its format).
    request: recording.format === 'tcap' ? recording.requestValue() : undefined,
    verdict: verdictOf(recording),
    toolchainNote: toolchainNoteOf(recording),
    program: programModel(recording),
  };
}
