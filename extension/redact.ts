// Hides capsule keys in text Frozen Run logs or shows (toolchain output in particular): a key is
// a run of exactly 64 hex digits. A value of that shape that was not a key is hidden too; better
// a hidden value in a log than a leaked key.
const KEY_SHAPED = /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;

export function redact(text: string): string {
  return text.replace(KEY_SHAPED, '<64 hex digits hidden>');
}
