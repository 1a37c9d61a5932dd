// Hex digit values for decoding `I` payloads straight from the file's bytes. -1: not a hex digit.
// machin writes lower case; upper case is accepted too since it means the same bytes.
export const HEX_VALUE: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[97 + i] = 10 + i;
    t[65 + i] = 10 + i;
  }
  return t;
})();
