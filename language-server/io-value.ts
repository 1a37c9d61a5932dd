// I/O values decoded by the engine's own decoder (the one MflrrRecording.describe uses), with the
// same context, so a hover, an inlay hint, the debug adapter's variables and the timeline never
// show one value two ways.
import type { DecodedValue } from '../replay-engine/model/recording';
import { decodeIo as engineDecodeIo } from '../replay-engine/mflrr/decode-io';

export function decodeIo(bytes: Uint8Array, followsOwnStep: boolean): DecodedValue {
  return engineDecodeIo(bytes, { followsOwnStep });
}
