// Spool file names: `WALL-CORE-N.tcap` (wall clock in ns, 20 digits; core, 3 digits; a per-core
// counter), written under a `.tmp` name first and renamed. Only `.tcap` names are capsules.

export interface SpoolName {
  wall: bigint;
  core: number;
  counter: number;
}

const NAME = /^(\d{1,20})-(\d{1,6})-(\d{1,12})\.tcap$/i;

/** True for a finished capsule's name (never a `.tmp` being written). */
export function isCapsuleName(name: string): boolean {
  return name.toLowerCase().endsWith('.tcap');
}

/** The wall clock, core and counter in a spool name; undefined when the name is not of that form. */
export function parseSpoolName(name: string): SpoolName | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  return { wall: BigInt(m[1]), core: Number(m[2]), counter: Number(m[3]) };
}

/** A file name as the folder holds it: its text, or null when its bytes are not UTF-8 (no path string can name it). */
export function decodedName(bytes: Buffer): string | null {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : null;
}

/** A name that is not UTF-8, shown with each byte outside ASCII (and each backslash) escaped: `e\xff.tcap`. */
export function escapedName(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 || b === 0x5c ? `\\x${b.toString(16).padStart(2, '0')}` : String.fromCharCode(b);
  return out;
}
