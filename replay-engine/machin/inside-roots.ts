// The one rule for "is this program inside what the user opened": both paths with every symlink
// resolved. A link inside the workspace to a file outside it is outside; the extension's
// confirmation and the engine's check use this same function, so they cannot disagree.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path, or the resolved path when it does not exist (nothing to follow). */
export async function realOrSame(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return path.resolve(p);
  }
}

/** Whether `file`, links resolved, is inside one of `roots`, links resolved. */
export async function isInsideRoots(file: string, roots: readonly string[]): Promise<boolean> {
  const real = await realOrSame(file);
  for (const root of roots) if (isInside(real, await realOrSame(root))) return true;
  return false;
}
