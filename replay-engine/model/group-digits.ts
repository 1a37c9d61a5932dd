// A count as the messages write it: `2,100,012`. What `toLocaleString('en-US')` writes for an
// integer, without it: its first call loads the locale data, about 30 ms of the main thread,
// and the launch's first such message comes while the statements are read (the critical path).

/** An integer with a comma between each group of three digits. */
export function groupDigits(n: number): string {
  const digits = String(Math.abs(Math.trunc(n)));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 && out !== '0' ? `-${out}` : out;
}
