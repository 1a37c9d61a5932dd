// The timeline's marks of the whole run (issue 30), without vscode: log point hits and a value's
// origin chain as the debug session answered them, placed on the lanes the timeline model lists
// (by goroutine id, so the session's thread numbering never matters). Hits or links of a goroutine
// the model has no lane for are left out.
import type { OriginChain } from '../../replay-engine/machin/source/value-origin';
import type { LaneMoment, RunMarksMsg, ThreadMsg } from '../../webview-ui/protocol';
import { chainTitle, endRow } from './origin-words';

export interface HitMoment {
  goroutine: string;
  position: number;
}

export function runMarksMsg(threads: ThreadMsg[], hits: HitMoment[], hitCount: number, origin: OriginChain | null): RunMarksMsg {
  const lane = new Map(threads.map((t, i) => [t.id, i]));
  const placed: LaneMoment[] = [];
  for (const h of hits) {
    const l = lane.get(h.goroutine);
    if (l !== undefined) placed.push({ position: h.position, lane: l });
  }
  const links = origin
    ? origin.steps.flatMap((s) => {
        const l = lane.get(s.goroutine);
        return l === undefined ? [] : [{ position: s.position, lane: l, via: s.via, label: `${s.variable} = ${s.value ?? '?'} · ${s.function} ${s.line}:${s.column}` }];
      })
    : [];
  return {
    type: 'runMarks',
    hits: placed,
    hitCount,
    origin: origin ? { title: chainTitle(origin), links, end: endRow(origin.end).label } : null,
  };
}
