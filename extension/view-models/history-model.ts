// The variable history webview's model for one variable: every value it took, with the position
// and thread of each, in true order. No vscode import: the host (extension/history-panel.ts) and
// the webview tests build it the same way.
import type { Recording, ValueHistories } from '../../replay-engine/model/recording';
import type { HistoryModel } from '../../webview-ui/protocol';

export function historyModel(recording: Recording, histories: ValueHistories, name: string): HistoryModel {
  const entries = histories.entries(name);
  return {
    name,
    threads: recording.timeline.threads.map((t) => ({ id: t.id, label: t.label })),
    position: Uint32Array.from(entries, (e) => e.position),
    thread: Uint32Array.from(entries, (e) => e.thread),
    values: entries.map((e) => e.value),
    thisReplayOnly: Uint8Array.from(entries, (e) => (e.thisReplayOnly ? 1 : 0)),
  };
}
