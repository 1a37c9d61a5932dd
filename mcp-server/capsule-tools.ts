// compare_recordings and test_secret: `frozen-run compare --json` and `frozen-run secret --json`
// over held recordings. A candidate secret is only compared, never kept or echoed; the key is
// never part of any answer.
import { compareJson } from '../replay-engine/compare/compare-json';
import { compareRecordings } from '../replay-engine/compare/compare-recordings';
import { RecordingError } from '../replay-engine/model/errors';
import { checkSecret } from '../replay-engine/tcap/secret';
import { TcapRecording } from '../replay-engine/tcap/tcap-recording';
import type { HeldRecording } from './held-recordings';

export function compareHeld(a: HeldRecording, b: HeldRecording, valueLimit: number): object {
  return compareJson(compareRecordings(a.recording, b.recording, { valueLimit }).comparison);
}

export function testSecret(held: HeldRecording, candidate: string): object {
  const rec = held.recording;
  if (!(rec instanceof TcapRecording)) {
    throw new RecordingError('usage', `${held.file}: not a Tin capsule; secret handles (tin-secret:…) exist only in capsules`, { file: held.file });
  }
  const { matches, handles } = checkSecret(rec, candidate);
  return { matches, handles };
}
