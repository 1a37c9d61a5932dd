// `frozenRun/divergence`: where a replay of a capsule against another build (`tin replay
// --against`, which prints `replay: divergence at effect N: ...`) stopped matching the recording.
// Effect N is the capsule's record N (seq N): the build asked for something else there, so the
// stop is on that record, the recorded effect the build did not repeat. A call after the last
// record (`recorded nothing more`) is marked on the last record. A trace's divergence comes from
// machin replay --verify instead and is not set this way.
import type { Recording } from '../replay-engine/model/recording';
import type { Divergence } from './breakpoints';
import type { DivergenceBody } from './contract';

/** The divergence `{effect, message?}` names (null: clear it), or what is wrong with the request. */
export function replayDivergence(rec: Recording, a: Record<string, unknown>): Divergence | null | string {
  const tl = rec.timeline;
  if (!('effect' in a)) return 'frozenRun/divergence needs { effect }: the N of "divergence at effect N" from tin replay --against (null to clear it).';
  if (a.effect === null) return null;
  if (tl.traits.viewAction.id !== 'replayAgainstBuild') {
    return 'frozenRun/divergence marks where a capsule replayed against a build diverged (tin replay --against); a trace\'s divergence comes from machin replay --verify.';
  }
  const n = a.effect;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return `effect must be an effect number (0, 1, ...), not ${JSON.stringify(n)}.`;
  if (tl.recordCount === 0) return 'This capsule holds no effects: there is no record to mark the divergence on.';
  if (n > tl.recordCount) return `Effect ${n} is past the end of the capsule: it has effects 0..${tl.recordCount - 1} (a call after the last one is effect ${tl.recordCount}).`;
  const after = n === tl.recordCount;
  const record = after ? n - 1 : n;
  const message = typeof a.message === 'string' && a.message.trim() ? a.message.trim() : `tin replay --against: divergence at effect ${n}`;
  return {
    record,
    source: 'replay',
    description: after ? `Divergence after the last effect (${n}): ${message}` : `Divergence at effect ${n}: ${message}`,
    text: message,
  };
}


export function divergenceBody(rec: Recording, d: Divergence | null): DivergenceBody {
  if (!d) return { divergence: null };
  const tl = rec.timeline;
  return { divergence: { record: d.record, line: tl.lineOf(d.record), position: tl.positionOf(d.record), source: d.source, description: d.description, message: d.text } };
}
