// Looking up a toolchain executable the way a shell would: on PATH (with PATHEXT on Windows).
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/** The first executable file called `name` in the folders of env.PATH, or undefined. */
export function searchPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = path.resolve(dir, name + ext);
      if (isExecutable(p)) return p;
    }
  }
  return undefined;
}

export function isExecutable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
