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
