// What the extension host sends the timeline, built from a recording the engine read: the same
// derivation the host does (replay-engine Recording → webview-ui/protocol TimelineModel).
import { basename } from 'node:path';
import type { Recording } from '../../../replay-engine/model/recording';
import { requestValue } from '../../../replay-engine/tcap/decode/http-request';
import { TcapRecording } from '../../../replay-engine/tcap/tcap-recording';
import type { TimelineModel } from '../../../webview-ui/protocol';

export function timelineModelOf(recording: Recording, summaries = 10_000): TimelineModel {
  const t = recording.timeline;
  const panic = recording.panic;
  const n = t.recordCount;
  return {
    format: t.format,
    fileName: basename(t.file),
    facts: t.facts.map((f) => ({ key: f.key, label: f.label, value: f.value })),
    threads: t.threads.map((th) => ({ id: th.id, label: th.label })),
    kinds: [...t.kinds],
    recordCount: n,
    recordThread: t.thread,
    recordKind: t.kind,
    stepRecord: t.stepRecords(),
    summaries: Array.from({ length: Math.min(n, summaries) }, (_, r) => recording.describe(r).summary),
    panic: panic ? { position: panic.position, thread: panic.thread, message: panic.message } : null,
    bestEffort: recording.bestEffort,
    request: recording instanceof TcapRecording ? requestValue(recording.header.request) : undefined,
  };
}
