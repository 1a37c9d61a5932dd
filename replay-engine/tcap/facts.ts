// The header facts of a capsule, as shown in the timeline header, the document and the CLI summary.
import type { HeaderFact } from '../model/timeline';
import type { CapsuleHeader } from './body';
import { looseText, quote } from './decode/bytes-text';
import { isoFromNanos } from './decode/words';
import { FLAG_PANICKED, FLAG_SAMPLED } from './format';

function oneLine(bytes: Uint8Array): string {
  const t = looseText(bytes);
  return /[\x00-\x1f\x7f]/.test(t) ? quote(t, 1000) : t;
}

export function requestLine(request: Uint8Array): string {
  const end = request.indexOf(0x0a);
  let stop = end < 0 ? request.length : end;
  if (stop > 0 && request[stop - 1] === 0x0d) stop--;
  return oneLine(request.subarray(0, stop));
}

export function capsuleFacts(h: CapsuleHeader, envelope: number, effectCount: number, taskCount: number): HeaderFact[] {
  const panicked = (h.flags & FLAG_PANICKED) !== 0n;
  const sampled = (h.flags & FLAG_SAMPLED) !== 0n;
  const facts: HeaderFact[] = [
    { key: 'format', label: 'Format', value: `Tin capsule, envelope ${envelope}, schema ${h.schema}` },
    { key: 'tin', label: 'Tin', value: oneLine(h.tin) },
    { key: 'program', label: 'Program', value: oneLine(h.program) },
    { key: 'wall', label: 'Started', value: `${isoFromNanos(h.wall)} (${h.wall} ns)` },
    { key: 'core', label: 'Core', value: h.core.toString() },
    { key: 'status', label: 'Status', value: h.status.toString() },
    { key: 'flags', label: 'Flags', value: `${h.flags} (${panicked ? 'panicked' : 'no panic'}, ${sampled ? 'kept by sampling' : 'not sampled'})` },
    { key: 'request', label: 'Request', value: requestLine(h.request) },
  ];
  if (h.peer !== null) facts.push({ key: 'peer', label: 'Peer', value: oneLine(h.peer) || '(not recorded)' });
  if (h.panic.length) facts.push({ key: 'panic', label: 'Panic', value: oneLine(h.panic) });
  facts.push({ key: 'effects', label: 'Effects', value: `${effectCount} on ${taskCount} task${taskCount === 1 ? '' : 's'}` });
  return facts;
}
