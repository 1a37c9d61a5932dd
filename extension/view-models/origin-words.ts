// How "Where did this value come from?" reads in the editor (issue 30, point 3), without vscode:
// one row per link of the chain the adapter answered (frozenRun/valueOrigin), newest first (the
// store that put the value where it is now, then the copy, the send, the call it came through),
// each with goroutine, function, line:column, value and how it came; then one row saying where
// the chain leaves what the recording knows.
import type { OriginChain, OriginEnd, OriginStep, OriginVia } from '../../replay-engine/machin/source/value-origin';
import { hitPlace } from './hit-words';

const VIA: Record<OriginVia, string> = {
  store: 'stored here',
  copy: 'copied here',
  receive: 'received here',
  send: 'sent here',
  call: 'passed by this call',
};

export interface OriginRow {
  label: string;
  description: string;
  detail: string;
}

export function stepRow(s: OriginStep, k: number): OriginRow {
  return {
    label: `${k + 1}. ${s.variable} = ${s.value ?? '?'}`,
    description: `${VIA[s.via] ?? s.via} · goroutine ${s.goroutine} · ${s.function} ${s.line}:${s.column} · ${hitPlace(s.position)}${s.thisReplayOnly ? ' · this replay only' : ''}`,
    detail: s.text,
  };
}

const END: Record<OriginEnd['kind'], string> = {
  io: 'read from I/O',
  constant: 'a constant',
  computed: 'computed',
  'call-result': 'a call\'s result',
  unmatched: 'not followed',
  'not-recorded': 'not in the recording',
};

export function endRow(e: OriginEnd): OriginRow {
  const where = e.kind === 'io' && e.recordLine !== undefined ? ` (the recording's line ${e.recordLine})` : '';
  const from = e.from?.length ? ` from ${e.from.join(', ')}` : '';
  return { label: `End: ${END[e.kind] ?? e.kind}${from}`, description: '', detail: `${e.message}${where}` };
}

/** The title of the list: the variable, its goroutine and value now. */
export function chainTitle(c: OriginChain): string {
  return `Where ${c.variable} = ${c.value} (goroutine ${c.goroutine}) came from: ${c.steps.length} link${c.steps.length === 1 ? '' : 's'}`;
}
