// Small in-memory timelines for alignment tests: records given as `S 0.1` / `I 0 hex-less text`.
import { TimelineBuilder, type Timeline } from '../../../replay-engine/model/timeline';

export function timelineOf(lines: string[], file = 'test.mflrr'): Timeline {
  const b = new TimelineBuilder(lines.length, 64 * lines.length + 1);
  const sched = b.internKind('sched', true);
  const io = b.internKind('io', false);
  for (const line of lines) {
    const [tag, id, ...rest] = line.split(' ');
    const thread = b.internThread(id);
    if (tag === 'I') {
      const bytes = Buffer.from(rest.join(' '));
      const at = b.reservePayload(bytes.length);
      b.payloadBytes.set(bytes, at);
      b.add(io, thread);
    } else b.add(sched, thread);
  }
  return b.finish('mflrr', file, [], 1);
}
