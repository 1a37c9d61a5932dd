// What the protocol log (the `trace` launch attribute) may show of a message: a client can send a
// capsule key where none belongs (a `key` attribute in a restart or a second launch, refused, or a
// key pasted into an expression), and the log must not hold it either. Attributes whose name says
// key are replaced whole, at any depth; any run of exactly 64 hex digits (a key's form) anywhere
// else in the logged text is replaced too.

const KEY_NAME = /key/i;
const KEY_TEXT = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/gi;
export const REDACTED = '<not logged>';
export const REDACTED_HEX = '<64 hex digits, not logged>';

/** JSON text of `value` with key-named attributes and key-shaped strings redacted. */
export function redactedJson(value: unknown): string {
  const text = JSON.stringify(value, (name, v: unknown) => (name !== '' && KEY_NAME.test(name) && v !== undefined && v !== null && typeof v !== 'boolean' ? REDACTED : v));
  return redactText(text ?? 'undefined');
}

/** `text` with every run of exactly 64 hex digits replaced. */
export function redactText(text: string): string {
  return text.replace(KEY_TEXT, REDACTED_HEX);
}
