// compare_recordings and test_secret: `frozen-run compare --json` and `frozen-run secret --json`
// over held recordings. A candidate secret is only compared, never kept or echoed; the key is
// never part of any answer.
import { compareJson } from '../replay-engine/compare/compare-json';
import { compareRecordings } from '../replay-engine/compare/compare-recordings';
import { capsuleWithSecrets, checkSecret } from '../replay-engine/tcap/secret';
import type { HeldRecording } from './held-recordings';

export function compareHeld(a: HeldRecording, b: HeldRecording, valueLimit: number): object {
  return compareJson(compareRecordings(a.recording, b.recording, { valueLimit }).comparison);
}

export function testSecret(held: HeldRecording, candidate: string): object {
  const { matches, handles } = checkSecret(capsuleWithSecrets(held.recording, held.file), candidate);
  return { matches, handles };
}
