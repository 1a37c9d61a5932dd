// Envelope version 2 wraps a per-capsule data key for each reader (X25519 + ML-KEM-768 via HPKE,
// signed with ed25519). This reader cannot open it, but the format promises a plain-text summary
// (`status=`, `method=`, `path=`, optionally `panic=`) readable without a key. The document does not
// pin where that summary sits, so it is found by scanning the start of the file for those fields.
import { RecordingError } from '../model/errors';
import { MAGIC_LENGTH } from './format';
import { u8 } from './u8';

export interface PlainSummary {
  status?: string;
  method?: string;
  path?: string;
  panic?: string;
}

const SUMMARY_FIELDS = ['status', 'method', 'path', 'panic'] as const;
/** The summary is written before the wrapped keys and the sealed body; scan this much of the file. */
const SCAN_LIMIT = 64 * 1024;
const MAX_VALUE = 1024;

/** The plain summary of a version 2 capsule: each `name=value` text ending at a newline, NUL or non-printable byte. */
export function readPlainSummary(bytes: Uint8Array): PlainSummary {
  const region = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SCAN_LIMIT));
  const summary: PlainSummary = {};
  for (const name of SUMMARY_FIELDS) {
    const marker = Buffer.from(`${name}=`, 'latin1');
    let at = region.indexOf(u8(marker), MAGIC_LENGTH);
    // Only a field at the start of a line or after a non-printable byte, so `xpath=` is not `path=`.
    while (at > 0 && isFieldChar(region[at - 1])) at = region.indexOf(u8(marker), at + 1);
    if (at < 0) continue;
    let end = at + marker.length;
    while (end < region.length && end - at < MAX_VALUE && isValueByte(region[end]) && !startsNextField(region, end)) end++;
    summary[name] = region.toString('utf8', at + marker.length, end);
  }
  return summary;
}

export function describePlainSummary(s: PlainSummary): string {
  const parts = SUMMARY_FIELDS.filter((k) => s[k] !== undefined).map((k) => `${k}=${s[k]}`);
  return parts.length ? parts.join(' ') : 'no plain summary found';
}

export function v2NeedsIdentityError(bytes: Uint8Array, file: string): RecordingError {
  const summary = readPlainSummary(bytes);
  const err = new RecordingError(
    'needs-identity',
    `${file}: a version 2 capsule: its key is wrapped for each reader, so opening it needs a reader identity (X25519 + ML-KEM-768), which Frozen Run does not have yet; open it with tin, or ask for a version 1 capsule. Plain summary: ${describePlainSummary(summary)}`,
    { file, offset: 6 },
  );
  (err as RecordingError & { summary?: PlainSummary }).summary = summary;
  return err;
}

function isFieldChar(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x2d || b === 0x2e;
}

function isValueByte(b: number): boolean {
  return b >= 0x20 && b !== 0x7f; // printable, UTF-8 continuation bytes too
}

/** A space before another field (`status=500 method=GET` on one line) ends a value. */
function startsNextField(region: Buffer, at: number): boolean {
  if (region[at] !== 0x20 && region[at] !== 0x09) return false;
  return SUMMARY_FIELDS.some((k) => region.toString('latin1', at + 1, at + 2 + k.length) === `${k}=`);
}
