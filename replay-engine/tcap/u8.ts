// A Buffer as a plain Uint8Array view (no copy). The project's Node typings predate TypeScript's
// generic Uint8Array, so a Buffer is not accepted where a Uint8Array is typed.
export function u8(b: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
